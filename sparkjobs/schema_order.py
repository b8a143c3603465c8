"""JSON objects in the order a job type's schema declares their keys.

PostgreSQL stores JSON as jsonb, which keeps no key order (it sorts keys by length); SQLite
keeps the order written. Answers put a job's params and result in the schema's order (then any
other key as stored), so the API and the pages read the same on either database.
"""

from __future__ import annotations

from typing import Any


def in_schema_order(value: Any, schema: Any) -> Any:
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema, dict) else None
        return [in_schema_order(v, items) for v in value]
    if not isinstance(value, dict):
        return value
    declared = schema.get("properties") if isinstance(schema, dict) else None
    declared = declared if isinstance(declared, dict) else {}
    extra = schema.get("additionalProperties") if isinstance(schema, dict) else None
    extra = extra if isinstance(extra, dict) else None
    ordered = {k: in_schema_order(value[k], declared[k]) for k in declared if k in value}
    for key, item in value.items():
        if key not in ordered:
            ordered[key] = in_schema_order(item, extra)
    return ordered
