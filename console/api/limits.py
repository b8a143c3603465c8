"""Input limits in one place: what a request may carry before anything reaches Kafka.

Numbers are bounded to what Kafka's protocol can hold (int16 replication factors, int32
partition numbers, int64 offsets) and, where the client library is stricter, to what it
accepts (librdkafka creates at most 100,000 partitions per topic). Text that reaches Kafka
(names, config keys and values) may not hold control characters, which Kafka would take
literally (a group id with a newline) or cut short, and is bounded in UTF-8 bytes, as the
protocol counts them. Strings that UTF-8 cannot encode (lone surrogates) are refused.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from rest_framework import serializers

from console.errors import BadInput

# --- request bodies -------------------------------------------------------------------------
DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024  # settings.MAX_REQUEST_BYTES; a body over it is a 413
MAX_JSON_DEPTH = 32  # the deepest legitimate body (a reset) nests 5 levels

# --- Kafka's protocol ------------------------------------------------------------------------
INT16_MAX = 2**15 - 1
INT32_MAX = 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
KAFKA_STRING_BYTES = INT16_MAX  # a protocol STRING (group id, config value): int16 length

# --- names, keys and values ------------------------------------------------------------------
MAX_NAME_CHARS = 255  # topic names stop at 249; config keys are short
# A config value: the protocol carries 32,767 bytes, but Kafka repeats a refused value in its
# error message, which then no longer fits and comes back as UNKNOWN_SERVER_ERROR (502).
MAX_CONFIG_VALUE_BYTES = 30_000
# A name in a path (group ids are free text in Kafka, bounded only by the protocol).
MAX_PATH_NAME_BYTES = KAFKA_STRING_BYTES
MAX_PARTITIONS = 100_000  # librdkafka's cap on a topic's partition count (NewTopic, NewPartitions)
# A KRaft controller writes at most 10,000 metadata records for one request: a new topic (one
# topic record plus one per partition) has at most 9,999 partitions, and one request adds at
# most 10,000. Past them Kafka answers POLICY_VIOLATION ("excessively large") or, when adding,
# an unknown error; the console then names the limit (measured on Kafka 4.3).
KRAFT_MAX_NEW_TOPIC_PARTITIONS = 9_999
KRAFT_MAX_ADDED_PARTITIONS = 10_000

# --- offset resets ---------------------------------------------------------------------------
MAX_CSV_CHARS = 512 * 1024  # from_file: about 50,000 lines of topic,partition,offset
# Date-times and durations: from 1970-01-01 (record times start there; Kafka reads negative
# timestamps as "latest"/"earliest") to the end of year 9999 (what ISO-8601 can write).
MAX_TIMESTAMP_MS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z

# --- query strings ---------------------------------------------------------------------------
AUDIT_PAGE_DEFAULT = 100
AUDIT_PAGE_MAX = 1000
# An export is one download of the filtered list, newest first.
AUDIT_EXPORT_MAX = 100_000

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def iso_millis(text: str, field: str, *, zone_required: bool, example: str) -> int:
    """Epoch millis of an ISO-8601 date-time, within the one range every endpoint takes
    (1970-01-01 to 9999-12-31, in UTC); anything else is a BadInput naming `field`.
    Without a zone: UTC, unless `zone_required` (a job may run anywhere)."""
    raw = (text or "").strip()
    if not raw:
        raise BadInput(field, f"{field}: give a date-time such as {example}.")
    try:
        moment = datetime.fromisoformat(raw.replace("z", "Z"))
    except ValueError:
        raise BadInput(
            field, f"{field}: {raw!r} is not an ISO-8601 date-time (e.g. {example})."
        ) from None
    if moment.tzinfo is None:
        if zone_required:
            raise BadInput(field, f"{field}: give a time zone (Z or +01:00).")
        moment = moment.replace(tzinfo=UTC)
    # Aware subtraction never overflows (astimezone does at the ends of the calendar), and
    # integer arithmetic is exact where float timestamps can be a millisecond off.
    delta = moment - _EPOCH
    millis = (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    if not 0 <= millis <= MAX_TIMESTAMP_MS:
        # Kafka reads negative timestamps as "latest" (-1) or "earliest" (-2).
        raise BadInput(
            field, f"{field}: {raw!r} is outside 1970-01-01 .. 9999-12-31T23:59:59.999Z (UTC)."
        )
    return millis


def max_request_bytes() -> int:
    """The body limit, read per request so that settings (and tests) can change it."""
    return int(getattr(settings, "MAX_REQUEST_BYTES", DEFAULT_MAX_REQUEST_BYTES))


def text_problem(value: str, max_bytes: int | None = None) -> str | None:
    """Why a text cannot go to Kafka, or None."""
    if _CONTROL.search(value):
        return "must not contain control characters (NUL, CR, LF, TAB, DEL, ...)."
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        return "is not valid Unicode (a lone surrogate)."
    if max_bytes is not None and size > max_bytes:
        return f"is {size} bytes of UTF-8; at most {max_bytes} are allowed."
    return None


class KafkaText(serializers.CharField):
    """Text that reaches Kafka as a name, key or value: no control characters, bounded."""

    def __init__(self, max_bytes: int | None = None, **kwargs: Any):
        kwargs.setdefault("max_length", MAX_NAME_CHARS if max_bytes is None else max_bytes)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)
        self.max_bytes = max_bytes

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = text_problem(value, self.max_bytes)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class KafkaTextMap(serializers.DictField):
    """{key: value} of Kafka configs: keys of at most 255 characters, values bounded in bytes,
    neither with control characters."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("child", KafkaText(max_bytes=MAX_CONFIG_VALUE_BYTES))
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, str]:
        values = super().to_internal_value(data)
        for key in values:
            too_long = len(key) > MAX_NAME_CHARS
            problem = (
                text_problem(key)
                or (f"is longer than {MAX_NAME_CHARS} characters." if too_long else None)
                or ("must not be empty." if not key else None)
            )
            if problem:
                raise serializers.ValidationError({key: [f"config key {problem}"]})
        return values


def int16(min_value: int = 0, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min_value, max_value=INT16_MAX, **kwargs)


def int32(min_value: int = 0, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=min_value, max_value=INT32_MAX, **kwargs)


def int64(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=INT64_MIN, max_value=INT64_MAX, **kwargs)


def partition_count_field(**kwargs: Any) -> serializers.IntegerField:
    """A topic's partition count: 1..100,000 (an int32 in Kafka; librdkafka's cap here)."""
    return serializers.IntegerField(min_value=1, max_value=MAX_PARTITIONS, **kwargs)


def no_duplicates(items: list[Any], what: str) -> None:
    seen: set[Any] = set()
    for item in items:
        key = tuple(sorted(item.items())) if isinstance(item, dict) else item
        if key in seen:
            raise serializers.ValidationError(f"{what} {item!r} is listed twice.")
        seen.add(key)
