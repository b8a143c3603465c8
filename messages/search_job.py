"""The `topic-search` Spark job: a filter over a topic's whole range, for when a scan in the
web process would be too big (its budgets: docs/messages.md, "Limits").

The same filter language and decoders as the messages browser: the script imports
`messages.decoding`, `messages.schemas` and `messages.filtering` (shipped to Spark with the
job), so a record matches on Spark exactly when it matches in a page. The messages app hands
the job type to the job platform (sparkjobs.catalog.register), which knows nothing of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console.errors import BadInput
from console.metadata import ClusterSnapshot
from messages.decoding import FORMATS
from messages.filtering import MAX_LENGTH, RecordFilter
from sparkjobs.job_types import RANGE_PROPERTIES, JobType, check_range
from sparkjobs.schema_parts import COUNT, closed_object, result_object

MAX_MATCHES = 10_000
PRODUCT_MODULES = (
    "console/__init__.py",
    "console/errors.py",
    "console/schema_refs.py",
    "messages/__init__.py",
    "messages/decoding.py",
    "messages/fast_filter.py",
    "messages/filtering.py",
    "messages/schemas.py",
)

_DECODED = {
    "type": ["object", "null"],
    "description": "as the messages API gives a part: format, data, size, schema_id, note",
}
_MATCH = result_object(
    ["partition", "offset", "timestamp_ms", "key", "value", "headers"],
    {
        "partition": COUNT,
        "offset": COUNT,
        "timestamp_ms": {"type": ["integer", "null"]},
        "key": _DECODED,
        "value": _DECODED,
        "headers": {"type": "array"},
    },
)
_RESULT = result_object(
    [
        "records",
        "matched",
        "truncated",
        "filter_errors",
        "filter_error",
        "matches",
        "output_path",
        "ranges",
    ],
    {
        "records": {**COUNT, "description": "records scanned"},
        "matched": {**COUNT, "description": "records the filter matched (all of them)"},
        "truncated": {
            "type": "boolean",
            "description": "more records matched than `matches` lists (max_matches)",
        },
        "filter_errors": {**COUNT, "description": "records the filter could not evaluate"},
        "filter_error": {"type": ["string", "null"], "description": "the first such error"},
        "matches": {
            "type": "array",
            "items": _MATCH,
            "description": "the first max_matches matches by partition and offset",
        },
        "output_path": {
            "type": "string",
            "description": "every match as Parquet (partition, offset, timestamp_ms; key, "
            "value and headers as the JSON text of their decoded form)",
        },
        "ranges": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "integer"}},
        },
    },
)


def check_filter(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    """The filter compiles and names only known variables, before anything is queued."""
    try:
        RecordFilter(params["filter"])
    except BadInput as exc:
        message = exc.message.replace("filter:", "params.filter:", 1)
        raise BadInput("params.filter", message) from None


TOPIC_SEARCH = JobType(
    name="topic-search",
    title="Search a topic",
    description="Every record of a range that a filter matches (the messages browser's CEL "
    "filter and decoders, Schema Registry included), scanned on Spark: for ranges too big "
    "for the browser's scan budgets.",
    script="topic_search.py",
    params_schema=closed_object(
        {
            **RANGE_PROPERTIES,
            "filter": {
                "description": "A CEL expression over key, value, headers, partition, offset "
                "and timestamp, as in the messages browser.",
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_LENGTH,
            },
            "key_format": {
                "description": "How keys are decoded.",
                "enum": list(FORMATS),
                "default": "auto",
            },
            "value_format": {
                "description": "How values are decoded.",
                "enum": list(FORMATS),
                "default": "auto",
            },
            "max_matches": {
                "description": "How many matches the result lists (all are counted).",
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_MATCHES,
                "default": 1000,
            },
        },
        ("topic", "filter"),
    ),
    result_schema=_RESULT,
    checks=(check_range, check_filter),
    scripts_dir=Path(__file__).resolve().parent / "jobs",
    product_modules=PRODUCT_MODULES,
)
