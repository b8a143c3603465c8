"""`/ws/clusters/{cluster}/topics/{topic}/messages` against the real cluster, through the real
ASGI stack in this process: a scan streams its matches and ends saying why, a tail follows new
records with the filter and says what it dropped over its rate, bad frames are answered and
leave the socket open, cancel stops."""

from __future__ import annotations

import asyncio
import uuid

import orjson
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from console.kafka import dev
from tests.stack import cluster_client

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]


@pytest.fixture
def token(viewer_client, settings) -> str:
    settings.CHANNEL_LAYERS = IN_MEMORY
    return Token.objects.get(user=viewer_client.user).key


@pytest.fixture
def topic(stack) -> str:
    name = f"it-ws-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(name, 2, 3, {})])
    _produce(name, range(30))
    return name


def _produce(topic: str, numbers) -> None:
    producer = dev.make_producer(cluster_client())
    for i in numbers:
        producer.produce(topic, value=orjson.dumps({"i": i}), partition=i % 2)
    assert producer.flush(30) == 0


async def _open(topic: str, token: str) -> WebsocketCommunicator:
    from project.asgi import application

    socket = WebsocketCommunicator(
        application, f"/ws/clusters/local/topics/{topic}/messages?token={token}", headers=HEADERS
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    return socket


async def _until(socket: WebsocketCommunicator, kind: str, timeout: float = 20) -> list[dict]:
    """Messages up to and including the first of type `kind`."""
    seen = []
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        seen.append(message)
        if message["type"] == kind:
            return seen


def _values(messages: list[dict]) -> list[int]:
    return [
        r["value"]["data"]["i"] for m in messages if m["type"] == "records" for r in m["records"]
    ]


async def test_a_scan_streams_its_matches_and_says_why_it_stopped(token, topic):
    socket = await _open(topic, token)
    scan = {"position": "earliest", "filter": "value.i % 3 == 0", "limit": 100}
    await socket.send_json_to({"scan": scan})
    seen = await _until(socket, "done")
    assert sorted(_values(seen)) == list(range(0, 30, 3))
    assert seen[-1]["stopped_by"] == "end"
    progress = [m for m in seen if m["type"] == "progress"]
    assert progress[-1]["scanned"] == 30 and progress[-1]["matched"] == 10

    await socket.send_json_to({"scan": {"position": "earliest", "limit": 4}})
    first = await _until(socket, "done")
    assert len(_values(first)) == 4 and first[-1]["stopped_by"] == "limit"
    await socket.send_json_to({"scan": {"cursor": first[-1]["next_cursor"], "limit": 100}})
    rest = await _until(socket, "done")
    assert sorted(_values(first) + _values(rest)) == list(range(30))  # nothing twice or lost
    await socket.disconnect()


async def test_a_tail_follows_new_records_with_its_filter(token, topic):
    socket = await _open(topic, token)
    await socket.send_json_to({"tail": {"filter": "value.i >= 100 && value.i % 2 == 0"}})
    started = await socket.receive_json_from(timeout=20)
    assert started == {"type": "tailing", "partitions": [0, 1]}
    await sync_to_async(_produce)(topic, range(100, 106))
    seen: list[int] = []
    while len(seen) < 3:
        message = await socket.receive_json_from(timeout=20)
        assert message["type"] == "records", message
        seen += [r["value"]["data"]["i"] for r in message["records"]]
    assert sorted(seen) == [100, 102, 104]  # only new records, only the matching ones
    await socket.send_json_to({"cancel": True})
    assert await socket.receive_json_from(timeout=10) == {"type": "done", "stopped_by": "cancelled"}
    await socket.disconnect()


async def test_a_tail_over_its_rate_says_what_it_dropped(token, topic, monkeypatch):
    from messages import consumers

    monkeypatch.setattr(consumers, "TAIL_RATE", 5)
    socket = await _open(topic, token)
    await socket.send_json_to({"tail": {}})
    await socket.receive_json_from(timeout=20)  # tailing
    await sync_to_async(_produce)(topic, range(1000, 1040))
    shown, dropped = 0, 0
    while shown + dropped < 40:
        message = await socket.receive_json_from(timeout=20)
        if message["type"] == "records":
            shown += len(message["records"])
        elif message["type"] == "dropped":
            dropped += message["count"]
    assert dropped > 0 and shown + dropped == 40
    await socket.disconnect()


@pytest.mark.parametrize(
    "frame, field",
    [
        ({"scan": {"limit": 0}}, "scan.limit"),
        ({"scan": {"position": "middle"}}, "scan.position"),
        ({"scan": {"filter": "value.i =="}}, "scan.filter"),
        ({"scan": {"offset": "3", "position": "offset"}}, "scan.offset"),
        ({"tail": {"partition": [7]}}, "tail.partition"),
        ({"bogus": 1}, "bogus"),
        ({"cancel": False}, "cancel"),
        ({"scan": {}, "cancel": True}, "frame"),
    ],
)
async def test_a_bad_frame_is_answered_and_the_socket_stays_open(token, topic, frame, field):
    socket = await _open(topic, token)
    await socket.send_json_to(frame)
    error = await socket.receive_json_from(timeout=20)
    assert error["type"] == "error" and error["error"]["details"]["field"] == field, error
    await socket.send_json_to({"scan": {"position": "earliest", "limit": 1}})
    assert _values(await _until(socket, "done")) == [0]
    await socket.disconnect()


async def test_a_socket_without_credentials_is_closed_with_4401(stack, settings):
    from project.asgi import application

    settings.CHANNEL_LAYERS = IN_MEMORY
    socket = WebsocketCommunicator(
        application, "/ws/clusters/local/topics/t/messages", headers=HEADERS
    )
    await socket.connect(timeout=5)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}
    await asyncio.sleep(0)
