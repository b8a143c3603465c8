"""OpenAPI post-processing: every operation documents its error answers with the one shape."""

from __future__ import annotations

from typing import Any

from console.api.limits import INT64_MAX

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "details"],
            "properties": {
                "code": {"type": "string", "description": "snake_case, e.g. invalid"},
                "message": {"type": "string", "description": "a sentence for people"},
                "details": {"type": "object", "additionalProperties": True},
            },
        }
    },
}

DESCRIPTIONS = {
    "400": "Bad input; details.field names the field. Nothing changed.",
    "401": "No credentials (session or token).",
    "403": "The user's role does not allow this.",
    "404": "Unknown cluster, topic, group or reset.",
    "409": "Conflict: the group is active, a reset is running, or a preview no longer holds.",
    "413": "The body is larger than the limit.",
    "415": "The body is not JSON.",
    "429": "Too many writes by this user in a short time (Retry-After says when to retry), "
    "or, for Spark jobs, too many of the user's jobs queued or running.",
    "502": "Kafka answered with an error (or refused our credentials or TLS).",
    "503": "Redis (the lag sampler's store) did not answer.",
    "504": "Kafka did not answer in time.",
}


def _codes(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    # Every operation can answer 400: query values with control characters are refused too.
    codes = ["400", "401", "403"]
    # A required `cluster` query parameter names a cluster that may not exist (a filter does not).
    cluster_query = any(
        p.get("in") == "query" and p.get("name") == "cluster" and p.get("required")
        for p in operation.get("parameters", [])
    )
    if "{" in path or cluster_query:
        codes.append("404")
    if method in ("post", "put", "patch", "delete"):
        codes += ["409", "429"]
    if "requestBody" in operation:
        codes += ["413", "415"]
    if "{cluster}" in path or "offset-resets" in path:
        codes += ["502", "504"]
    if path.endswith("/spark/predictions"):  # reads Kafka (its cluster is in the query)
        codes += ["502", "504"]
    if path.endswith("/lag-history"):
        codes.append("503")
    return codes


# Names in paths (cluster, topic, group) may not hold control characters (console/api/limits.py).
NAME_PATTERN = "^[^\\x00-\\x1F\\x7F]+$"


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, methods in result.get("paths", {}).items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "path" and schema.get("type") == "string":
                    schema["pattern"] = NAME_PATTERN
                if parameter.get("in") == "path" and schema.get("type") == "integer":
                    schema.update(minimum=0, maximum=INT64_MAX)  # a reset id: a bigint
            responses = operation.setdefault("responses", {})
            for code in _codes(path, method, operation):
                responses.setdefault(code, {"description": DESCRIPTIONS[code], "content": ref})
    _close_request_objects(result)
    return result


def _refs(node: Any) -> list[str]:
    """Names of the component schemas `node` refers to, at any depth."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        own = [ref.rsplit("/", 1)[-1]] if isinstance(ref, str) else []
        return own + [name for value in node.values() for name in _refs(value)]
    if isinstance(node, list):
        return [name for item in node for name in _refs(item)]
    return []


def _close_request_objects(result: dict[str, Any]) -> None:
    """`additionalProperties: false` on every object a request body is made of, as the strict
    reader (console.api.strict) refuses an unknown key at any depth."""
    schemas = result.get("components", {}).get("schemas", {})
    bodies = [
        operation["requestBody"]
        for methods in result.get("paths", {}).values()
        for operation in methods.values()
        if isinstance(operation, dict) and "requestBody" in operation
    ]
    pending, seen = _refs(bodies), set()
    while pending:
        name = pending.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        schema = schemas[name]
        if schema.get("type") == "object" and "properties" in schema:
            schema["additionalProperties"] = False
        pending.extend(_refs(schema))
