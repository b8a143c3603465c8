"""Reassignment plans: the CLI's JSON read and written, --generate's algorithm, replication
factor changes, and the preview's moves, bytes and time (pure, no Kafka)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from console.errors import BadInput, Conflict
from reassign.generate import (
    BrokerSlot,
    assign_replicas,
    change_replication_factor,
    rack_alternated,
)
from reassign.plans import Target, parse_plan, plan_document
from reassign.preview import check_targets, check_throttle, moves, totals


def _plan(*partitions: dict) -> dict:
    return {"version": 1, "partitions": list(partitions)}


def test_a_plan_reads_with_log_dirs_defaulting_to_any():
    targets = parse_plan(
        _plan(
            {"topic": "t", "partition": 0, "replicas": [2, 3]},
            {"topic": "t", "partition": 1, "replicas": [3], "log_dirs": ["/d"]},
        )
    )
    assert targets == [
        Target("t", 0, (2, 3), ("any", "any")),
        Target("t", 1, (3,), ("/d",)),
    ]


@pytest.mark.parametrize(
    "doc, words",
    [
        ([], "must be an object"),
        ({"version": 2, "partitions": []}, "Not supported version field value 2"),
        (_plan(), "Partition reassignment list cannot be empty"),
        ({"version": 1}, "Partition reassignment list cannot be empty"),
        (_plan({"topic": "t", "partition": 0, "replicas": []}), "replica list cannot be empty"),
        (
            _plan(
                {"topic": "t", "partition": 0, "replicas": [1]},
                {"topic": "t", "partition": 0, "replicas": [2]},
            ),
            "duplicate topic partitions: t-0",
        ),
        (
            _plan({"topic": "t", "partition": 0, "replicas": [1, 2, 1]}),
            "t-0 contains multiple entries for 1",
        ),
        (
            _plan({"topic": "t", "partition": 0, "replicas": [1, 2], "log_dirs": ["any"]}),
            "Size of replicas list [1, 2] is different from size of log dirs list",
        ),
        (_plan({"topic": "t", "partition": 0, "replica": [1]}), "unknown key(s) 'replica'"),
        ({"version": 1, "partitions": [], "throttle": 5}, "unknown key(s) 'throttle'"),
        (_plan({"topic": "t", "partition": -1, "replicas": [1]}), "partition must be a whole"),
        (_plan({"topic": "t", "partition": 0, "replicas": ["1"]}), "replicas must be a whole"),
        (_plan({"partition": 0, "replicas": [1]}), "topic must be a topic name"),
    ],
    ids=[
        "not-object",
        "version",
        "empty",
        "no-partitions",
        "no-replicas",
        "duplicate-partition",
        "duplicate-replica",
        "dirs-length",
        "misspelt-key",
        "unknown-top-key",
        "negative-partition",
        "string-broker",
        "no-topic",
    ],
)
def test_bad_plans_are_refused_in_the_tools_words(doc, words):
    with pytest.raises(BadInput) as refused:
        parse_plan(doc)
    assert refused.value.field == "plan"
    assert words in refused.value.message


def test_plan_document_is_the_tools_format_sorted():
    doc = plan_document({("b", 0): [1], ("a", 10): [2, 3], ("a", 2): [3, 1]})
    assert doc == {
        "version": 1,
        "partitions": [
            {"topic": "a", "partition": 2, "replicas": [3, 1], "log_dirs": ["any", "any"]},
            {"topic": "a", "partition": 10, "replicas": [2, 3], "log_dirs": ["any", "any"]},
            {"topic": "b", "partition": 0, "replicas": [1], "log_dirs": ["any"]},
        ],
    }
    assert parse_plan(doc)[0] == Target("a", 2, (3, 1), ("any", "any"))


SIX = [BrokerSlot(i, None) for i in range(1, 7)]


@pytest.mark.parametrize("seed", range(5))
def test_generated_replicas_are_distinct_and_spread_evenly(seed):
    assigned = assign_replicas(SIX, 12, 3, rng=random.Random(seed))
    assert sorted(assigned) == list(range(12))
    assert all(len(set(r)) == 3 for r in assigned.values())
    leaders = Counter(r[0] for r in assigned.values())
    replicas = Counter(b for r in assigned.values() for b in r)
    assert set(leaders.values()) == {2}  # 12 leaders over 6 brokers
    assert set(replicas.values()) == {6}  # 36 replicas over 6 brokers


def test_the_rack_unaware_layout_is_kafkas_for_a_known_start_and_shift():
    class Fixed(random.Random):
        def randrange(self, n):  # type: ignore[override]
            return 0

    assigned = assign_replicas(SIX[:3], 4, 2, rng=Fixed())
    # AdminUtils with startIndex 0 and shift 0: leader p % n, follower one further on; after
    # n partitions the shift grows by one.
    assert assigned == {0: [1, 2], 1: [2, 3], 2: [3, 1], 3: [1, 3]}


RACKED = [BrokerSlot(1, "a"), BrokerSlot(2, "a"), BrokerSlot(3, "b"), BrokerSlot(4, "b")]


def test_brokers_alternate_rack_by_rack():
    assert rack_alternated(RACKED) == [1, 3, 2, 4]


@pytest.mark.parametrize("seed", range(5))
def test_rack_aware_replicas_take_both_racks(seed):
    assigned = assign_replicas(RACKED, 8, 2, rng=random.Random(seed))
    rack = {b.id: b.rack for b in RACKED}
    assert all({rack[b] for b in r} == {"a", "b"} for r in assigned.values())


@pytest.mark.parametrize(
    "brokers, rf, field, words",
    [
        (
            SIX[:2],
            3,
            "replication_factor",
            "Replication factor: 3 larger than available brokers: 2",
        ),
        ([BrokerSlot(1, "a"), BrokerSlot(2, None)], 2, "brokers", "Not all brokers have rack"),
        (SIX, 0, "replication_factor", "at least 1"),
    ],
    ids=["too-few-brokers", "some-racks", "zero"],
)
def test_generate_refusals(brokers, rf, field, words):
    with pytest.raises(BadInput) as refused:
        assign_replicas(brokers, 3, rf)
    assert refused.value.field == field and words in refused.value.message


def test_raising_the_factor_keeps_replicas_in_place_and_adds_the_least_loaded():
    changed = change_replication_factor({0: [1], 1: [2]}, 2, SIX[:3], load={1: 10, 2: 10, 3: 0})
    assert changed[0][0] == 1 and changed[1][0] == 2  # preferred leaders kept first
    assert changed[0][1] == 3  # the least loaded broker
    assert changed[1][1] in (1, 3) and len(set(changed[1])) == 2


def test_raising_prefers_a_rack_the_partition_lacks():
    changed = change_replication_factor({0: [1]}, 2, RACKED, load={3: 5, 4: 5})
    assert changed[0] in ([1, 3], [1, 4])


def test_lowering_drops_from_the_end_never_the_preferred_leader():
    assert change_replication_factor({0: [3, 1, 2]}, 1, SIX[:3]) == {0: [3]}
    with pytest.raises(BadInput):
        change_replication_factor({0: [1]}, 4, SIX[:3])


CURRENT = {("t", 0): [1, 2], ("t", 1): [2, 3]}
LIVE = frozenset({1, 2, 3})


@pytest.mark.parametrize(
    "target, dirs, moving, error, words",
    [
        (Target("t", 9, (1,), ("any",)), {}, set(), BadInput, "Unable to find partition: t-9"),
        (Target("t", 0, (1, 5), ("any", "any")), {}, set(), BadInput, "Unknown broker id 5"),
        (
            Target("t", 0, (1, 2), ("/nope", "any")),
            {1: {"/data"}},
            set(),
            BadInput,
            "broker 1 has no log dir '/nope'",
        ),
        (Target("t", 0, (2, 3), ("any", "any")), {}, {("t", 0)}, Conflict, "already being"),
    ],
    ids=["no-partition", "unknown-broker", "no-such-dir", "moving"],
)
def test_plans_that_cannot_run_are_refused(target, dirs, moving, error, words):
    with pytest.raises(error) as refused:
        check_targets([target], CURRENT, LIVE, dirs, moving)
    assert words in refused.value.message


@pytest.mark.parametrize("value", [0, 1023, 10 * 1024**3 + 1, -5])
def test_absurd_throttles_are_refused(value):
    with pytest.raises(BadInput) as refused:
        check_throttle(value)
    assert refused.value.field == "throttle_bytes_per_s"


def test_moves_count_the_bytes_each_new_replica_copies_and_the_time_at_the_throttle():
    targets = [Target("t", 0, (2, 3), ("any", "any")), Target("t", 1, (2, 3), ("any", "any"))]
    rows = moves(targets, CURRENT, {("t", 0): 1000, ("t", 1): 500}.get)
    assert rows[0] == {
        "topic": "t",
        "partition": 0,
        "from": [1, 2],
        "to": [2, 3],
        "adding": [3],
        "removing": [1],
        "bytes": 1000,
    }
    assert rows[1]["bytes"] == 0 and rows[1]["adding"] == []  # already there
    leaders = {("t", 0): 1, ("t", 1): 2}
    assert totals(rows, 100, leaders) == {"total_bytes": 1000, "estimated_seconds": 10}
    assert totals(rows, None, leaders)["estimated_seconds"] is None


def test_an_unknown_size_makes_the_total_unknown():
    rows = moves([Target("t", 0, (3,), ("any",))], CURRENT, lambda tp: None)
    assert rows[0]["bytes"] is None
    assert totals(rows, 1000, {}) == {"total_bytes": None, "estimated_seconds": None}


def test_the_rollback_plan_names_each_replicas_current_dir():
    doc = plan_document({("t", 0): [1, 2]}, {("t", 0, 1): "/d1"})
    assert doc["partitions"][0]["log_dirs"] == ["/d1", "any"]
