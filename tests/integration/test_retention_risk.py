"""Retention risk on real segments: a group at the log start of a young 7-day log is in no
danger (the false alarm this rule replaced), one whose oldest unread record is about to pass
`retention.ms` is `near` with the reason, and one whose records the broker deleted (small
`segment.ms`, retention checked every 5 s by the dev stack) is `lost`. The lag sampler's own
pass reads the topics' settings from Kafka."""

from __future__ import annotations

import dataclasses
import time
import uuid

import pytest

from console.kafka import dev
from tests.stack import cluster_client, commit_and_wait, produce_written_at, wait_for

pytestmark = [pytest.mark.integration]


@pytest.fixture(autouse=True)
def _stack_redis(stack, settings):
    settings.REDIS_URL = stack["redis_url"]  # where a pass stores its evaluations


def _sampled(group: str) -> dict:
    from console.clusters import get_cluster
    from groups.lag import store
    from groups.lag.sampler import ClusterSampler

    # Its own name, so nothing it stores mixes with a sampler running for `local`.
    cfg = dataclasses.replace(get_cluster("local"), name=f"risk-{uuid.uuid4().hex[:6]}")
    sampler = ClusterSampler(cfg, interval_s=1.0)
    sampler.run_pass()
    result = sampler.run_pass()
    assert result.ok, result
    found = store.read_group(cfg.name, group)  # as the pass stored it
    assert found is not None, group
    return found


def test_a_group_at_the_start_of_a_young_week_long_log_is_in_no_danger(stack):
    client = cluster_client()
    topic = f"risk-young-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {"retention.ms": str(7 * 86400_000)})])
    produce_written_at(client, topic, 20, int(time.time() * 1000) - 3600_000)  # an hour old
    group = f"{topic}-g"
    commit_and_wait(client, group, {(topic, 0): 0})
    found = _sampled(group)
    assert found["partitions"][0]["log_start_offset"] == 0
    assert found["retention_risk"] == "none" and found["retention_reason"] is None


def test_near_names_the_retention_and_the_age_of_the_oldest_unread_record(stack):
    client = cluster_client()
    topic = f"risk-near-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {"retention.ms": str(3600_000)})])
    produce_written_at(client, topic, 20, int(time.time() * 1000) - 3300_000)  # 55 min of 60 old
    group = f"{topic}-g"
    commit_and_wait(client, group, {(topic, 0): 0})
    found = _sampled(group)
    assert found["retention_risk"] == "near", found
    reason = found["retention_reason"]
    assert reason.startswith(f"{topic}-0: unread records can be deleted in "), reason
    assert "retention.ms is 1 h and the oldest unread record is 55 m old" in reason
    assert reason.endswith("the group is not catching up")


def test_records_the_broker_deleted_on_real_segments_are_lost(stack):
    client = cluster_client()
    topic = f"risk-lost-{uuid.uuid4().hex[:8]}"
    configs = {"retention.ms": "10000", "segment.ms": "1000", "file.delete.delay.ms": "0"}
    dev.create_topics(client, [(topic, 1, 3, configs)])
    produce_written_at(
        client, topic, 10, int(time.time() * 1000) - 60_000
    )  # past retention already
    group = f"{topic}-g"
    commit_and_wait(client, group, {(topic, 0): 0})
    time.sleep(1.5)  # the first segment is older than segment.ms: the next write rolls it
    produce_written_at(client, topic, 5, int(time.time() * 1000))

    def deleted() -> bool:
        starts = client.list_offsets([(topic, 0)], "earliest")
        return starts[(topic, 0)].offset >= 10

    wait_for(deleted, timeout=60, what="retention to delete the first segment")
    found = _sampled(group)
    assert found["retention_risk"] == "lost", found
    assert found["retention_reason"] == (
        f"{topic}-0: retention deleted 10 records the group had not read"
    )


def test_a_partition_past_its_retention_bytes_is_near_and_names_its_size(stack):
    """The size side, from the sizes the pass reads with DescribeLogDirs: 120 KiB written into
    a partition that may hold 100,000 bytes is over its limit (the broker may delete its oldest
    segment now), while the same records under a 10 MB limit are in no danger."""
    client = cluster_client()
    over, under = (f"risk-bytes-{k}-{uuid.uuid4().hex[:6]}" for k in ("over", "under"))
    dev.create_topics(
        client,
        [
            (over, 1, 3, {"retention.bytes": "100000"}),
            (under, 1, 3, {"retention.bytes": "10000000"}),
        ],
    )
    producer = dev.make_producer(client, **{"compression.type": "none"})
    for topic in (over, under):
        for _ in range(120):
            producer.produce(topic, value=b"x" * 1024, partition=0)
    assert producer.flush(30) == 0
    group = f"{over}-g"
    commit_and_wait(client, group, {(over, 0): 0, (under, 0): 0})
    found = _sampled(group)
    by_topic = found["topics"]
    assert by_topic[under]["retention_risk"] == "none", by_topic[under]
    assert by_topic[over]["retention_risk"] == "near", by_topic[over]
    reason = by_topic[over]["retention_reason"]
    assert reason.startswith(f"{over}-0: unread records can be deleted now: "), reason
    assert "retention.bytes is 97.7 KiB and the partition holds 1" in reason, reason
