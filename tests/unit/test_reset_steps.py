"""The pure steps of an offset reset: strategy, scope and the staleness check of a preview.

`build_strategy`, `resolve_scope` and `plan_changes` from `groups.resets.workflow`, without a
cluster: scopes resolve against a constructed `ClusterSnapshot`.
"""

from __future__ import annotations

import pytest

from console.errors import BadInput
from console.kafka import Broker, ClusterDescription, PartitionMeta, TopicMeta
from console.metadata import ClusterSnapshot
from groups.resets.planner import Strategy
from groups.resets.workflow import build_strategy, plan_changes, resolve_scope

NOW_MS = 1_795_255_392_250  # 2026-11-21T10:03:12.250Z


def snapshot(**topics: int) -> ClusterSnapshot:
    """A snapshot of topics with the given partition counts, on brokers 1-3."""
    brokers = [Broker(i, "h", 9000 + i, None) for i in (1, 2, 3)]
    metas = {
        name: TopicMeta(
            name,
            False,
            [PartitionMeta(p, 1 + p % 3, [1, 2, 3], [1, 2, 3]) for p in range(count)],
        )
        for name, count in topics.items()
    }
    return ClusterSnapshot(0.0, ClusterDescription("cid", 1, brokers), metas)


def bad(call, field: str) -> BadInput:
    with pytest.raises(BadInput) as err:
        call()
    assert err.value.field == field
    assert err.value.message.startswith(field + ": ")
    return err.value


# --- build_strategy -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["earliest", "latest", "current"])
def test_strategies_without_values(kind):
    assert build_strategy({"type": kind}, "g") == Strategy(kind)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ({"type": "to_offset", "offset": 7}, Strategy("to_offset", offset=7)),
        ({"type": "to_offset", "offset": 0}, Strategy("to_offset", offset=0)),  # 0 is a value
        ({"type": "to_offset", "offset": "12"}, Strategy("to_offset", offset=12)),
        ({"type": "to_offset", "offset": -5}, Strategy("to_offset", offset=-5)),
        ({"type": "shift_by", "shift": -2}, Strategy("shift_by", shift=-2)),
        ({"type": "shift_by", "shift": 0}, Strategy("shift_by", shift=0)),
        ({"type": "shift_by", "shift": "+3"}, Strategy("shift_by", shift=3)),
    ],
)
def test_whole_number_strategies(spec, expected):
    assert build_strategy(spec, "g") == expected


@pytest.mark.parametrize(
    "kind, key", [("to_offset", "offset"), ("shift_by", "shift")], ids=["offset", "shift"]
)
@pytest.mark.parametrize("value", [None, ""], ids=["null", "empty"])
def test_missing_whole_number_names_the_field_and_strategy(kind, key, value):
    spec = {"type": kind} if value is None else {"type": kind, key: value}
    error = bad(lambda: build_strategy(spec, "g"), f"strategy.{key}")
    assert error.message == f"strategy.{key}: required for strategy {kind!r}."
    assert error.details == {"field": f"strategy.{key}"}


@pytest.mark.parametrize(
    "value, says",
    [
        ("seven", "not 'seven'"),
        ("7.0", "not '7.0'"),
        (True, "must be a whole number."),
        (7.5, "must be a whole number."),
        ([7], "must be a whole number."),
    ],
    ids=["word", "decimal-text", "bool", "float", "list"],
)
@pytest.mark.parametrize("kind, key", [("to_offset", "offset"), ("shift_by", "shift")])
def test_bad_whole_numbers_name_the_field(kind, key, value, says):
    error = bad(lambda: build_strategy({"type": kind, key: value}, "g"), f"strategy.{key}")
    assert "must be a whole number" in error.message and says in error.message


def test_to_datetime_is_epoch_millis():
    spec = {"type": "to_datetime", "datetime": "2026-11-21T11:03:12.250+01:00"}
    assert build_strategy(spec, "g") == Strategy("to_datetime", timestamp_ms=NOW_MS)


@pytest.mark.parametrize("spec", [{}, {"datetime": ""}, {"datetime": "yesterday"}])
def test_to_datetime_missing_or_bad_names_the_field(spec):
    bad(lambda: build_strategy({"type": "to_datetime", **spec}, "g"), "strategy.datetime")


def test_by_duration_counts_back_from_now():
    spec = {"type": "by_duration", "duration": "PT1H30M"}
    strategy = build_strategy(spec, "g", now_ms=NOW_MS)
    assert strategy == Strategy("by_duration", timestamp_ms=NOW_MS - 5_400_000)


def test_by_duration_defaults_to_the_clock(monkeypatch):
    monkeypatch.setattr("groups.resets.workflow.time.time", lambda: NOW_MS / 1000)
    strategy = build_strategy({"type": "by_duration", "duration": "P1D"}, "g")
    assert strategy.timestamp_ms == NOW_MS - 86_400_000


