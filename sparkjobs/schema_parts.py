"""JSON Schema fragments the job types' params and result schemas are built from: the shapes
every job type repeats, each written once. The key order is the order clients see (the SPA's
forms, jobTypes.gen.json), so each helper keeps the one the catalog has always had."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}


def closed_object(
    properties: dict[str, Any], required: Sequence[str] | None = None
) -> dict[str, Any]:
    """A params object of these properties and no other key: a misspelt key is a 400 naming
    it, never ignored. Without `required`, the schema has no "required" key at all."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def result_object(required: Iterable[str], properties: dict[str, Any]) -> dict[str, Any]:
    """A result object: the keys a script must write, then what each (and any optional one)
    holds."""
    return {"type": "object", "required": list(required), "properties": properties}


def column_table(*columns: str) -> dict[str, Any]:
    """A table of fixed columns: exactly these names, and rows with a cell for each."""
    return result_object(
        ["columns", "rows"],
        {
            "columns": {"const": list(columns)},
            "rows": {"type": "array", "items": {"type": "array", "minItems": len(columns)}},
        },
    )


def optional_time(description: str) -> dict[str, Any]:
    """A date-time param, null by default (the description says what null means); its
    ISO-8601 form and zone are checked at submit, by the job type's checks."""
    return {
        "description": description,
        "type": ["string", "null"],
        "maxLength": 64,
        "default": None,
    }
