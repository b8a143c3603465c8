"""Partition evaluations reused from one pass to the next while nothing moves (`SteadyRows`).

Most partitions of a large cluster sit still between passes. When a partition's window was
full of one (committed, log end) value when it was evaluated, and the one point added since
repeats that value with the same log start and owner, its status, rates (0) and retention
risk are what they were: the evaluation copies the kept row instead of computing it again
(lag seconds, which move with the clock, are always computed afresh). Checked against
computing every partition afresh in tests/unit/test_sampling_evaluate.py.
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

from groups.lag.status import Point
from groups.partitions import TP

# What a partition's row depends on besides its window's history: (committed offset, log
# end, log start, owner (member id, client id, host) or None, whether the group has
# members). Only compared, never taken apart: a plain tuple (one per partition and pass).
RowInputs = tuple[int | None, int | None, int | None, tuple[str, str, str] | None, bool]


class SteadyRow(NamedTuple):
    """A partition's row kept for reuse, with its inputs and the time of the window's newest
    point when it was evaluated."""

    inputs: RowInputs
    at: float
    row: dict[str, Any]


def full_and_flat(window: deque[Point]) -> bool:
    """Every point of a full window has the same committed offset and log end, over some
    time: its status, rates and risk depend on nothing but that value."""
    last = window[-1]
    return (
        len(window) == window.maxlen
        and window[0].at < last.at
        and all(p.committed == last.committed and p.log_end == last.log_end for p in window)
    )


_NOTHING: dict[TP, SteadyRow] = {}


class SteadyRows:
    """The rows of the last evaluation that may be reused, per group and partition. An
    evaluation calls `start`, then for each group `of` (what it may reuse) and `keep_group`
    (what the next evaluation may), then `finish`: what it did not keep again is forgotten.
    Per group, not per partition: the lookups run for every partition of every pass."""

    def __init__(self) -> None:
        self.by_group: dict[str, dict[TP, SteadyRow]] = {}  # kept by the last evaluation
        self._next: dict[str, dict[TP, SteadyRow]] = {}  # kept by the one under way

    def start(self) -> None:
        """Begin an evaluation (dropping what one that never finished had kept)."""
        self._next = {}

    def of(self, group: str) -> dict[TP, SteadyRow]:
        """The group's rows the last evaluation kept (read only)."""
        return self.by_group.get(group, _NOTHING)

    def keep_group(self, group: str, rows: dict[TP, SteadyRow]) -> None:
        """What the next evaluation may reuse of `group`: rows still `reusable`, and rows just
        computed from a window that is `full_and_flat`."""
        if rows:
            self._next[group] = rows

    def finish(self) -> None:
        """End an evaluation: what it kept is what the next one may reuse."""
        self.by_group, self._next = self._next, {}


def reusable(kept: SteadyRow, inputs: RowInputs, window: deque[Point]) -> bool:
    """Whether `kept` is still the partition's row: `window` only added one point since, with
    the same inputs (the window was full and flat when kept: see `full_and_flat`)."""
    return (
        kept.inputs == inputs
        and len(window) == window.maxlen
        and window[-2].at == kept.at
        and window[0].at < window[-1].at
    )