def test_a_negative_duration_points_into_the_future_as_in_the_tool():
    strategy = build_strategy({"type": "by_duration", "duration": "-PT1M"}, "g", now_ms=NOW_MS)
    assert strategy.timestamp_ms == NOW_MS + 60_000


def test_by_duration_back_to_exactly_the_epoch_is_allowed():
    spec = {"type": "by_duration", "duration": "PT10S"}
    assert build_strategy(spec, "g", now_ms=10_000) == Strategy("by_duration", timestamp_ms=0)


def test_by_duration_before_1970_is_refused():
    error = bad(
        lambda: build_strategy({"type": "by_duration", "duration": "PT10S"}, "g", now_ms=9_999),
        "strategy.duration",
    )
    assert "before 1970-01-01" in error.message


@pytest.mark.parametrize("spec", [{}, {"duration": ""}, {"duration": "P1W"}, {"duration": "15m"}])
def test_by_duration_missing_or_bad_names_the_field(spec):
    bad(lambda: build_strategy({"type": "by_duration", **spec}, "g", NOW_MS), "strategy.duration")


def test_from_file_keeps_this_groups_rows():
    spec = {"type": "from_file", "csv": "g,t,0,5\nother,t,0,9\ng,t,1,6\n"}
    assert build_strategy(spec, "g") == Strategy(
        "from_file", file_offsets={("t", 0): 5, ("t", 1): 6}
    )


@pytest.mark.parametrize("spec", [{}, {"csv": ""}, {"csv": "t,0\n"}, {"csv": "other,t,0,1\n"}])
def test_from_file_missing_or_bad_names_the_field(spec):
    bad(lambda: build_strategy({"type": "from_file", **spec}, "g"), "strategy.csv")


def test_values_of_other_strategies_are_ignored():
    spec = {"type": "earliest", "offset": "junk", "csv": "x", "duration": "nope"}
    assert build_strategy(spec, "g") == Strategy("earliest")


# --- resolve_scope ------------------------------------------------------------------------


SNAP = snapshot(t=3, o=2, z=1)
COMMITTED = {("t", 0): 6, ("t", 1): None, ("o", 1): 3, ("gone", 0): 1}
EARLIEST = Strategy("earliest")


def scope_of(scope: dict, strategy: Strategy = EARLIEST, committed=None) -> list:
    return resolve_scope(scope, strategy, SNAP, COMMITTED if committed is None else committed)


def test_all_topics_is_the_committed_partitions_only():
    # As the tool: partitions the group committed on, even of a topic since deleted.
    assert scope_of({"all_topics": True}) == [("gone", 0), ("o", 1), ("t", 0)]
    assert scope_of({"all_topics": True}, committed={}) == []


def test_a_whole_topic_is_every_partition_committed_or_not():
    assert scope_of({"topics": [{"topic": "t", "partitions": None}]}) == [
        ("t", 0),
        ("t", 1),
        ("t", 2),
    ]
    assert scope_of({"topics": [{"topic": "z"}]}) == [("z", 0)]  # partitions omitted: all


def test_listed_partitions_exactly_sorted_and_deduplicated():
    scope = {
        "topics": [
            {"topic": "t", "partitions": [2, 0, 2]},
            {"topic": "o", "partitions": [1]},
            {"topic": "t", "partitions": [0]},
        ]
    }
    assert scope_of(scope) == [("o", 1), ("t", 0), ("t", 2)]


def test_an_empty_partition_list_selects_nothing_of_that_topic():
    assert scope_of({"topics": [{"topic": "t", "partitions": []}]}) == []


@pytest.mark.parametrize("scope", [{}, {"topics": []}, {"topics": None}, {"all_topics": False}])
def test_an_empty_scope_selects_nothing(scope):
    assert scope_of(scope) == []


def test_an_unknown_topic_names_its_index():
    scope = {"topics": [{"topic": "t"}, {"topic": "nope", "partitions": [0]}]}
    error = bad(lambda: scope_of(scope), "scope.topics[1].topic")
    assert error.message == "scope.topics[1].topic: topic 'nope' does not exist."


def test_an_unknown_partition_names_it():
    scope = {"topics": [{"topic": "o", "partitions": [0, 2]}]}
    error = bad(lambda: scope_of(scope), "scope.topics[0].partitions")
    assert error.message == "scope.topics[0].partitions: topic 'o' has no partition 2."


def test_from_file_takes_the_files_partitions_and_ignores_the_scope():
    strategy = Strategy("from_file", file_offsets={("t", 2): 1, ("o", 0): 4, ("t", 0): 9})
    expected = [("o", 0), ("t", 0), ("t", 2)]
    assert scope_of({}, strategy) == expected
    assert scope_of({"all_topics": True}, strategy) == expected
    assert scope_of({"topics": [{"topic": "nope"}]}, strategy) == expected


