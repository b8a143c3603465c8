"""Reassignments carried to their end by the worker's watcher (`watcher.settle_all`, as the
Celery worker's thread runs it), on the real cluster and checked with Apache Kafka's tools:
progress pushed over the socket while it moves and when it ends; a replication factor raised
then lowered, each plan the console generated accepted by `kafka-reassign-partitions.sh
--verify` with the preferred leader kept first; a broker stopped mid-move does not lose the
reassignment, which completes and clears every throttle once the broker is back."""

from __future__ import annotations

import json
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from console.kafka import dev
from reassign import watcher
from tests.reassignments import URL, execute, load_topic, plan_elsewhere, replicas, throttles
from tests.stack import broker, cluster_client, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.restarts_brokers]

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
FAST = 100 * 1024 * 1024


def _settled(client, reassignment_id: int, timeout: float = 90) -> dict:
    """Run the watcher's pass until the reassignment has ended; its final detail."""

    def ended():
        watcher.settle_all()
        detail = client.get(f"{URL}/{reassignment_id}").json()
        return detail["state"] != "running" and detail

    return wait_for(ended, timeout=timeout, what=f"reassignment {reassignment_id} to end")


def _verify(tmp_path, plan: dict) -> str:
    path = tmp_path / f"plan-{uuid.uuid4().hex[:6]}.json"
    path.write_text(json.dumps(plan))
    return kafka_tool(
        "kafka-reassign-partitions", "--verify", "--reassignment-json-file", str(path)
    ).stdout


@pytest.mark.django_db
def test_replication_factor_raised_then_lowered_keeps_the_preferred_leader(
    admin_client_api, stack, tmp_path
):
    topic = f"rf-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(topic, 3, 1, {})])
    producer = dev.make_producer(client)
    for i in range(300):
        producer.produce(topic, value=b"x" * 100, partition=i % 3)
    assert producer.flush(30) == 0
    first = {p: r[0] for p, r in replicas(topic).items()}

    for factor in (3, 1):
        plan = admin_client_api.post(
            f"{URL}/plan", {"topic": topic, "replication_factor": factor}, format="json"
        )
        assert plan.status_code == 200, plan.content
        proposed = plan.json()["proposed"]
        started = execute(admin_client_api, proposed, None)
        assert started.status_code == 201, started.content
        done = _settled(admin_client_api, started.json()["id"])
        assert done["state"] == "completed", done
        now = replicas(topic)
        assert {p: len(r) for p, r in now.items()} == dict.fromkeys(first, factor)
        assert {p: r[0] for p, r in now.items()} == first  # the preferred leader kept
        assert now == {p["partition"]: p["replicas"] for p in proposed["partitions"]}
        verify = _verify(tmp_path, proposed)
        for p in first:
            assert f"Reassignment of partition {topic}-{p} is completed." in verify


@pytest.mark.django_db
def test_a_broker_stopped_mid_move_does_not_lose_the_reassignment(admin_client_api, stack):
    topic = load_topic()
    plan = plan_elsewhere(topic)
    started = execute(admin_client_api, plan, 10240)  # minutes at 10 KiB/s: still moving
    assert started.status_code == 201, started.content
    moved = started.json()
    victim = plan["partitions"][0]["replicas"][0]  # gains partition 0's new replica
    broker("stop-broker", victim)
    try:
        time.sleep(3)
        watcher.settle_all()
        during = admin_client_api.get(f"{URL}/{moved['id']}").json()
        assert during["state"] == "running", during
        assert during["partitions"][0]["state"] == "moving"
        listed = admin_client_api.get(URL).json()["in_kafka"]
        assert (topic, 0) in {(m["topic"], m["partition"]) for m in listed}
        # A plan onto the stopped broker is refused, naming it.
        other = f"onto-down-{uuid.uuid4().hex[:8]}"
        dev.create_topics(cluster_client(), [(other, 1, 1, {})])
        onto = {
            "version": 1,
            "partitions": [{"topic": other, "partition": 0, "replicas": [victim]}],
        }
        refused = admin_client_api.post(f"{URL}/plan", {"plan": onto}, format="json")
        assert refused.status_code == 400, refused.content
        assert refused.json()["error"]["details"]["field"] == "plan"
        assert f"broker id {victim}" in refused.json()["error"]["message"]
    finally:
        broker("start-broker", victim)
    wait_for(
        lambda: (
            admin_client_api.patch(
                f"{URL}/{moved['id']}", {"throttle_bytes_per_s": FAST}, format="json"
            ).status_code
            == 200
        ),
        timeout=60,
        what=f"broker {victim} to take the new throttle",
    )
    done = _settled(admin_client_api, moved["id"], timeout=120)
    assert done["state"] == "completed", done
    assert replicas(topic) == {p["partition"]: p["replicas"] for p in plan["partitions"]}
    assert throttles("topics", topic) == {}
    for b in done["throttled_brokers"]:
        assert throttles("brokers", str(b)) == {}, b


@pytest.mark.django_db(transaction=True)
async def test_progress_is_pushed_while_it_moves_and_when_it_ends(admin_client_api, settings):
    from project.asgi import application

    settings.CHANNEL_LAYERS = IN_MEMORY
    token = await sync_to_async(lambda: Token.objects.get(user=admin_client_api.user).key)()
    topic = await sync_to_async(load_topic)()
    plan = await sync_to_async(plan_elsewhere)(topic)
    started = await sync_to_async(execute)(admin_client_api, plan, 10240)
    assert started.status_code == 201, started.content
    rid = started.json()["id"]
    socket = WebsocketCommunicator(
        application, f"/ws/clusters/local/reassignments/{rid}?token={token}", headers=HEADERS
    )
    assert (await socket.connect(timeout=5))[0]
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    first = await socket.receive_json_from(timeout=15)
    assert (first["type"], first["id"], first["state"]) == ("reassignment", rid, "running")
    assert any(p["state"] == "moving" and p["adding"] for p in first["partitions"])

    # A change through the API reaches the socket at once, not at the watcher's next pass.
    patch = sync_to_async(admin_client_api.patch)
    changed = await patch(f"{URL}/{rid}", {"throttle_bytes_per_s": FAST}, format="json")
    assert changed.status_code == 200, changed.content
    pushed = await socket.receive_json_from(timeout=15)
    assert pushed["throttle_bytes_per_s"] == FAST
    # Then each watcher pass pushes, the last one with the end.
    deadline = time.monotonic() + 90
    last = pushed
    while last["state"] == "running":
        assert time.monotonic() < deadline, last
        await sync_to_async(watcher.settle_all)()
        last = await socket.receive_json_from(timeout=15)
        assert last["id"] == rid
    assert last["state"] == "completed", (last["error"], last["partitions"])
    assert last["bytes_copied"] == last["bytes_total"] > 0
    assert {p["state"] for p in last["partitions"]} == {"done"}
    await socket.disconnect()
