"""Offset-reset planning: the new offset of each partition, as ConsumerGroupCommand computes it.

Pure functions over the cluster state the caller fetched. The rules
(ConsumerGroupCommand.prepareOffsetsToReset and its clamping):

1. earliest -> log start; latest -> log end (the high watermark); neither is range-checked.
2. current -> the committed offset, or the log end when the partition has none.
3. to_offset N, shift_by N (committed + N) and from_file are range-checked: above the log
   end becomes the log end, below the log start becomes the log start (`clamped`).
4. shift_by on a partition with no committed offset is refused, naming the partition.
5. to_datetime / by_duration -> the earliest offset whose record timestamp is >= the time;
   when there is none, the log end. Not range-checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from console.errors import BadInput
from groups.partitions import TP, TopicPartition


@dataclass(frozen=True)
class Strategy:
    type: str
    offset: int | None = None
    shift: int | None = None
    timestamp_ms: int | None = None  # to_datetime, and by_duration resolved against now
    file_offsets: Mapping[TP, int] | None = None


@dataclass(frozen=True)
class PartitionState:
    committed: int | None
    log_start: int
    log_end: int
    offset_for_time: int | None = None  # ListOffsets(for_timestamp); None or -1: no record


@dataclass(frozen=True)
class PlannedPartition:
    topic: str
    partition: int
    current_offset: int | None
    new_offset: int
    log_start_offset: int
    log_end_offset: int
    clamped: bool

    @property
    def lag_before(self) -> int | None:
        return None if self.current_offset is None else self.log_end_offset - self.current_offset

    @property
    def lag_after(self) -> int:
        return self.log_end_offset - self.new_offset


def clamp(offset: int, log_start: int, log_end: int) -> tuple[int, bool]:
    """ConsumerGroupCommand's checkOffsetsRange: above the end first, then below the start."""
    if offset > log_end:
        return log_end, True
    if offset < log_start:
        return log_start, True
    return offset, False


def new_offset(strategy: Strategy, tp: TP, state: PartitionState) -> tuple[int, bool]:
    kind = strategy.type
    if kind == "earliest":
        return state.log_start, False
    if kind == "latest":
        return state.log_end, False
    if kind == "current":
        return (state.committed if state.committed is not None else state.log_end), False
    if kind == "to_offset":
        return clamp(int(strategy.offset or 0), state.log_start, state.log_end)
    if kind == "shift_by":
        if state.committed is None:
            named = TopicPartition(*tp)
            raise BadInput(
                "strategy.shift",
                f"Cannot shift offset for partition {named.label} since there is no "
                "current committed offset.",
                details={
                    "field": "strategy.shift",
                    "topic": named.topic,
                    "partition": named.partition,
                },
            )
        return clamp(state.committed + int(strategy.shift or 0), state.log_start, state.log_end)
    if kind in ("to_datetime", "by_duration"):
        found = state.offset_for_time
        return (found if found is not None and found >= 0 else state.log_end), False
    if kind == "from_file":
        assert strategy.file_offsets is not None
        return clamp(strategy.file_offsets[tp], state.log_start, state.log_end)
    raise BadInput("strategy.type", f"strategy.type: unknown strategy {kind!r}.")


def plan(strategy: Strategy, states: Mapping[TP, PartitionState]) -> list[PlannedPartition]:
    rows = []
    for tp in map(TopicPartition._make, sorted(states)):
        state = states[tp]
        offset, clamped = new_offset(strategy, tp, state)
        rows.append(
            PlannedPartition(
                topic=tp.topic,
                partition=tp.partition,
                current_offset=state.committed,
                new_offset=offset,
                log_start_offset=state.log_start,
                log_end_offset=state.log_end,
                clamped=clamped,
            )
        )
    return rows
