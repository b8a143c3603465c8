"""The base every API view derives from: role checks come from `RolePermission`."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.views import APIView

from console.api.limits import text_problem
from console.clusters import ClusterConfig, get_cluster
from console.errors import BadInput


class ConsoleAPIView(APIView):
    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # Names in the path (cluster, topic, group) reach Kafka too: same rules as bodies.
        for name, value in self.kwargs.items():
            if isinstance(value, str) and (problem := text_problem(value)):
                raise BadInput(name, f"{name}: {problem}")

    # Role needed for GET/HEAD/OPTIONS and for everything else; see console.roles.
    read_role = "viewer"
    write_role = "admin"

    def cluster(self) -> ClusterConfig:
        return get_cluster(self.kwargs["cluster"])

    def body_field(self, key: str) -> str:
        """One field of the body as text, for audit targets; empty when absent or malformed."""
        data = self.request.data
        return str(data.get(key, "")) if isinstance(data, dict) else ""

    @staticmethod
    def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
        """Validated body, or a ValidationError that the error handler turns into a 400."""
        if not isinstance(data, dict):
            raise BadInput("body", "body: expected a JSON object.")
        serializer = serializer_class(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def query_bool(query: Any, name: str, default: bool) -> bool:
    """A strict boolean query parameter: true/false/1/0, anything else is a 400."""
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() not in _BOOLEANS:
        raise BadInput(name, f"{name}: give true or false, not {raw!r}.")
    return _BOOLEANS[raw.lower()]
