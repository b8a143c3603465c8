"""Lag in seconds, rates, catch-up time and the worst of some retention risks. Pure.

The methods, when each applies and their error bounds are in docs/live-lag.md, "Lag in
seconds, rates, catch-up, retention risk".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

# lag_seconds methods (the evaluation's `lag_seconds_method`; None when the lag is unknown).
CAUGHT_UP = "none"  # lag <= 0: nothing to wait for, 0 s
TIMESTAMP = "timestamp"  # from the record timestamp at the committed offset
INTERPOLATED = "interpolated"  # from the (time, log end) history
LOWER_BOUND = "lower_bound"  # committed is older than the history: at least this old

NONE, NEAR, LOST = "none", "near", "lost"
_RISK_ORDER = {NONE: 0, NEAR: 1, LOST: 2}


class EndPoint(NamedTuple):
    at: float  # wall time, epoch seconds
    log_end: int  # the partition's log end offset then


@dataclass
class EndHistory:
    """A partition's bounded (wall time, log end offset) points, oldest first; the log end
    never decreases along it (kafka-lag-exporter's LookupTable idea)."""

    points: list[EndPoint]
    limit: int = 60

    def add(self, at: float, log_end: int) -> None:
        if self.points:
            last = self.points[-1]
            if at == last.at:
                return  # the same sample again
            if at < last.at or log_end < last.log_end:
                # The clock stepped back, or the log end did (topic recreated, unclean
                # election): the old points describe another timeline or log. Start over.
                self.points.clear()
        if len(self.points) >= 2 and self.points[-2].log_end == self.points[-1].log_end == log_end:
            # A flat run keeps its first point (when that end was reached) and its latest
            # (how long it stayed): an idle producer does not push older points out.
            self.points[-1] = EndPoint(at, log_end)
        else:
            self.points.append(EndPoint(at, log_end))
        excess = len(self.points) - max(self.limit, 2)
        if excess > 0:
            del self.points[:excess]

    def to_json(self) -> list[list[float]]:
        return [[at, end] for at, end in self.points]

    @classmethod
    def from_json(cls, data: Any, limit: int = 60) -> EndHistory:
        """Rebuilt through `add`, so malformed or out-of-order stored points cannot break
        the invariants; entries that are not [time, offset] pairs are skipped."""
        history = cls([], limit)
        for item in data if isinstance(data, list) else []:
            try:
                at, end = float(item[0]), int(item[1])
            except (TypeError, ValueError, IndexError, KeyError):
                continue
            if math.isfinite(at):
                history.add(at, end)
        return history


def _interpolated_time(points: Sequence[EndPoint], committed: int) -> float | None:
    """The wall time at which the log end passed `committed` (the record there was written),
    linear between the two points around it; None when no point is past it."""
    for i, (at, end) in enumerate(points):
        if end > committed:
            if i == 0:
                return None  # older than the history: the caller gives a lower bound
            before = points[i - 1]
            share = (committed + 1 - before.log_end) / (end - before.log_end)
            return before.at + share * (at - before.at)
    return None


def lag_seconds(
    *,
    lag: int | None,
    record_ts_ms: int | None,
    committed: int | None,
    history: EndHistory | None,
    now: float,
) -> tuple[float | None, str | None]:
    """How long ago the next record the group will read (at `committed`) was written, and how
    that was found. Never 0 for lag > 0 because the producer went idle: the history keeps when
    the log end moved, not only where it is now."""
    if lag is None:
        return None, None
    if lag <= 0:
        return 0.0, CAUGHT_UP
    if record_ts_ms is not None and record_ts_ms >= 0 and now - record_ts_ms / 1000 >= 0:
        return now - record_ts_ms / 1000, TIMESTAMP
    # No timestamp, or one from the future (producer clock ahead): fall back to the history.
    if committed is not None and history is not None and history.points:
        written = _interpolated_time(history.points, committed)
        if written is not None:
            return max(0.0, now - written), INTERPOLATED
        oldest = history.points[0]
        if oldest.log_end > committed:
            return max(0.0, now - oldest.at), LOWER_BOUND
    if record_ts_ms is not None and record_ts_ms >= 0:
        return 0.0, TIMESTAMP  # a future timestamp and nothing better: written "just now"
    return None, None


def rate(points: Sequence[tuple[float, int | None]]) -> float | None:
    """Records per second over the points that have a value, oldest first.

    An offset that went down (a reset backwards, a recreated topic) starts the series over at
    that point: the rate covers only what came after. None with fewer than 2 such points or
    no time between them.
    """
    # One loop, no lists: the sampler calls this twice per partition and pass.
    first_at = first_v = last_at = last_v = None
    count = 0
    for at, v in points:
        if v is None:
            continue
        if last_v is None or v < last_v:  # the first value, or a decrease: start over here
            first_at, first_v, count = at, v, 0
        last_at, last_v = at, v
        count += 1
    if count < 2 or last_at is None or first_at is None or last_at <= first_at:
        return None
    assert first_v is not None and last_v is not None
    return (last_v - first_v) / (last_at - first_at)


def catch_up_seconds(
    lag: int | None, write_per_s: float | None, consume_per_s: float | None
) -> float | None:
    """Time to reach the log end if both rates hold; None: unknown, or never (consume <= write)."""
    if lag is None:
        return None
    if lag <= 0:
        return 0.0
    if write_per_s is None or consume_per_s is None or consume_per_s <= write_per_s:
        return None
    return lag / (consume_per_s - write_per_s)


def worst_risk(risks: Iterable[str]) -> str:
    """The worst of some retention risks; NONE for none (unknown strings count as NONE)."""
    known = [r if r in _RISK_ORDER else NONE for r in risks]
    return max(known, key=_RISK_ORDER.__getitem__, default=NONE)
