"""Topic sizes, message counts and readers against Apache Kafka's own tools: a topic's size
is its leader replicas' as kafka-log-dirs.sh --describe reports them, its message count the
end offsets minus the start offsets as kafka-get-offsets.sh gives them, and its readers the
groups the lag sampler's last pass evaluated on it."""

from __future__ import annotations

import re
import uuid

import pytest

from console.clusters import get_cluster
from tests.sizes import RECORDS, settled_cli_sizes, write_sized_topic
from tests.stack import cluster_client, commit_and_wait, kafka_tool

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def _offsets(topic: str, time: str) -> dict[int, int]:
    out = kafka_tool("kafka-get-offsets", "--topic", topic, "--time", time).stdout
    return {int(p): int(o) for p, o in re.findall(rf"^{re.escape(topic)}:(\d+):(\d+)$", out, re.M)}


def _row(client, topic: str) -> dict:
    rows = client.get("/api/v1/clusters/local/topics", {"search": topic}).json()
    return next(r for r in rows if r["name"] == topic)


def test_sizes_counts_and_readers_equal_what_kafkas_tools_and_the_sampler_report(
    viewer_client, stack
):
    from groups.lag.sampler import ClusterSampler
    from topics import sizes

    topic = write_sized_topic(f"sizes-{uuid.uuid4().hex[:8]}")
    compacted = write_sized_topic(f"sizes-c-{uuid.uuid4().hex[:8]}", {"cleanup.policy": "compact"})
    group = f"{topic}-readers"
    commit_and_wait(cluster_client(), group, {(topic, 0): 4, (topic, 1): 150})
    cli = settled_cli_sizes(topic)
    ClusterSampler(get_cluster("local"), interval_s=1.0).run_pass()
    sizes.cache.invalidate("local")  # sizes asked now, with every replica in sync

    detail = viewer_client.get(f"/api/v1/clusters/local/topics/{topic}").json()
    leaders = {p["partition"]: p["leader"] for p in detail["partitions"]}
    leader_sizes = {p: cli[leaders[p]][(topic, p)][0] for p in leaders}
    assert {p["partition"]: p["size_bytes"] for p in detail["partitions"]} == leader_sizes
    assert detail["size_bytes"] == sum(leader_sizes.values()) > 0
    everywhere = sum(size for broker in cli.values() for size, _ in broker.values())
    assert detail["replicas_size_bytes"] == everywhere == 3 * detail["size_bytes"]

    ends, starts = _offsets(topic, "-1"), _offsets(topic, "-2")
    assert detail["message_count"] == sum(ends.values()) - sum(starts.values()) == sum(RECORDS)
    assert detail["message_count_is_upper_bound"] is False
    assert [(r["group_id"], r["lag"]) for r in detail["readers"]] == [
        (group, sum(RECORDS) - 4 - 150)
    ]

    row = _row(viewer_client, topic)
    assert (row["size_bytes"], row["replicas_size_bytes"], row["message_count"]) == (
        detail["size_bytes"],
        detail["replicas_size_bytes"],
        detail["message_count"],
    )
    assert row["reader_groups"] == 1
    assert _row(viewer_client, compacted)["message_count_is_upper_bound"] is True
    assert _row(viewer_client, compacted)["reader_groups"] == 0


def test_the_overview_gives_each_brokers_disk_and_the_bytes_it_holds(viewer_client, stack):
    from topics import sizes

    topic = write_sized_topic(f"sizes-b-{uuid.uuid4().hex[:8]}")
    cli = settled_cli_sizes(topic)
    sizes.cache.invalidate("local")
    brokers = viewer_client.get("/api/v1/clusters/local").json()["brokers"]
    assert [b["id"] for b in brokers] == [1, 2, 3]
    for b in brokers:
        assert 0 < b["disk_usable_bytes"] <= b["disk_total_bytes"]
        # Every replica it holds, this topic's among them.
        assert b["replicas_size_bytes"] >= sum(size for size, _ in cli[b["id"]].values()) > 0
