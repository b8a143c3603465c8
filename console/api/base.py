"""The base every API view derives from: role checks come from `RolePermission`."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.views import APIView

from console.api.limits import INT64_MAX, MAX_PATH_NAME_BYTES, text_problem
from console.api.query import check_query
from console.api.strict import check_body
from console.clusters import ClusterConfig, get_cluster
from console.errors import BadInput
from console.roles import ClusterScope, has_role, scope_of

_BODY_METHODS = ("POST", "PUT", "PATCH")


class ConsoleAPIView(APIView):
    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # Names in the path (cluster, topic, group) reach Kafka too: same rules as bodies,
        # bounded by what Kafka's protocol carries (a group id is free text up to 32,767 bytes).
        for name, value in self.kwargs.items():
            if isinstance(value, str) and (problem := text_problem(value, MAX_PATH_NAME_BYTES)):
                raise BadInput(name, f"{name}: {problem}")
            if isinstance(value, int) and not 0 <= value <= INT64_MAX:
                raise BadInput(name, f"{name}: must be a whole number from 0 to {INT64_MAX}.")
        # A credential in a URL ends up in logs, proxies and browser history: refused (the
        # REST API takes tokens in the Authorization header only).
        if "token" in request.query_params:
            raise BadInput(
                "token",
                "token: never put a credential in a URL; send `Authorization: Token <key>`.",
            )
        # Query values are filters and flags: no control characters either (a NUL cannot even
        # be stored or compared by PostgreSQL).
        for name, values in request.query_params.lists():
            for value in (name, *values):
                if problem := text_problem(value):
                    raise BadInput(name, f"{name}: {problem}")
        check_query(request)  # undeclared or repeated parameters
        # A write's body is JSON or nothing: a form content type is refused even when the form
        # is empty, rather than read as "no fields given".
        if request.method in _BODY_METHODS and request.content_type:
            media_type = request.content_type.split(";", 1)[0].strip().lower()
            if media_type != "application/json":
                raise exceptions.UnsupportedMediaType(media_type)

    # Role needed for GET/HEAD/OPTIONS and for everything else; see console.roles.
    read_role = "viewer"
    write_role = "admin"

    def cluster(self) -> ClusterConfig:
        return get_cluster(self.kwargs["cluster"])

    def needed_role(self) -> str:
        return self.read_role if self.request.method in SAFE_METHODS else self.write_role

    def require_role(self, cluster: str, role: str | None = None) -> None:
        """The role this call needs (or `role`) on `cluster`, which a view without a cluster in
        its path reads from the object or body it touches; a 403 naming both otherwise."""
        needed = role or self.needed_role()
        if not has_role(self.request.user, needed, cluster):
            raise exceptions.PermissionDenied(
                f"This action needs the {needed} role on cluster {cluster}."
            )

    def scope(self, role: str | None = None) -> ClusterScope:
        """The clusters this user may read (or hold `role` on): what a list shows."""
        return scope_of(self.request.user, role or self.read_role)

    def body_field(self, key: str) -> str:
        """One field of the body as text, for audit targets; empty when absent or malformed."""
        data = self.request.data
        return str(data.get(key, "")) if isinstance(data, dict) else ""

    def no_body(self) -> None:
        """An operation that takes no body refuses one rather than ignore it (`{}` or nothing
        is no body): whatever the client meant by it, it was not done."""
        data = self.request.data
        if data is not None and data != {}:
            raise BadInput("body", "body: this operation takes no body; send none.")

    @staticmethod
    def validated(
        serializer_class: type[serializers.Serializer],
        data: Any,
        partial: bool = False,
        context: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Validated body, or a ValidationError that the error handler turns into a 400.
        `partial`: a change (PATCH), any of the fields; `context`: for the serializer (the
        stored object a change is checked against)."""
        if not isinstance(data, dict):
            raise BadInput("body", "body: expected a JSON object.")
        serializer = serializer_class(data=data, partial=partial, context=context or {})
        check_body(serializer, data)  # unknown keys and coerced types: refused, not dropped
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


def query_int(query: Any, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter in low..high (ASCII digits only); absent: `default`."""
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 20) or not low <= int(raw) <= high:
        raise BadInput(name, f"{name}: give a whole number from {low} to {high}.")
    return int(raw)
