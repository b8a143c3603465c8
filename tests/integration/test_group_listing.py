"""The groups listing (ListGroups to every broker, through the console's wire client) against
Apache Kafka's `kafka-consumer-groups.sh --list --state` and librdkafka's listing on the same
cluster: the same groups in the same states, and the protocol type a description gives. The
lag read describes only the groups that are not Empty, trusting the listing for the others."""

from __future__ import annotations

import threading
import uuid

import pytest

from console.kafka import dev
from tests.stack import cluster_client, commit_and_wait, filled_topic, kafka_tool, wait_for

pytestmark = [pytest.mark.integration]


@pytest.fixture
def two_groups(stack):
    """An idle group that only committed offsets, and a group with a live member."""
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    topic = f"it-glist-{tag}"
    filled_topic(client, topic, 2, 3, 5)
    idle, active = f"it-glist-idle-{tag}", f"it-glist-active-{tag}"
    commit_and_wait(client, idle, {(topic, 0): 2, (topic, 1): 5})
    stop = threading.Event()

    def consume() -> None:
        consumer = dev.make_consumer(cluster_client(), active, **{"auto.offset.reset": "earliest"})
        consumer.subscribe([topic])
        while not stop.is_set():
            consumer.poll(0.2)
        consumer.close()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    yield client, idle, active
    stop.set()
    thread.join(15)


def _tool_states() -> dict[str, str]:
    run = kafka_tool("kafka-consumer-groups", "--list", "--state")
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[1:]]  # below the GROUP STATE head
    return {row[0]: row[1] for row in rows if len(row) == 2}


def test_the_listing_matches_the_tool_and_librdkafka(two_groups):
    client, idle, active = two_groups
    mine = (idle, active)

    def settled() -> dict | None:
        listed = {g.group_id: g for g in client.list_groups() if g.group_id in mine}
        return listed if len(listed) == 2 and listed[active].state == "Stable" else None

    listed = wait_for(settled, timeout=60, what="the active group to be Stable")
    assert {g: listed[g].state for g in mine} == {idle: "Empty", active: "Stable"}
    assert {g: _tool_states().get(g) for g in mine} == {idle: "Empty", active: "Stable"}

    # librdkafka's listing (what the console used before): the same groups, same simpleness.
    future = client.admin().list_consumer_groups(request_timeout=30)
    theirs = {g.group_id: g for g in future.result().valid if g.group_id in mine}
    assert {g: bool(theirs[g].is_simple_consumer_group) for g in mine} == {
        g: listed[g].is_simple for g in mine
    }

    # The protocol type is what DescribeGroups says: the lag read skips describing Empty
    # groups and shows the listing's instead.
    described = client.describe_groups(list(mine))
    assert {g: listed[g].protocol_type for g in mine} == {
        g: described[g].protocol_type for g in mine
    }
    assert listed[idle].protocol_type == "" and listed[active].protocol_type == "consumer"
