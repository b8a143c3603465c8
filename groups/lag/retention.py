"""Retention risk: will the broker delete records a group has not read yet? Pure.

The broker deletes a partition's oldest segment once every record in it is older than
`retention.ms`, or while the partition holds more than `retention.bytes`; a topic whose
`cleanup.policy` has no `delete` never deletes by retention. What a group risks losing first
is the record at its committed offset, the oldest it has not read. So:

- by time, that record may go `retention.ms` after it was written: the margin is
  `retention.ms` - its age (the partition's lag seconds);
- by size, it may go once the bytes before it plus the bytes still to be written exceed
  `retention.bytes`: the margin is (bytes before the committed offset + room left) at the rate
  the partition grows (record sizes taken as even across the partition);
- a risk is `near` when a margin is within `share` of its limit (10 % by default: 16.8 h of
  a 7-day retention) and the group will not have caught up before it runs out.

A segment goes whole, so the broker deletes the record no earlier than these margins say:
they are the earliest deletion possible, never a late warning. Kafka's protocol does not tell
where segments begin, so the rule cannot say how much later. `lost`: the log start already
passed the committed offset.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from groups.lag.measures import LOST, NEAR, NONE

CONFIG_KEYS = ["retention.ms", "retention.bytes", "cleanup.policy"]


@dataclass(frozen=True)
class TopicRetention:
    """A topic's deletion settings. `ms` / `bytes` None: no such limit (-1)."""

    ms: int | None
    bytes: int | None
    deletes: bool

    @classmethod
    def from_configs(cls, values: Mapping[str, str | None]) -> TopicRetention | None:
        """From the topic's effective configs; None when one is missing or unreadable."""
        try:
            ms = int(values["retention.ms"] or "")
            size = int(values["retention.bytes"] or "")
            policy = values["cleanup.policy"] or ""
        except (KeyError, ValueError):
            return None
        return cls(
            ms=ms if ms >= 0 else None,
            bytes=size if size >= 0 else None,
            deletes="delete" in [p.strip() for p in policy.split(",")],
        )


class Risk(NamedTuple):
    level: str  # NONE, NEAR or LOST
    margin_s: float | None  # until retention may delete the oldest unread record; None: never
    reason: str | None  # why, in words, for NEAR and LOST


def duration_text(seconds: float) -> str:
    """A duration as an operator reads it: `45 s`, `12 m`, `3 h 12 m`, `6 d 20 h`."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} m"
    if s < 86400:
        h, m = divmod(s // 60, 60)
        return f"{h} h {m} m" if m else f"{h} h"
    d, h = divmod(s // 3600, 24)
    return f"{d} d {h} h" if h else f"{d} d"


def bytes_text(n: float) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}".replace(".0 ", " ")
    return f"{int(n)} B"


_BY_SIZE, _BY_TIME = 0, 1


def assess(
    *,
    committed: int | None,
    log_start: int | None,
    log_end: int | None,
    lag_seconds: float | None,
    catch_up_s: float | None,
    retention: TopicRetention | None,
    share: float,
    size_bytes: int | None = None,
    write_per_s: float | None = None,
) -> Risk:
    """The retention risk of one partition a group reads (see the module's doc)."""
    if committed is None or log_start is None or log_end is None:
        return Risk(NONE, None, None)
    if committed < log_start:
        gone = log_start - committed
        return Risk(LOST, 0.0, f"retention deleted {gone} records the group had not read")
    if log_end - committed <= 0 or retention is None or not retention.deletes:
        return Risk(NONE, None, None)
    share = max(0.0, share)
    # (margin s, within its share, which limit): the sentence is made only for the limit that
    # is near (most partitions of a pass are not; this runs for each of them every pass).
    # Which: 0 retention.bytes, 1 retention.ms (on equal margins, bytes is named).
    found: list[tuple[float, bool, int]] = []
    if retention.ms is not None and lag_seconds is not None:
        limit_s = retention.ms / 1000
        margin = max(0.0, limit_s - lag_seconds)
        found.append((margin, margin <= share * limit_s, _BY_TIME))
    by_size = _size_side(committed, log_start, log_end, retention, size_bytes, write_per_s)
    if by_size is not None:
        margin_bytes, growth = by_size
        margin = 0.0 if margin_bytes <= 0 else margin_bytes / growth
        found.append((margin, margin_bytes <= share * (retention.bytes or 0), _BY_SIZE))
    if not found:
        return Risk(NONE, None, None)
    margin, near, which = min(found)
    if not near or (catch_up_s is not None and catch_up_s < margin):
        return Risk(NONE, margin, None)
    if which == _BY_TIME:
        assert retention.ms is not None and lag_seconds is not None
        what = (
            f"retention.ms is {duration_text(retention.ms / 1000)} and the oldest unread record "
            f"is {duration_text(lag_seconds)} old"
        )
    else:
        assert retention.bytes is not None and size_bytes is not None
        what = (
            f"retention.bytes is {bytes_text(retention.bytes)} and the partition holds "
            f"{bytes_text(size_bytes)}"
        )
    catching_up = (
        f"catching up would take {duration_text(catch_up_s)}"
        if catch_up_s is not None
        else "the group is not catching up"
    )
    when = "now" if margin <= 0 else f"in {duration_text(margin)}"
    return Risk(NEAR, margin, f"unread records can be deleted {when}: {what}; {catching_up}")


def _size_side(
    committed: int,
    log_start: int,
    log_end: int,
    retention: TopicRetention,
    size_bytes: int | None,
    write_per_s: float | None,
) -> tuple[float, float] | None:
    """(bytes left before the committed offset's record may go, bytes written per second)
    when the size limit is a margin at all: the partition is over it, or it grows."""
    if retention.bytes is None or size_bytes is None or log_end <= log_start:
        return None
    per_record = size_bytes / (log_end - log_start)
    margin_bytes = (committed - log_start) * per_record + (retention.bytes - size_bytes)
    growth = (write_per_s or 0.0) * per_record
    return (margin_bytes, growth) if margin_bytes <= 0 or growth > 0 else None


def unchanged_below(
    *,
    committed: int | None,
    log_start: int | None,
    log_end: int | None,
    lag_seconds: float | None,
    retention: TopicRetention | None,
    share: float,
    size_bytes: int | None = None,
    write_per_s: float | None = None,
) -> float | None:
    """For a partition where nothing moves but the clock: the lag in seconds below which
    `assess` (every other input the same) keeps its answer at `lag_seconds`, level and
    reason; `math.inf` when that answer never changes, None when it may change at any time
    (a `near` risk, whose reason gives the record's age, or a size side). A little below the
    exact bound, so that float rounding never lets a change through."""
    if committed is None or log_start is None or log_end is None or committed < log_start:
        return math.inf  # no risk, or `lost` with a reason that does not name the age
    if log_end - committed <= 0 or retention is None or not retention.deletes:
        return math.inf
    if _size_side(committed, log_start, log_end, retention, size_bytes, write_per_s):
        return None  # a size side: not worth following (rare, and moving anyway)
    if retention.ms is None or lag_seconds is None:
        return math.inf  # nothing found: none, whatever the age
    limit_s = retention.ms / 1000
    share = max(0.0, share)
    if max(0.0, limit_s - lag_seconds) <= share * limit_s:
        return None  # near already
    # Not near while limit - age > share * limit: none, whatever the catch-up time.
    return (limit_s - share * limit_s) - 1e-6 * max(1.0, limit_s)
