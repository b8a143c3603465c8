"""Parsing the inputs of offset-reset strategies, with the rules of Apache Kafka's tool.

- Date-times: any ISO-8601 spelling (a superset of the tool's `yyyy-MM-ddTHH:mm:ss.SSS[zone]`);
  with no zone, UTC is assumed, as the tool does.
- Durations: `java.time.Duration.parse`'s `PnDTnHnMn.nS` form, signs allowed; weeks, months
  and years are refused as the tool refuses them.
- CSV (`from_file`): `topic,partition,offset` lines, no header, as `--export` writes them;
  the tool's 4-column `group,topic,partition,offset` form is accepted for the named group.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

from console.api.limits import INT32_MAX, INT64_MAX, MAX_TIMESTAMP_MS, iso_millis, text_problem
from console.errors import BadInput
from groups.partitions import TP, TopicPartition

STRATEGIES = (
    "earliest",
    "latest",
    "current",
    "to_offset",
    "shift_by",
    "to_datetime",
    "by_duration",
    "from_file",
)

_DURATION = re.compile(
    r"^(?P<sign>[-+]?)P(?:(?P<days>[-+]?\d+)D)?"
    r"(?P<time>T(?:(?P<hours>[-+]?\d+)H)?(?:(?P<minutes>[-+]?\d+)M)?"
    r"(?:(?P<seconds>[-+]?\d+)(?:[.,](?P<fraction>\d{0,9}))?S)?)?$",
    re.IGNORECASE,
)


def parse_datetime_ms(text: str, field: str = "strategy.datetime") -> int:
    """Epoch millis of an ISO-8601 date-time; a missing zone means UTC (like the tool)."""
    return iso_millis(
        text,
        field,
        zone_required=False,
        example="2026-11-21T10:03:12.250Z or 2026-11-21T11:03:12+01:00",
    )


def parse_duration_ms(text: str, field: str = "strategy.duration") -> int:
    """Milliseconds of a `PnDTnHnMn.nS` duration (java.time.Duration.parse's grammar)."""
    raw = (text or "").strip()
    match = _DURATION.match(raw)
    has_time_part = bool(match and match["time"])
    time_parts = match and (match["hours"] or match["minutes"] or match["seconds"])
    if not match or not (match["days"] or time_parts) or (has_time_part and not time_parts):
        raise BadInput(
            field,
            f"{field}: {raw!r} is not a duration Kafka accepts; use the form PnDTnHnMn.nS, "
            "e.g. PT15M (15 minutes), PT6H, P1D, P2DT3H30M (weeks and months are not allowed).",
        )
    fraction = (match["fraction"] or "").ljust(9, "0")[:9]
    seconds = int(match["seconds"] or 0)
    nanos = int(fraction) if fraction else 0
    if seconds < 0 or (match["seconds"] or "").startswith("-"):
        nanos = -nanos
    total_ms = (
        int(match["days"] or 0) * 86_400_000
        + int(match["hours"] or 0) * 3_600_000
        + int(match["minutes"] or 0) * 60_000
        + seconds * 1000
        + nanos // 1_000_000
    )
    total_ms = -total_ms if match["sign"] == "-" else total_ms
    if abs(total_ms) > MAX_TIMESTAMP_MS:
        # From any day, it reaches before 1970 or past the year 9999: no record time is there,
        # and far enough out the instant would not fit Kafka's int64 timestamps (a 500).
        raise BadInput(
            field, f"{field}: {raw!r} is longer than the time from 1970 to the year 9999."
        )
    return total_ms


_WHOLE = re.compile(r"^[+-]?\d+$")  # \d: Unicode digits too, as Java's parseInt reads them


def _csv_error(field: str, number: int, problem: str) -> BadInput:
    return BadInput(
        field, f"{field}: line {number}: {problem}", details={"field": field, "line": number}
    )


def _whole(cell: str, what: str, high: int, field: str, number: int) -> int:
    if not _WHOLE.match(cell):
        raise _csv_error(field, number, f"the {what} must be a whole number, not {cell!r}.")
    value = int(cell)
    if not 0 <= value <= high:
        raise _csv_error(field, number, f"the {what} {value} is outside 0..{high}.")
    return value


def parse_offsets_csv(text: str, group_id: str, field: str = "strategy.csv") -> dict[TP, int]:
    """Rows of `topic,partition,offset` (or `group,topic,partition,offset` for this group).

    Refused as Kafka's ConsumerGroupCommand refuses them (its CSV reader, Jackson): spaces
    around a value (they become part of it), numbers it cannot read (`5.0`, `1_000`, `0x10`),
    a partition beyond int32 or an offset beyond int64, a negative offset, a blank line
    between rows. Stricter than the tool, on purpose: a missing column or an empty value,
    which the tool reads as 0.
    """
    if not isinstance(text, str) or not text.strip():
        raise BadInput(field, f"{field}: give CSV lines of topic,partition,offset.")
    rows: dict[TP, int] = {}
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()  # trailing newlines, as `--export` writes them
    width: int | None = None
    reader = csv.reader(io.StringIO("\n".join(lines)))
    for number, row in enumerate(_csv_rows(reader, field), start=1):
        if not row or all(not cell for cell in row):
            raise _csv_error(field, number, "is empty; Kafka's tool refuses blank lines.")
        if any(cell != cell.strip() for cell in row):
            raise _csv_error(field, number, "has spaces around a value; Kafka's tool keeps them.")
        if width is None:
            width = len(row)
            if width not in (3, 4):
                raise _csv_error(
                    field,
                    number,
                    f"has {width} columns; expected topic,partition,offset "
                    "(or group,topic,partition,offset).",
                )
        if len(row) != width:
            raise _csv_error(field, number, f"has {len(row)} columns, the first line has {width}.")
        if width == 4:
            group, topic, partition, offset = row
            if group != group_id:
                continue  # rows of other groups, as the tool ignores them
        else:
            topic, partition, offset = row
        if not topic:
            raise _csv_error(field, number, "has an empty topic.")
        if problem := text_problem(topic):
            raise _csv_error(field, number, f"the topic {problem}")
        key = TopicPartition(topic, _whole(partition, "partition", INT32_MAX, field, number))
        rows[key] = _whole(offset, "offset", INT64_MAX, field, number)
    if not rows:
        raise BadInput(field, f"{field}: no rows for group {group_id!r}.")
    return rows


def _csv_rows(reader: Any, field: str) -> Iterator[list[str]]:
    """The reader's rows; what the csv module cannot read (a cell over its 128 KiB field
    limit, a stray quote in strict mode) is a 400 naming the line, not an exception."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problem = f"is not CSV Kafka's tool reads ({exc})."
            raise _csv_error(field, reader.line_num, problem) from None


def export_csv(offsets: dict[tuple[str, int], int | None]) -> str:
    """`topic,partition,offset` lines, as `kafka-consumer-groups.sh --export` writes them."""
    return "".join(
        f"{topic},{partition},{offset}\n"
        for (topic, partition), offset in sorted(offsets.items())
        if offset is not None
    )
