"""Executing reassignments on the real cluster, checked with Apache Kafka's own tools: the
throttles kafka-configs.sh shows during a move are exactly those kafka-reassign-partitions.sh
sets, none of them after completion (a throttle set by hand on another topic stays), the final
replicas are the plan's in kafka-topics.sh --describe and --verify calls it completed; cancel
leaves the old replicas; a partition already moving is refused."""

from __future__ import annotations

import json
import os
import re
import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/api/v1/clusters/local/reassignments"
RECORD = 1024
# Per partition: 3 MiB. A new replica's first fetch takes up to replica.fetch.max.bytes (1 MiB)
# before the throttle's window has measured anything; the rest crawls at a few KiB/s.
RECORDS = 3000


@pytest.fixture
def loaded_topic(stack):
    """Two partitions, one replica each, 3 MiB in each (incompressible)."""
    client = cluster_client()
    topic = f"move-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 2, 1, {})])
    producer = dev.make_producer(client, **{"acks": "all", "compression.type": "none"})
    for partition in (0, 1):
        for _ in range(RECORDS):
            producer.produce(topic, value=os.urandom(RECORD), partition=partition)
    assert producer.flush(30) == 0
    return topic


def _replicas(topic: str) -> dict[int, list[int]]:
    out = kafka_tool("kafka-topics", "--describe", "--topic", topic).stdout
    return {
        int(p): [int(b) for b in r.split(",")]
        for p, r in re.findall(r"Partition: (\d+)\s+Leader: \S+\s+Replicas: ([\d,]+)", out)
    }


def _plan_elsewhere(topic: str) -> dict:
    """Each partition's single replica moved to the next broker."""
    return {
        "version": 1,
        "partitions": [
            {"topic": topic, "partition": p, "replicas": [r[0] % 3 + 1]}
            for p, r in sorted(_replicas(topic).items())
        ],
    }


def _configs(entity_type: str, name: str) -> dict[str, str]:
    out = kafka_tool(
        "kafka-configs", "--describe", "--entity-type", entity_type, "--entity-name", name
    ).stdout
    return dict(re.findall(r"^\s+(\S+?)=(\S*) sensitive=", out, re.M))


THROTTLE_KEYS = {
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "leader.replication.throttled.replicas",
    "follower.replication.throttled.replicas",
}


def _throttles(entity_type: str, name: str) -> dict[str, str]:
    return {k: v for k, v in _configs(entity_type, name).items() if k in THROTTLE_KEYS}


def _execute(client, plan: dict, throttle: int | None):
    return client.post(
        URL, {"plan": plan, "throttle_bytes_per_s": throttle, "reason": "test"}, format="json"
    )


def test_a_throttled_move_sets_the_clis_throttles_completes_and_removes_only_its_own(
    admin_client_api, loaded_topic, tmp_path
):
    other = f"move-other-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(other, 1, 1, {})])
    kafka_tool(
        "kafka-configs",
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        other,
        "--add-config",
        "leader.replication.throttled.replicas=0:1",
    )
    before = _replicas(loaded_topic)
    plan = _plan_elsewhere(loaded_topic)
    response = _execute(admin_client_api, plan, 10240)
    assert response.status_code == 201, response.content
    moved = response.json()
    assert moved["state"] == "running"

    # Exactly what the tool sets: the sources in the leader list, the new replicas in the
    # follower list, sorted as strings; both rates on every broker of the move.
    leader = ",".join(sorted(f"{p}:{r[0]}" for p, r in before.items()))
    follower = ",".join(sorted(f"{p}:{r[0] % 3 + 1}" for p, r in before.items()))
    assert _throttles("topics", loaded_topic) == {
        "leader.replication.throttled.replicas": leader,
        "follower.replication.throttled.replicas": follower,
    }
    involved = {r[0] for r in before.values()} | {r[0] % 3 + 1 for r in before.values()}
    for broker in involved:
        assert _throttles("brokers", str(broker)) == {
            "leader.replication.throttled.rate": "10240",
            "follower.replication.throttled.rate": "10240",
        }
    detail = admin_client_api.get(f"{URL}/{moved['id']}").json()
    assert detail["bytes_total"] >= 2 * RECORDS * RECORD
    assert any(p["state"] == "moving" for p in detail["partitions"])

    # Faster now, then done: the throttles go, the hand-set one on the other topic stays.
    patched = admin_client_api.patch(
        f"{URL}/{moved['id']}", {"throttle_bytes_per_s": 100 * 1024 * 1024}, format="json"
    )
    assert patched.status_code == 200, patched.content
    done = wait_for(
        lambda: (
            (d := admin_client_api.get(f"{URL}/{moved['id']}").json())["state"] != "running" and d
        ),
        timeout=90,
        what="the reassignment to complete",
    )
    assert done["state"] == "completed", done
    assert all(p["state"] == "done" for p in done["partitions"])
    assert done["bytes_copied"] == done["bytes_total"]
    assert _throttles("topics", loaded_topic) == {}
    for broker in involved:
        assert _throttles("brokers", str(broker)) == {}
    assert _throttles("topics", other) == {"leader.replication.throttled.replicas": "0:1"}
    assert _replicas(loaded_topic) == {p["partition"]: p["replicas"] for p in plan["partitions"]}
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan))
    verify = kafka_tool(
        "kafka-reassign-partitions", "--verify", "--reassignment-json-file", str(plan_file)
    ).stdout
    for p in plan["partitions"]:
        assert f"Reassignment of partition {loaded_topic}-{p['partition']} is completed." in verify


def test_cancel_keeps_the_old_replicas_and_a_moving_partition_is_refused(
    admin_client_api, loaded_topic
):
    before = _replicas(loaded_topic)
    plan = _plan_elsewhere(loaded_topic)
    response = _execute(admin_client_api, plan, 1024)  # 2 MiB left at 1 KiB/s: half an hour
    assert response.status_code == 201, response.content
    moved = response.json()

    again = _execute(admin_client_api, plan, 1024)
    assert_error(again, 409, "reassignment_in_progress")

    cancelled = admin_client_api.post(f"{URL}/{moved['id']}/cancel")
    assert cancelled.status_code == 200, cancelled.content
    assert cancelled.json()["state"] == "cancelled"
    assert wait_for(lambda: _replicas(loaded_topic) == before, 30, "the old replicas back")
    assert _throttles("topics", loaded_topic) == {}
    listed = admin_client_api.get(URL).json()
    assert not [m for m in listed["in_kafka"] if m["topic"] == loaded_topic]
    assert listed["reassignments"][0]["id"] == moved["id"]
    assert_error(admin_client_api.post(f"{URL}/{moved['id']}/cancel"), 409, "not_running")


@pytest.mark.parametrize(
    "throttle, plan_change, status, field",
    [
        (0, None, 400, "throttle_bytes_per_s"),
        (1024, "unknown-broker", 400, "plan"),
    ],
    ids=["zero-throttle", "unknown-broker"],
)
def test_refusals_change_nothing(
    admin_client_api, loaded_topic, throttle, plan_change, status, field
):
    before = _replicas(loaded_topic)
    plan = _plan_elsewhere(loaded_topic)
    if plan_change == "unknown-broker":
        plan["partitions"][0]["replicas"] = [9]
    error = assert_error(_execute(admin_client_api, plan, throttle), status)
    assert error["details"]["field"] == field
    assert _replicas(loaded_topic) == before
    assert _throttles("topics", loaded_topic) == {}
