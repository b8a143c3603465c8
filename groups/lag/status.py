"""Burrow-style status of a consumer group's partitions, from a window of samples. Pure.

A window is a partition's last few samples (`Point`), oldest first. The rules (first match
wins) are in docs/live-lag.md, "Status rules". Unlike Burrow, the group keeps the partition
statuses STOP/STALL/REWIND instead of folding them into ERR, there is no `allowed-lag`
(any lag > 0 counts), and a short window is UNKNOWN rather than OK.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

OK, WARN, ERR, STOP = "OK", "WARN", "ERR", "STOP"
STALL, REWIND, UNKNOWN = "STALL", "REWIND", "UNKNOWN"

# Worst wins. UNKNOWN ranks below OK so that "worst of" ignores it unless nothing else is known.
SEVERITY: dict[str, int] = {UNKNOWN: -1, OK: 0, WARN: 1, STALL: 2, STOP: 3, ERR: 4, REWIND: 5}

# Fewer usable samples than this say nothing about a trend.
MIN_SAMPLES = 3


class Point(NamedTuple):  # a tuple: the sampler makes one per partition and pass
    at: float  # wall time of the sample, epoch seconds
    committed: int | None  # the group's committed offset then (None: none committed)
    log_end: int | None  # the partition's log end offset (high watermark) then; None: unknown


def usable(window: Sequence[Point]) -> list[Point]:
    """The points a status can be computed from.

    A point without a committed offset is a gap (the group was deleted and recreated, or its
    offsets expired): what came before belongs to another life of the group, so it is
    dropped. A point with an unknown log end (leader offline) has no lag and is skipped.
    """
    points = list(window)  # a deque cannot be sliced
    start = 0
    for i, point in enumerate(points):
        if point.committed is None:
            start = i + 1
    return [p for p in points[start:] if p.log_end is not None]


def _offsets(points: Sequence[Point]) -> list[int]:
    # Usable points all have a committed offset; the filter only narrows the type.
    return [p.committed for p in points if p.committed is not None]


def _lags(points: Sequence[Point]) -> list[int]:
    return [
        p.log_end - p.committed for p in points if p.log_end is not None and p.committed is not None
    ]


def _rewound(offsets: Sequence[int]) -> bool:
    """Some commit went below its predecessor and no later commit got back to that offset
    (Burrow's REWIND: a reset backwards, not a blip that recovered)."""
    if list(offsets) == sorted(offsets):  # never went down (the common case; C speed)
        return False
    return any(
        offsets[i] < offsets[i - 1] and all(o < offsets[i - 1] for o in offsets[i + 1 :])
        for i in range(1, len(offsets))
    )


def _stuck(
    offsets: Sequence[int], lags: Sequence[int], *, group_has_members: bool, owned: bool
) -> str | None:
    """ERR/STALL/STOP when the committed offset never moved while lag stayed above 0."""
    if len(set(offsets)) != 1 or min(lags) <= 0:
        return None
    if not group_has_members:
        return ERR  # nobody consumes at all
    return STALL if owned else STOP  # owned: alive but not advancing; else nobody has it


def _falling_behind(offsets: Sequence[int], lags: Sequence[int]) -> bool:
    """WARN: lag above 0 throughout, never shrinking, larger at the end, while committing."""
    return (
        min(lags) > 0
        and lags[-1] > lags[0]
        and list(lags) == sorted(lags)  # never decreasing
        and len(set(offsets)) > 1
    )


def partition_status(window: Sequence[Point], *, group_has_members: bool, owned: bool) -> str:
    """The status of one partition; `owned`: a live member of the group has it assigned."""
    points = usable(window)
    if len(points) < MIN_SAMPLES:
        return UNKNOWN
    offsets, lags = _offsets(points), _lags(points)
    if lags[-1] <= 0:
        return OK  # caught up (or log end behind the commit, e.g. a recreated topic)
    if _rewound(offsets):
        return REWIND
    stuck = _stuck(offsets, lags, group_has_members=group_has_members, owned=owned)
    if stuck is not None:
        return stuck
    return WARN if _falling_behind(offsets, lags) else OK


def group_status(statuses: Iterable[str]) -> str:
    """The worst partition status; UNKNOWN only when nothing else is known (or no partition).

    A string that is not a status counts as UNKNOWN rather than failing the whole group.
    """
    known = [s if s in SEVERITY else UNKNOWN for s in statuses]
    return max(known, key=SEVERITY.__getitem__, default=UNKNOWN)
