"""Input limits in one place: what a request may carry before anything reaches Kafka.

Numbers are bounded to what Kafka's protocol can hold (int16 replication factors, int32
partition counts and numbers, int64 offsets); text that reaches Kafka (names, config keys
and values) may not hold control characters, which Kafka would silently cut at or refuse
later as a Kafka error; strings that UTF-8 cannot encode (lone surrogates) are refused.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

MAX_REQUEST_BYTES = 1024 * 1024  # a body over this answers 413
MAX_JSON_DEPTH = 32  # the deepest legitimate body (a reset) nests 5 levels
MAX_CONFIG_VALUE_CHARS = 32767  # Kafka's own limit for a config value on the wire (int16)
MAX_CSV_CHARS = 512 * 1024  # from_file: about 10,000 lines of topic,partition,offset
MAX_NAME_CHARS = 255  # topic names stop at 249; group ids have no limit, but 255 is plenty

INT16_MAX = 2**15 - 1
INT32_MAX = 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def text_problem(value: str) -> str | None:
    """Why a text cannot go to Kafka, or None."""
    if _CONTROL.search(value):
        return "must not contain control characters (NUL, CR, LF, TAB, ...)."
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)."
    return None


class KafkaText(serializers.CharField):
    """Text that reaches Kafka as a name, key or value: no control characters."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("max_length", MAX_NAME_CHARS)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = text_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class KafkaTextMap(serializers.DictField):
    """{key: value} of Kafka config: keys and values are KafkaText, keys at most 255 chars."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("child", KafkaText(max_length=MAX_CONFIG_VALUE_CHARS))
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, str]:
        values = super().to_internal_value(data)
        for key in values:
            problem = (
                text_problem(key)
                or ("is too long." if len(key) > MAX_NAME_CHARS else None)
                or ("must not be empty." if not key else None)
            )
            if problem:
                raise serializers.ValidationError({key: [f"config key {problem}"]})
        return values


def int32(min_value: int = 0, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min_value, max_value=INT32_MAX, **kwargs)


def int16(min_value: int = 0, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min_value, max_value=INT16_MAX, **kwargs)


def int64(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=INT64_MIN, max_value=INT64_MAX, **kwargs)


def no_duplicates(items: list[Any], what: str) -> None:
    seen: set[Any] = set()
    for item in items:
        key = tuple(sorted(item.items())) if isinstance(item, dict) else item
        if key in seen:
            raise serializers.ValidationError(f"{what} {item!r} is listed twice.")
        seen.add(key)
