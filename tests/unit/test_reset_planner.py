"""The reset planner against the rules of Apache Kafka's ConsumerGroupCommand."""

import pytest

from console.errors import BadInput
from groups.resets.planner import PartitionState, Strategy, clamp, plan

TP = ("t", 0)


def one(strategy: Strategy, **state) -> tuple[int, bool]:
    row = plan(strategy, {TP: PartitionState(**state)})[0]
    return row.new_offset, row.clamped


@pytest.mark.parametrize(
    "offset, expected",
    [
        (150, (150, False)),
        (250, (200, True)),
        (-5, (100, True)),
        (100, (100, False)),
        (200, (200, False)),
    ],
)
def test_to_offset_clamps_to_log_range(offset, expected):
    assert (
        one(Strategy("to_offset", offset=offset), committed=120, log_start=100, log_end=200)
        == expected
    )


def test_shift_by_upstream_examples():
    # ResetConsumerGroupOffsetTest: committed 100, HW 200.
    state = {"committed": 100, "log_start": 0, "log_end": 200}
    assert one(Strategy("shift_by", shift=-150), **state) == (0, True)
    assert one(Strategy("shift_by", shift=150), **state) == (200, True)
    assert one(Strategy("shift_by", shift=-30), **state) == (70, False)


def test_shift_by_without_committed_offset_names_the_partition():
    with pytest.raises(BadInput, match="partition t-0 since there is no current committed"):
        one(Strategy("shift_by", shift=1), committed=None, log_start=0, log_end=10)


def test_current_without_commit_is_log_end():
    assert one(Strategy("current"), committed=None, log_start=3, log_end=10) == (10, False)
    assert one(Strategy("current"), committed=7, log_start=3, log_end=10) == (7, False)


def test_earliest_and_latest_are_not_range_checked_flags():
    assert one(Strategy("earliest"), committed=7, log_start=3, log_end=10) == (3, False)
    assert one(Strategy("latest"), committed=7, log_start=3, log_end=10) == (10, False)


def test_datetime_without_later_record_is_log_end():
    s = Strategy("to_datetime", timestamp_ms=1)
    assert one(s, committed=1, log_start=0, log_end=9, offset_for_time=-1) == (9, False)
    assert one(s, committed=1, log_start=0, log_end=9, offset_for_time=4) == (4, False)


def test_from_file_is_clamped():
    s = Strategy("from_file", file_offsets={TP: 999})
    assert one(s, committed=1, log_start=0, log_end=9) == (9, True)


def test_lag_before_and_after():
    row = plan(Strategy("to_offset", offset=4), {TP: PartitionState(2, 0, 10)})[0]
    assert (row.lag_before, row.lag_after) == (8, 6)
    row = plan(Strategy("to_offset", offset=4), {TP: PartitionState(None, 0, 10)})[0]
    assert row.lag_before is None


def test_clamp_prefers_end_check_first():
    # Degenerate empty range: above the end wins, as in checkOffsetsRange.
    assert clamp(5, 10, 3) == (3, True)
