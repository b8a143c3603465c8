"""`/ws/clusters/{cluster}/reassignments/{id}`: admins only; the progress on connect, then what
the watcher or a view publishes (real ASGI stack and Channels, in-memory layer). What Kafka
says is replaced by a fixed observation here (no Kafka in this tier); the integration test of
a real move listens to the same socket."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from console.kafka.types import PartitionMeta, Reassigning
from reassign import live, progress
from reassign.models import Reassignment

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
sockets = pytest.mark.django_db(transaction=True)

PLAN = {
    "version": 1,
    "partitions": [{"topic": "t", "partition": 0, "replicas": [2], "log_dirs": ["any"]}],
}
BEFORE = {
    "version": 1,
    "partitions": [{"topic": "t", "partition": 0, "replicas": [1], "log_dirs": ["any"]}],
}


@pytest.fixture
def seen(monkeypatch):
    """Kafka's answer, as `progress.observe` would read it: t-0 copying to broker 2."""
    observed = progress.Observed(
        moving={("t", 0): Reassigning([2, 1], [2], [1])},
        partitions={("t", 0): PartitionMeta(0, 1, [2, 1], [1])},
        sizes={("t", 0, 2): 400},
    )
    monkeypatch.setattr(progress, "observe", lambda cfg, r: observed)
    return observed


def _token(client, settings) -> str:
    settings.CHANNEL_LAYERS = IN_MEMORY
    return Token.objects.get(user=client.user).key


async def _open(path: str) -> WebsocketCommunicator:
    from project.asgi import application

    socket = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


def _create() -> Reassignment:
    return Reassignment.objects.create(
        cluster="local",
        plan=PLAN,
        rollback=BEFORE,
        bytes_total={"t-0": 1000},
        throttle_bytes_per_s=100,
        created_by="ada-admin",
    )


@sockets
async def test_the_progress_on_connect_then_each_publish(admin_client_api, settings, seen):
    token = await sync_to_async(_token)(admin_client_api, settings)
    r = await sync_to_async(_create)()
    socket = await _open(f"/ws/clusters/local/reassignments/{r.pk}?token={token}")
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    first = await socket.receive_json_from(timeout=5)
    assert (first["type"], first["id"], first["state"]) == ("reassignment", r.pk, "running")
    row = first["partitions"][0]
    assert (row["state"], row["adding"], row["bytes_copied"], first["seconds_left"]) == (
        "moving",
        [2],
        400,
        6,  # 600 bytes left at 100 bytes/s
    )

    r.state = Reassignment.State.COMPLETED
    assert await sync_to_async(live.publish)(progress.describe(r, progress.Observed()))
    pushed = await socket.receive_json_from(timeout=5)
    assert (pushed["state"], pushed["partitions"][0]["state"]) == ("completed", "done")
    await socket.send_to(text_data="junk")  # ignored, the socket stays
    assert await socket.receive_nothing(timeout=0.3)
    # Another reassignment's progress does not reach this socket.
    other = await sync_to_async(_create)()
    await sync_to_async(live.publish)(progress.describe(other, seen))
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


@sockets
@pytest.mark.parametrize(
    "who, path, code",
    [
        pytest.param("admin", "/ws/clusters/local/reassignments/{id}", 4401, id="no-token"),
        pytest.param(
            "operator", "/ws/clusters/local/reassignments/{id}?token={t}", 4403, id="operator"
        ),
        pytest.param(
            "admin", "/ws/clusters/local/reassignments/999999?token={t}", 4404, id="unknown-id"
        ),
        pytest.param(
            "admin", "/ws/clusters/nope/reassignments/{id}?token={t}", 4404, id="unknown-cluster"
        ),
    ],
)
async def test_strangers_non_admins_and_unknown_ones_are_closed(
    admin_client_api, operator_client, settings, seen, who, path, code
):
    client = admin_client_api if who == "admin" else operator_client
    token = await sync_to_async(_token)(client, settings)
    r = await sync_to_async(_create)()
    socket = await _open(path.format(id=r.pk, t=token))
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": code}


@pytest.mark.parametrize("watched, built", [(set(), False), ({"reassign.7"}, True), (None, True)])
def test_the_watcher_reads_progress_only_for_a_watched_reassignment(
    monkeypatch, settings, watched, built
):
    settings.CHANNEL_LAYERS = IN_MEMORY
    from console import push

    async def occupied(layer, names):
        return watched

    monkeypatch.setattr(push, "occupied", occupied)
    calls = []

    def detail():
        calls.append(1)
        return {"id": 7, "state": "running"}

    sent = live.publish_if_watched(7, detail)
    assert (bool(calls), sent) == (built, int(built))
