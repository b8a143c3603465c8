"""Partition health flags without a cluster: the meaning of kafka-topics.sh's --describe filters.

TopicCommand: under-replicated is |ISR| < RF; under-min-ISR is no leader or |ISR| < min ISR;
at-min-ISR is |ISR| == min ISR; unavailable is no leader or a leader that is not a live broker.
"""

from __future__ import annotations

import dataclasses

import pytest

from console.kafka import Broker, ClusterDescription, PartitionMeta, TopicMeta
from console.metadata import DEFAULT_MIN_ISR, ClusterSnapshot, parse_min_isr
from topics.health import FILTERS, PartitionHealth, offline_replicas, partition_health

LIVE = {1, 2, 3}


def flags(health: PartitionHealth) -> set[str]:
    return {flag for flag in FILTERS if health.matches(flag)}


def test_a_fully_replicated_partition_has_no_flag():
    health = partition_health([1, 2, 3], [1, 2, 3], 1, LIVE, min_isr=2)
    assert health == PartitionHealth(False, False, False, False)
    assert flags(health) == set()


def test_one_replica_out_of_sync_is_under_replicated_and_at_min_isr():
    health = partition_health([1, 2, 3], [1, 2], 1, LIVE, min_isr=2)
    assert flags(health) == {"under_replicated", "at_min_isr"}


def test_isr_below_min_isr():
    health = partition_health([1, 2, 3], [1], 1, LIVE, min_isr=2)
    assert flags(health) == {"under_replicated", "under_min_isr"}


def test_isr_above_min_isr_is_neither_under_nor_at():
    health = partition_health([1, 2, 3], [1, 2, 3], 1, LIVE, min_isr=1)
    assert not health.under_min_isr and not health.at_min_isr


def test_a_healthy_single_replica_topic_is_at_min_isr():
    # RF 1 with the default min ISR 1: TopicCommand lists it under --at-min-isr-partitions.
    health = partition_health([1], [1], 1, LIVE, min_isr=1)
    assert flags(health) == {"at_min_isr"}


def test_min_isr_above_the_replication_factor_is_under_min_isr_though_fully_in_sync():
    health = partition_health([1, 2], [1, 2], 1, LIVE, min_isr=3)
    assert flags(health) == {"under_min_isr"}


def test_leader_offline_is_unavailable_and_under_min_isr_even_with_a_full_isr():
    # No leader: Kafka keeps the last ISR member listed; both filters match regardless.
    health = partition_health([1, 2, 3], [1, 2, 3], None, LIVE, min_isr=1)
    assert flags(health) == {"unavailable", "under_min_isr"}


def test_leader_offline_with_an_empty_isr():
    health = partition_health([1, 2, 3], [], None, {2, 3}, min_isr=2)
    assert flags(health) == {"under_replicated", "under_min_isr", "unavailable"}


def test_a_leader_that_is_not_a_live_broker_is_unavailable():
    # Metadata can still name a leader on a broker that is no longer registered (fenced).
    health = partition_health([1, 2, 3], [1, 2, 3], 2, {1, 3}, min_isr=2)
    assert flags(health) == {"unavailable"}


def test_a_live_leader_is_available_whatever_the_other_replicas():
    health = partition_health([1, 2, 3], [1], 1, {1}, min_isr=1)
    assert flags(health) == {"under_replicated", "at_min_isr"}
    assert not health.unavailable


@pytest.mark.parametrize(
    "live", [[1, 2], frozenset({1, 2}), (1, 2)], ids=["list", "frozenset", "tuple"]
)
def test_live_brokers_may_be_any_collection(live):
    assert not partition_health([1, 2], [1, 2], 2, live, 1).unavailable
    assert partition_health([1, 2], [1, 2], 3, live, 1).unavailable


@pytest.mark.parametrize(
    "replicas, live, expected",
    [
        ([1, 2, 3], {1, 2, 3}, []),
        ([3, 1, 2], {1}, [3, 2]),  # assignment order, not sorted
        ([1, 2, 3], set(), [1, 2, 3]),
        ([], {1}, []),
    ],
)
def test_offline_replicas_are_those_on_dead_brokers_in_assignment_order(replicas, live, expected):
    assert offline_replicas(replicas, live) == expected


def test_replicas_on_dead_brokers_still_in_the_isr_do_not_change_the_flags():
    # Until the controller shrinks the ISR, only the leader's liveness counts.
    assert offline_replicas([1, 2, 3], {1}) == [2, 3]
    assert flags(partition_health([1, 2, 3], [1, 2, 3], 1, {1}, 2)) == set()


def test_matches_covers_every_filter_and_health_is_immutable():
    health = PartitionHealth(True, True, True, True)
    assert all(health.matches(flag) for flag in FILTERS)
    assert FILTERS == ("under_replicated", "under_min_isr", "at_min_isr", "unavailable")
    with pytest.raises(dataclasses.FrozenInstanceError):
        health.unavailable = False  # type: ignore[misc]


@pytest.mark.parametrize(
    "value, expected",
    [
        (None, DEFAULT_MIN_ISR),
        ("2", 2),
        ("1", 1),
        (" 3 ", 3),
        ("", DEFAULT_MIN_ISR),
        ("two", DEFAULT_MIN_ISR),
        ("2.5", DEFAULT_MIN_ISR),
    ],
)
def test_parse_min_isr(value, expected):
    assert DEFAULT_MIN_ISR == 1
    assert parse_min_isr(value) == expected


def test_snapshot_partitions_of_and_live_brokers():
    desc = ClusterDescription("cid", 1, [Broker(1, "h", 1, None), Broker(3, "h", 3, None)])
    topic = TopicMeta("t", False, [PartitionMeta(0, 1, [1], [1]), PartitionMeta(1, 3, [3], [3])])
    snap = ClusterSnapshot(0.0, desc, {"t": topic, "empty": TopicMeta("empty", False, [])})
    assert snap.live_broker_ids == frozenset({1, 3})
    assert snap.partitions_of("t") == [0, 1]
    assert snap.partitions_of("empty") == []
    assert snap.partitions_of("missing") is None
