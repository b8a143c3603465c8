"""A replication factor below min.insync.replicas (topics.health): a configuration warning,
told apart from a partition under min ISR because it lost replicas, without a cluster.

TopicCommand's four flags keep their meaning: such a partition is still under min ISR for
`kafka-topics.sh --describe --under-min-isr-partitions`. Beside them, `min_isr_unreachable`
says why: it can never have min.insync.replicas replicas in sync, however healthy its brokers.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from console import kafka
from console.clusters import ClusterConfig
from console.kafka import Broker, ClusterDescription, PartitionMeta, TopicMeta
from console.metadata import ClusterSnapshot, TopicSettings
from topics import listing
from topics.api.serializers import (
    ConfigWarningSerializer,
    PartitionSerializer,
    TopicDetailSerializer,
    TopicRowSerializer,
)
from topics.health import (
    FILTERS,
    MIN_ISR_UNREACHABLE,
    ConfigWarning,
    PartitionHealth,
    config_warnings,
    min_isr_unreachable,
    partition_health,
)

LIVE = frozenset({1, 2, 3})
RF1_MIN2 = (
    "replication factor 1 is below min.insync.replicas 2: producers with acks=all always fail "
    "with NOT_ENOUGH_REPLICAS; raise the replication factor or lower min.insync.replicas"
)


def topic(name: str, *partitions: tuple[list[int], list[int], int | None]) -> TopicMeta:
    return TopicMeta(
        name,
        False,
        [
            PartitionMeta(i, leader, replicas, isr)
            for i, (replicas, isr, leader) in enumerate(partitions)
        ],
    )


# --- one partition ------------------------------------------------------------------------


def test_rf_1_with_min_isr_2_is_misconfigured_not_an_outage():
    health = partition_health([1], [1], 1, LIVE, min_isr=2)
    # TopicCommand's answer is unchanged: under min ISR, and nothing else.
    assert {f for f in FILTERS if health.matches(f)} == {"under_min_isr"}
    assert health.min_isr_unreachable
    assert not health.under_min_isr_outage


def test_lost_replicas_below_min_isr_are_an_outage_not_a_misconfiguration():
    health = partition_health([1, 2, 3], [1], 1, LIVE, min_isr=2)
    assert health.under_min_isr and health.under_replicated
    assert not health.min_isr_unreachable
    assert health.under_min_isr_outage


def test_a_lost_leader_is_an_outage_even_with_the_isr_full():
    health = partition_health([1, 2, 3], [1, 2, 3], None, LIVE, min_isr=2)
    assert health.under_min_isr_outage and health.unavailable


def test_a_misconfigured_partition_without_a_leader_is_still_unavailable():
    health = partition_health([1], [1], None, {2, 3}, min_isr=2)
    assert health.min_isr_unreachable and health.unavailable
    assert not health.under_min_isr_outage


@pytest.mark.parametrize(
    "replicas, min_isr, expected",
    [(1, 1, False), (1, 2, True), (2, 3, True), (3, 3, False), (3, 2, False), (0, 1, True)],
)
def test_min_isr_unreachable_is_a_replica_count_below_min_isr(replicas, min_isr, expected):
    assert min_isr_unreachable(replicas, min_isr) is expected


def test_the_existing_four_field_constructor_still_works():
    # Positional construction with TopicCommand's four flags: the new flag defaults to False.
    assert PartitionHealth(True, True, False, False).min_isr_unreachable is False


# --- property tests over random replication factor, ISR, leader and min ISR ------------------


@st.composite
def partitions(draw):
    """A partition as Kafka can describe it: distinct replicas, the ISR a subset of them, the
    leader (if any) in the ISR; live brokers any subset of 1..8; min ISR 1..7."""
    replicas = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True))
    isr = draw(st.lists(st.sampled_from(replicas), max_size=len(replicas), unique=True))
    leader = draw(st.one_of(st.none(), st.sampled_from(isr))) if isr else None
    live = draw(st.frozensets(st.integers(1, 8)))
    min_isr = draw(st.integers(1, 7))
    return replicas, isr, leader, live, min_isr


@given(partitions())
def test_the_four_flags_keep_topic_commands_meaning(p):
    replicas, isr, leader, live, min_isr = p
    health = partition_health(replicas, isr, leader, live, min_isr)
    assert health.under_replicated == (len(replicas) - len(isr) > 0)
    assert health.under_min_isr == (leader is None or len(isr) < min_isr)
    assert health.at_min_isr == (len(isr) == min_isr)
    assert health.unavailable == (leader is None or leader not in live)


@given(partitions())
def test_misconfigured_is_exactly_fewer_replicas_than_min_isr(p):
    replicas, isr, leader, live, min_isr = p
    health = partition_health(replicas, isr, leader, live, min_isr)
    assert health.min_isr_unreachable == (len(replicas) < min_isr)


@given(partitions())
def test_under_min_isr_is_either_misconfigured_or_an_outage_never_both(p):
    health = partition_health(*p)
    if health.min_isr_unreachable:
        assert health.under_min_isr  # the ISR can never reach min ISR
    assert health.under_min_isr == (health.min_isr_unreachable or health.under_min_isr_outage)
    assert not (health.min_isr_unreachable and health.under_min_isr_outage)


@given(partitions())
def test_an_outage_always_has_a_lost_replica_or_a_lost_leader(p):
    replicas, isr, leader, live, min_isr = p
    health = partition_health(replicas, isr, leader, live, min_isr)
    if health.under_min_isr_outage:
        assert leader is None or health.under_replicated


@given(partitions())
def test_healing_every_replica_clears_an_outage_but_not_a_misconfiguration(p):
    replicas, _isr, _leader, _live, min_isr = p
    healed = partition_health(replicas, list(replicas), replicas[0], set(replicas), min_isr)
    assert not healed.under_min_isr_outage and not healed.unavailable
    assert healed.under_min_isr == healed.min_isr_unreachable == (len(replicas) < min_isr)


@given(st.lists(partitions(), min_size=1, max_size=12), st.integers(1, 7))
def test_topic_row_counts_and_warning_agree_with_the_partitions(parts, min_isr):
    meta = topic("t", *[(replicas, isr, leader) for replicas, isr, leader, _l, _m in parts])
    live = parts[0][3]
    row = listing.topic_row(meta, live, min_isr)
    healths = [
        partition_health(p.replicas, p.isr, p.leader, live, min_isr) for p in meta.partitions
    ]
    for flag in FILTERS:
        assert row[f"{flag}_count"] == sum(h.matches(flag) for h in healths)
    assert row["min_isr_unreachable_count"] == sum(
        len(p.replicas) < min_isr for p in meta.partitions
    )
    assert row["min_isr_unreachable"] == (row["min_isr_unreachable_count"] > 0)
    assert (
        row["min_isr_unreachable_count"] + row["under_min_isr_outage_count"]
        == row["under_min_isr_count"]
    )
    assert [w["code"] for w in row["config_warnings"]] == (
        [MIN_ISR_UNREACHABLE] if row["min_isr_unreachable"] else []
    )


@given(st.dictionaries(st.integers(0, 50), st.integers(1, 6), max_size=30), st.integers(1, 7))
def test_config_warnings_over_random_replica_counts(replica_counts, min_isr):
    warnings = config_warnings(replica_counts, min_isr)
    short = [p for p, n in replica_counts.items() if n < min_isr]
    if not short:
        assert warnings == []
        return
    [warning] = warnings
    assert warning.code == MIN_ISR_UNREACHABLE
    assert f"min.insync.replicas {min_isr}" in warning.message
    assert "producers with acks=all" in warning.message
    assert "NOT_ENOUGH_REPLICAS" in warning.message
    assert (
        "replication factor" in warning.message and "lower min.insync.replicas" in warning.message
    )
    counts = {replica_counts[p] for p in short}
    if len(short) == len(replica_counts) and len(counts) == 1:
        assert warning.message.startswith(f"replication factor {counts.pop()} is below ")
    else:
        assert f"({len(short)} of {len(replica_counts)} partitions)" in warning.message
        assert str(min(short)) in warning.message


# --- the messages -----------------------------------------------------------------------------


def test_the_message_names_the_cause_in_plain_words():
    assert config_warnings({0: 1}, 2) == [ConfigWarning(MIN_ISR_UNREACHABLE, RF1_MIN2)]
    assert config_warnings({0: 1, 1: 1, 2: 1}, 2)[0].message == RF1_MIN2
    assert config_warnings({0: 2, 1: 2}, 3)[0].message.startswith(
        "replication factor 2 is below min.insync.replicas 3: "
    )


def test_no_warning_when_every_partition_has_enough_replicas():
    assert config_warnings({0: 3, 1: 3}, 2) == []
    assert config_warnings({0: 1}, 1) == []  # RF 1 with the default min ISR: fine
    assert config_warnings({}, 2) == []


def test_some_partitions_short_are_named():
    [one] = config_warnings({0: 3, 1: 1, 2: 3}, 2)
    assert one.message == (
        "partition 1 has 1 replica, below min.insync.replicas 2 (1 of 3 partitions): "
        "producers with acks=all to it always fail with NOT_ENOUGH_REPLICAS; "
        "raise its replication factor or lower min.insync.replicas"
    )
    [two] = config_warnings({0: 1, 1: 2, 2: 3}, 3)
    assert two.message.startswith(
        "partitions 0 (1 replica) and 1 (2 replicas) have fewer replicas than "
        "min.insync.replicas 3 (2 of 3 partitions): producers with acks=all to them"
    )
    [many] = config_warnings({p: 1 if p % 2 else 3 for p in range(20)}, 2)
    assert many.message.startswith(
        "partitions 1, 3, 5, 7, 9 and 5 more have 1 replica each, below min.insync.replicas 2 "
        "(10 of 20 partitions)"
    )


# --- the API's rows ---------------------------------------------------------------------------


def test_a_topic_row_both_misconfigured_and_with_lost_replicas():
    # Partition 0 has RF 1 (reassigned by hand), partitions 1 and 2 RF 3; partition 2 lost two.
    meta = topic("mixed", ([1], [1], 1), ([1, 2, 3], [1, 2, 3], 1), ([1, 2, 3], [3], 3))
    row = listing.topic_row(meta, LIVE, 2)
    assert row["under_min_isr_count"] == 2  # TopicCommand: partitions 0 and 2
    assert row["min_isr_unreachable_count"] == 1
    assert row["under_min_isr_outage_count"] == 1
    assert row["min_isr_unreachable"] is True
    assert [w["code"] for w in row["config_warnings"]] == [MIN_ISR_UNREACHABLE]
    assert row["config_warnings"][0]["message"].startswith("partition 0 has 1 replica")


def test_a_healthy_topic_row_has_no_warning():
    row = listing.topic_row(topic("ok", ([1, 2, 3], [1, 2, 3], 1)), LIVE, 2)
    assert row["min_isr_unreachable"] is False
    assert row["min_isr_unreachable_count"] == row["under_min_isr_outage_count"] == 0
    assert row["config_warnings"] == []


class FakeClient:
    def __init__(self, configs: dict[str, kafka.ConfigValue]) -> None:
        self.configs = configs

    def describe_topic_configs(self, names):
        return {name: self.configs for name in names}

    def list_offsets(self, tps, spec):
        return {tp: kafka.OffsetResult(0 if spec == "earliest" else 5, None) for tp in tps}

    def describe_log_dirs(self, broker_ids):
        return {b: [] for b in broker_ids}


def test_topic_detail_of_rf_1_with_min_isr_2(monkeypatch):
    meta = topic("rf1", ([2], [2], 2), ([3], [3], 3))
    desc = ClusterDescription("cid", 1, [Broker(b, "h", 9092, None) for b in (1, 2, 3)])
    snap = ClusterSnapshot(0.0, desc, {"rf1": meta})
    min_isr = kafka.ConfigValue("2", "DYNAMIC_TOPIC_CONFIG", False, False, False)
    monkeypatch.setattr(
        kafka, "for_cluster", lambda cfg: FakeClient({"min.insync.replicas": min_isr})
    )
    detail = listing.topic_detail(ClusterConfig("c", "127.0.0.1:1"), "rf1", snap)
    assert detail["replication_factor"] == 1 and detail["min_insync_replicas"] == 2
    assert detail["min_isr_unreachable"] is True
    assert detail["config_warnings"] == [{"code": MIN_ISR_UNREACHABLE, "message": RF1_MIN2}]
    assert [p["under_min_isr"] for p in detail["partitions"]] == [True, True]
    assert [p["min_isr_unreachable"] for p in detail["partitions"]] == [True, True]
    # The shapes the OpenAPI schema (and so the SPA's types) declare, field for field.
    assert set(detail) == set(TopicDetailSerializer().fields)
    assert set(detail["partitions"][0]) == set(PartitionSerializer().fields)
    assert set(detail["config_warnings"][0]) == set(ConfigWarningSerializer().fields)
    row = listing.list_row(meta, snap.live_broker_ids, TopicSettings(2, False), None, None)
    assert set(row) == set(TopicRowSerializer().fields)
