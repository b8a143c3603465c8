"""The retention risk rule (groups.lag.retention): what the broker deletes next and when,
against where the group sits and how fast it catches up. Without Kafka."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groups.lag.measures import LOST, NEAR, NONE
from groups.lag.retention import TopicRetention, assess, duration_text

WEEK_MS = 7 * 86400 * 1000
WEEK = TopicRetention(ms=WEEK_MS, bytes=None, deletes=True)


def risk(**given_args):
    args = {
        "committed": 0,
        "log_start": 0,
        "log_end": 100,
        "lag_seconds": 3600.0,
        "catch_up_s": None,
        "retention": WEEK,
        "share": 0.10,
    }
    args.update(given_args)
    return assess(**args)


def test_a_group_at_the_log_start_of_a_young_log_is_in_no_danger():
    # The false alarm: log start 0, nothing deleted, 7-day retention, the oldest unread
    # record an hour old. The old rule said "near" because the group sat at the log start.
    assert risk().level == NONE
    assert risk().margin_s == pytest.approx(7 * 86400 - 3600)


def test_near_when_the_oldest_unread_record_is_close_to_its_retention():
    found = risk(lag_seconds=7 * 86400 - 3 * 3600)  # 3 h left, within 10 % of 7 d
    assert found.level == NEAR and found.margin_s == pytest.approx(3 * 3600)
    assert found.reason == (
        "unread records can be deleted in 3 h: retention.ms is 7 d and the oldest unread "
        "record is 6 d 21 h old; the group is not catching up"
    )


def test_a_group_that_catches_up_before_the_deletion_is_not_at_risk():
    old = 7 * 86400 - 3 * 3600
    assert risk(lag_seconds=old, catch_up_s=3600).level == NONE
    slow = risk(lag_seconds=old, catch_up_s=5 * 3600)
    assert slow.level == NEAR and slow.reason.endswith("catching up would take 5 h")


def test_past_the_retention_the_deletion_can_come_now():
    found = risk(lag_seconds=8 * 86400)
    assert found.level == NEAR and found.margin_s == 0
    assert found.reason.startswith("unread records can be deleted now:")


def test_lost_when_the_log_start_passed_the_committed_offset():
    found = risk(committed=5, log_start=10)
    assert found.level == LOST and found.reason == (
        "retention deleted 5 records the group had not read"
    )


@pytest.mark.parametrize(
    "case",
    [
        {"committed": None},
        {"log_start": None},
        {"log_end": None},
        {"committed": 100},  # caught up
        {"committed": 150},  # past the log end (a recreated topic)
        {"retention": None},  # settings not read yet
        {"retention": TopicRetention(ms=WEEK_MS, bytes=None, deletes=False)},  # compacted
        {"retention": TopicRetention(ms=None, bytes=None, deletes=True)},  # kept forever
        {"lag_seconds": None},  # age unknown and no size limit
    ],
)
def test_no_risk_without_a_deletion_ahead_of_the_group(case):
    assert risk(**{"lag_seconds": 8 * 86400, **case}).level == NONE


GIB = 1 << 30


def test_by_size_the_bytes_before_the_group_and_the_room_left_are_the_margin():
    size_limited = TopicRetention(ms=None, bytes=GIB, deletes=True)
    # 100 records of 10 MiB: 1000 MiB held of 1024; the group at offset 1 has 10 MiB before it
    # and 24 MiB of room: 34 MiB to go, at 2 records (20 MiB) a second: 1.7 s.
    args = {
        "committed": 1,
        "log_end": 100,
        "lag_seconds": None,
        "retention": size_limited,
        "size_bytes": 100 * 10 * (1 << 20),
        "write_per_s": 2.0,
    }
    found = risk(**args)
    assert found.level == NEAR and found.margin_s == pytest.approx(1.7)
    assert "retention.bytes is 1 GiB and the partition holds 1000 MiB" in found.reason
    assert risk(**{**args, "committed": 50}).level == NONE  # 500 MiB before it
    assert risk(**{**args, "write_per_s": 0.0}).level == NONE  # nothing written: nothing goes
    over = risk(**{**args, "size_bytes": 2 * GIB, "write_per_s": 0.0})
    assert over.level == NEAR and over.margin_s == 0  # over the limit already


def test_the_closer_limit_decides():
    both = TopicRetention(ms=WEEK_MS, bytes=GIB, deletes=True)
    found = risk(retention=both, committed=1, size_bytes=GIB, write_per_s=1.0)
    assert found.level == NEAR and "retention.bytes" in found.reason


def test_the_retention_settings_come_from_the_topic_configs():
    configs = {"retention.ms": "604800000", "retention.bytes": "-1", "cleanup.policy": "delete"}
    assert TopicRetention.from_configs(configs) == WEEK
    both = {**configs, "cleanup.policy": "compact,delete", "retention.ms": "-1"}
    assert TopicRetention.from_configs(both) == TopicRetention(None, None, True)
    assert not TopicRetention.from_configs({**configs, "cleanup.policy": "compact"}).deletes
    assert TopicRetention.from_configs({**configs, "retention.ms": None}) is None
    assert TopicRetention.from_configs({"retention.ms": "1"}) is None


@pytest.mark.parametrize(
    "seconds,text",
    [(0, "0 s"), (59.4, "59 s"), (60, "1 m"), (3600, "1 h"), (3 * 3600 + 720, "3 h 12 m"),
     (86400, "1 d"), (6 * 86400 + 20 * 3600, "6 d 20 h"), (-5, "0 s")],
)  # fmt: skip
def test_durations_read_as_an_operator_says_them(seconds, text):
    assert duration_text(seconds) == text


offsets = st.integers(min_value=0, max_value=10**6)
ages = st.floats(min_value=0, max_value=30 * 86400, allow_nan=False)
catch_ups = st.none() | st.floats(min_value=0, max_value=30 * 86400, allow_nan=False)
shares = st.floats(min_value=0, max_value=0.99, allow_nan=False)
retentions = st.builds(
    TopicRetention,
    ms=st.none() | st.integers(min_value=0, max_value=30 * 86400 * 1000),
    bytes=st.none() | st.integers(min_value=0, max_value=1 << 40),
    deletes=st.booleans(),
)


@given(offsets, offsets, offsets, ages, catch_ups, retentions, shares,
       st.none() | st.integers(min_value=0, max_value=1 << 40),
       st.none() | st.floats(min_value=0, max_value=1e6, allow_nan=False))  # fmt: skip
def test_the_rule_holds_for_any_partition(
    committed, start, end, age, catch_up, retention, share, size, write
):
    start, end = min(start, end), max(start, end)
    found = assess(
        committed=committed, log_start=start, log_end=end, lag_seconds=age,
        catch_up_s=catch_up, retention=retention, share=share, size_bytes=size,
        write_per_s=write,
    )  # fmt: skip
    # lost exactly when deleted records were unread; never a risk without unread records
    assert (found.level == LOST) == (committed < start)
    if committed >= end:
        assert found.level == NONE
    if found.level == NEAR:
        # a deletion that can reach the group, within its share, before it catches up
        assert retention.deletes and found.margin_s is not None and found.margin_s >= 0
        assert catch_up is None or catch_up >= found.margin_s
        assert found.reason and found.reason.startswith("unread records can be deleted")
        if retention.ms is not None and retention.bytes is None:
            assert found.margin_s == pytest.approx(max(0.0, retention.ms / 1000 - age))
            assert found.margin_s <= share * retention.ms / 1000 + 1e-9
    if found.level == NONE:
        assert found.reason is None
    # more time before the deletion never makes a risk worse
    if retention.ms is not None and found.level != LOST:
        younger = assess(
            committed=committed, log_start=start, log_end=end, lag_seconds=age / 2,
            catch_up_s=catch_up, retention=TopicRetention(retention.ms, None, retention.deletes),
            share=share,
        )  # fmt: skip
        older = assess(
            committed=committed, log_start=start, log_end=end, lag_seconds=age,
            catch_up_s=catch_up, retention=TopicRetention(retention.ms, None, retention.deletes),
            share=share,
        )  # fmt: skip
        assert not (younger.level == NEAR and older.level == NONE)
