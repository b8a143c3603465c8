"""The strict reading of a request body, applied before a serializer sees it.

DRF drops keys a serializer does not declare and coerces values (`"no"`, `"off"`, `0` read as
false; `5` read as the text `"5"`; `"7"` read as 7). Here that is a change widened or made by
accident: `{"partition": [0]}` for `{"partitions": [0]}` reset every partition of a topic,
`"dry_run": "no"` executed a reset. So every object of a body is read against the fields its
serializer declares, at every depth:

- a key the serializer does not declare (or declares read-only) is refused, named;
- booleans are JSON booleans, text is a JSON string, whole numbers are JSON integers (not
  `5.0`, not `"5"`, not `true`), lists are JSON arrays and objects JSON objects.

Every problem is collected (a form shows each beside its field); the first names the field of
the 400, `details.errors` holds all of them by path. The OpenAPI schema says the same:
`additionalProperties: false` on every request object (`console.api.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from console.errors import BadInput

# What each field kind takes, in the order checked (subclasses first: a ChoiceField's choices
# are text here; BooleanField is no IntegerField, but bool is an int in Python).
_EXPECTED: list[tuple[type[serializers.Field], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "true or false (a JSON boolean)"),
    (serializers.IntegerField, (int,), "a whole number (a JSON integer)"),
    (serializers.FloatField, (int, float), "a number"),
    (serializers.ChoiceField, (str,), "text (a JSON string)"),
    (serializers.CharField, (str,), "text (a JSON string)"),
]


def check_body(serializer: serializers.Serializer, data: Any) -> None:
    """Refuse `data` (a parsed JSON body) unless it is strictly what `serializer` declares."""
    problems: dict[str, str] = {}
    _check(serializer, data, "", problems)
    if problems:
        field, message = next(iter(problems.items()))
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BadInput(
            field or "body",
            f"{field or 'body'}: {message}{more}",
            details={"field": field or "body", "errors": problems},
        )


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check(field: serializers.Field, value: Any, path: str, problems: dict[str, str]) -> None:
    if value is None:
        return  # null: the field's own allow_null decides
    # A nested serializer with many=True, or a list of plain values: each item by the child.
    child = getattr(field, "child", None)
    if isinstance(field, (serializers.ListSerializer, serializers.ListField)) and child is not None:
        if not isinstance(value, list):
            problems[path] = "must be a list (a JSON array)."
            return
        for index, item in enumerate(value):
            _check(child, item, f"{path}[{index}]", problems)
        return
    if isinstance(field, serializers.Serializer):
        if not isinstance(value, Mapping):
            problems[path or "body"] = "must be an object (a JSON object)."
            return
        fields = field.fields
        for key, item in value.items():
            declared = fields.get(key)
            if declared is None or declared.read_only:
                known = ", ".join(sorted(n for n, f in fields.items() if not f.read_only))
                problems[_join(path, key)] = f"unknown field (this object takes: {known})."
                continue
            _check(declared, item, _join(path, key), problems)
        return
    if isinstance(field, serializers.DictField):
        if not isinstance(value, Mapping):
            problems[path] = "must be an object (a JSON object)."
            return
        for key, item in value.items():
            _check(field.child, item, _join(path, key), problems)
        return
    for kind, types, words in _EXPECTED:
        if isinstance(field, kind):
            # bool is an int in Python; only a BooleanField takes it.
            wrong = isinstance(value, bool) and kind is not serializers.BooleanField
            if wrong or not isinstance(value, types):
                problems[path] = f"must be {words}, not {_shown(value)}."
            return
    # JSONField and others: their own validation (Spark params: the job type's JSON Schema).


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40] + "…")
    if isinstance(value, (int, float)):
        return str(value)
    return "a list" if isinstance(value, list) else "an object"
