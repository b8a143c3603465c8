"""Executing reassignments on the real cluster, checked with Apache Kafka's own tools: the
throttles kafka-configs.sh shows during a move are exactly those kafka-reassign-partitions.sh
sets, none of them after completion (a throttle set by hand on another topic stays), the final
replicas are the plan's in kafka-topics.sh --describe and --verify calls it completed; cancel
leaves the old replicas; a partition already moving is refused."""

from __future__ import annotations

import json
import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.reassignments import (
    RECORD,
    RECORDS,
    URL,
    execute,
    load_topic,
    plan_elsewhere,
    replicas,
    throttles,
)
from tests.stack import cluster_client, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture
def loaded_topic(stack) -> str:
    return load_topic()


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
    before = replicas(loaded_topic)
    plan = plan_elsewhere(loaded_topic)
    response = execute(admin_client_api, plan, 10240)
    assert response.status_code == 201, response.content
    moved = response.json()
    assert moved["state"] == "running"

    # Exactly what the tool sets: the sources in the leader list, the new replicas in the
    # follower list, sorted as strings; both rates on every broker of the move.
    leader = ",".join(sorted(f"{p}:{r[0]}" for p, r in before.items()))
    follower = ",".join(sorted(f"{p}:{r[0] % 3 + 1}" for p, r in before.items()))
    assert throttles("topics", loaded_topic) == {
        "leader.replication.throttled.replicas": leader,
        "follower.replication.throttled.replicas": follower,
    }
    involved = {r[0] for r in before.values()} | {r[0] % 3 + 1 for r in before.values()}
    for broker in involved:
        assert throttles("brokers", str(broker)) == {
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
    assert throttles("topics", loaded_topic) == {}
    for broker in involved:
        assert throttles("brokers", str(broker)) == {}
    assert throttles("topics", other) == {"leader.replication.throttled.replicas": "0:1"}
    assert replicas(loaded_topic) == {p["partition"]: p["replicas"] for p in plan["partitions"]}
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
    before = replicas(loaded_topic)
    plan = plan_elsewhere(loaded_topic)
    response = execute(admin_client_api, plan, 1024)  # 2 MiB left at 1 KiB/s: half an hour
    assert response.status_code == 201, response.content
    moved = response.json()

    again = execute(admin_client_api, plan, 1024)
    assert_error(again, 409, "reassignment_in_progress")

    cancelled = admin_client_api.post(f"{URL}/{moved['id']}/cancel")
    assert cancelled.status_code == 200, cancelled.content
    assert cancelled.json()["state"] == "cancelled"
    assert wait_for(lambda: replicas(loaded_topic) == before, 30, "the old replicas back")
    assert throttles("topics", loaded_topic) == {}
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
    before = replicas(loaded_topic)
    plan = plan_elsewhere(loaded_topic)
    if plan_change == "unknown-broker":
        plan["partitions"][0]["replicas"] = [9]
    error = assert_error(execute(admin_client_api, plan, throttle), status)
    assert error["details"]["field"] == field
    assert replicas(loaded_topic) == before
    assert throttles("topics", loaded_topic) == {}
