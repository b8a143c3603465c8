"""Query strings read as strictly as bodies: a parameter the operation does not declare is a
400 naming it (`?filtr=under_replicated` once answered every topic), and so is a parameter
given twice (`?filter=a&filter=b` read as its last value) unless it is declared as a list
(`OpenApiParameter(..., many=True)`, e.g. `?partition=0&partition=3`).

What each operation takes is read once per process from the OpenAPI document the views
declare (`extend_schema(parameters=...)`): declared once, enforced and documented alike.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from console.errors import BadInput

_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")
# drf-spectacular's generator is not thread-safe (its extensions load their target classes
# lazily, mutating class attributes): the first requests of a process, in parallel, must not
# build the schema at once (a storm of submits got 500s from that).
_lock = threading.Lock()
_declared: dict[tuple[str, str], dict[str, bool]] | None = None


def declared() -> dict[tuple[str, str], dict[str, bool]]:
    """(METHOD, schema path) -> the query parameters the operation declares, each with
    whether it may be repeated (a list)."""
    global _declared
    if _declared is None:
        with _lock:
            if _declared is None:
                _declared = _read_schema()
    return _declared


def _read_schema() -> dict[tuple[str, str], dict[str, bool]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method.upper(), path): {
            p["name"]: p.get("schema", {}).get("type") == "array"
            for p in operation.get("parameters", [])
            if p.get("in") == "query"
        }
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    }


def schema_path(route: str) -> str:
    """Django's matched route (`api/v1/clusters/<str:cluster>`) as the schema writes it."""
    return "/" + _ROUTE_PARAM.sub(r"{\1}", route)


def check_query(request: Any) -> None:
    """Refuse an undeclared or repeated query parameter of the request's operation."""
    match = getattr(request._request, "resolver_match", None)
    allowed = declared().get((request.method, schema_path(match.route))) if match else None
    if allowed is None:
        return  # HEAD, OPTIONS: not operations of the schema
    for name, values in request.query_params.lists():
        if name not in allowed:
            takes = ", ".join(sorted(allowed)) or "none"
            raise BadInput(
                name, f"{name}: unknown query parameter (this operation takes: {takes})."
            )
        if len(values) > 1 and not allowed[name]:
            raise BadInput(name, f"{name}: given {len(values)} times; give it once.")