def test_from_file_with_an_unknown_topic_or_partition_names_the_csv():
    unknown_topic = Strategy("from_file", file_offsets={("t", 0): 1, ("nope", 0): 1})
    error = bad(lambda: scope_of({}, unknown_topic), "strategy.csv")
    assert error.message == "strategy.csv: topic 'nope' does not exist."
    unknown_partition = Strategy("from_file", file_offsets={("z", 1): 1})
    error = bad(lambda: scope_of({}, unknown_partition), "strategy.csv")
    assert error.message == "strategy.csv: topic 'z' has no partition 1."


# --- plan_changes -------------------------------------------------------------------------


def row(partition: int, current: int | None, new: int, topic: str = "t") -> dict:
    """A plan row as a preview stores it (the fields plan_changes reads, and a few more)."""
    return {
        "topic": topic,
        "partition": partition,
        "current_offset": current,
        "new_offset": new,
        "log_start_offset": 0,
        "log_end_offset": 20,
        "clamped": False,
    }


PLAN = [row(0, 10, 5), row(1, None, 0), row(2, 7, 20)]
COMMITTED_NOW = {("t", 0): 10, ("t", 1): None, ("t", 2): 7}
STARTS = {("t", 0): 0, ("t", 1): 0, ("t", 2): 3}
ENDS = {("t", 0): 20, ("t", 1): 20, ("t", 2): 20}


def test_nothing_changed_means_no_changes():
    assert plan_changes(PLAN, COMMITTED_NOW, STARTS, ENDS) == []


def test_no_commit_then_and_none_now_is_no_change():
    assert plan_changes([row(1, None, 0)], {}, STARTS, ENDS) == []


def test_new_offsets_on_the_range_bounds_still_hold():
    plan = [row(0, 10, 0), row(2, 7, 20)]
    assert plan_changes(plan, COMMITTED_NOW, {("t", 0): 0, ("t", 2): 0}, ENDS) == []


def partition_0_change(current_offset: int, log_start_offset: int) -> dict:
    """The change plan_changes reports for PLAN's partition 0 (planned from 10 to 5, log end
    20), with what is found there now."""
    return {
        "topic": "t",
        "partition": 0,
        "planned_current_offset": 10,
        "current_offset": current_offset,
        "new_offset": 5,
        "log_start_offset": log_start_offset,
        "log_end_offset": 20,
    }


def test_a_committed_offset_that_moved():
    committed = {**COMMITTED_NOW, ("t", 0): 12}
    assert plan_changes(PLAN, committed, STARTS, ENDS) == [partition_0_change(12, 0)]


def test_a_first_commit_since_the_preview_is_a_change():
    changes = plan_changes(PLAN, {**COMMITTED_NOW, ("t", 1): 4}, STARTS, ENDS)
    moved = [(c["partition"], c["planned_current_offset"], c["current_offset"]) for c in changes]
    assert moved == [(1, None, 4)]


def test_a_committed_offset_that_disappeared_is_a_change():
    committed = {("t", 1): None, ("t", 2): 7}  # e.g. expired: ("t", 0) is gone
    changes = plan_changes(PLAN, committed, STARTS, ENDS)
    assert [(c["partition"], c["current_offset"]) for c in changes] == [(0, None)]


def test_a_new_offset_that_fell_below_the_log_start():
    # Retention or DeleteRecords moved partition 0's start past the planned offset 5.
    starts = {**STARTS, ("t", 0): 6}
    assert plan_changes(PLAN, COMMITTED_NOW, starts, ENDS) == [partition_0_change(10, 6)]


def test_a_new_offset_above_the_log_end():
    # The log end went back (a truncated or recreated topic): offset 20 is past the end 15.
    ends = {**ENDS, ("t", 2): 15}
    changes = plan_changes(PLAN, COMMITTED_NOW, STARTS, ends)
    assert [(c["partition"], c["new_offset"], c["log_end_offset"]) for c in changes] == [
        (2, 20, 15)
    ]


@pytest.mark.parametrize("missing", ["start", "end"])
def test_an_unreadable_log_range_is_a_change(missing):
    starts = {k: v for k, v in STARTS.items() if not (missing == "start" and k == ("t", 1))}
    ends = {**ENDS, ("t", 1): None} if missing == "end" else ENDS
    changes = plan_changes(PLAN, COMMITTED_NOW, starts, ends)
    assert [c["partition"] for c in changes] == [1]


def test_every_changed_partition_in_plan_order():
    committed = {("t", 0): 11, ("t", 1): 3, ("t", 2): 7}
    starts = {**STARTS, ("t", 2): 21}
    ends = {**ENDS, ("t", 2): 25}
    changes = plan_changes(PLAN, committed, starts, ends)
    assert [c["partition"] for c in changes] == [0, 1, 2]


def test_an_empty_plan_has_no_changes():
    assert plan_changes([], COMMITTED_NOW, STARTS, ENDS) == []
