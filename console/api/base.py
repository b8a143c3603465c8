"""The base every API view derives from: role checks come from `RolePermission`."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.views import APIView

from console.clusters import ClusterConfig, get_cluster
from console.errors import BadInput


class ConsoleAPIView(APIView):
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
