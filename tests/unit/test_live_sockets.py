"""The live sockets through the real ASGI stack (auth, routing), with an in-memory channel
layer: who may connect, subscriptions, and what a sampler's publish delivers."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from rest_framework.authtoken.models import Token

from console.roles import grant_role
from groups import lag_push

pytestmark = [pytest.mark.django_db(transaction=True)]

HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _evaluation(group: str, lag: int, state: str = "Stable") -> dict:
    return {
        "group_id": group, "ts": 1_700_000_000.0, "state": state, "member_count": 1,
        "status": "WARN", "total_lag": lag, "max_lag": lag, "max_lag_seconds": 3.0,
        "catch_up_seconds": None, "retention_risk": "none", "topics": {},
        "partitions": [{"topic": "t", "partition": 0, "committed_offset": 1,
                        "log_end_offset": 1 + lag, "lag": lag, "lag_seconds": 3.0,
                        "status": "WARN", "retention_risk": "none", "member_id": "m"}],
    }  # fmt: skip


@sync_to_async
def _token(django_user_model, name: str, role: str | None) -> str:
    user = django_user_model.objects.create_user(username=name, password="pw")
    if role:
        grant_role(user, role)
    return Token.objects.create(user=user).key


async def _socket(path: str) -> WebsocketCommunicator:
    from console.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def _refused(path: str) -> int:
    """The close code of a handshake the server refuses."""
    from console.asgi import application

    connected, code = await WebsocketCommunicator(application, path, headers=HEADERS).connect(5)
    assert not connected
    return code


@pytest.mark.parametrize("kind", ["lag", "metadata"])
async def test_sockets_need_credentials_and_the_viewer_role(django_user_model, kind):
    assert await _refused(f"/ws/clusters/local/{kind}") == 4401
    token = await _token(django_user_model, f"norole-{kind}", None)
    assert await _refused(f"/ws/clusters/local/{kind}?token={token}") == 4403
    assert await _refused(f"/ws/clusters/local/{kind}?token=not-a-token") == 4401


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
async def test_a_subscribed_socket_gets_its_groups_and_nothing_else(django_user_model):
    token = await _token(django_user_model, "viewer-sub", "viewer")
    mine = await _socket(f"/ws/clusters/local/lag?token={token}")
    everything = await _socket(f"/ws/clusters/local/lag?token={token}")
    await mine.send_json_to({"subscribe": {"groups": ["g1"]}})
    await everything.send_json_to({"subscribe": {"all": True}})
    for socket in (mine, everything):
        assert (await socket.receive_json_from(timeout=5)) == {"type": "status", "live": True}
        # Then the stored evaluations, if the store has any for this cluster: skip them.
        while not await socket.receive_nothing(timeout=0.5):
            await socket.receive_json_from(timeout=1)

    previous = {"g1": _evaluation("g1", 1, "Empty")}
    current = {"g1": _evaluation("g1", 5), "g2": _evaluation("g2", 7)}
    sends = await sync_to_async(lag_push.publish_lag)("local", current, previous)
    assert sends == 3  # one per consumer group and one for the cluster

    got = [await mine.receive_json_from(timeout=5) for _ in range(2)]
    assert [m["type"] for m in got] == ["group_state", "lag"]
    assert got[0]["state"] == "Stable" and got[0]["previous_state"] == "Empty"
    assert got[1]["group_id"] == "g1" and got[1]["total_lag"] == 5
    assert got[1]["partitions"][0]["lag"] == 5 and got[1]["ts"].startswith("2023-11-14")
    assert await mine.receive_nothing(timeout=0.5)  # nothing of g2

    seen = [await everything.receive_json_from(timeout=5) for _ in range(4)]
    assert sorted((m["type"], m["group_id"]) for m in seen) == [
        ("group_state", "g1"), ("group_state", "g2"), ("lag", "g1"), ("lag", "g2"),
    ]  # fmt: skip
    assert await everything.receive_nothing(timeout=0.5)
    for socket in (mine, everything):
        await socket.disconnect()


@override_settings(CHANNEL_LAYERS=IN_MEMORY)
async def test_a_bad_subscription_is_answered_and_the_socket_stays(django_user_model):
    token = await _token(django_user_model, "viewer-bad", "viewer")
    socket = await _socket(f"/ws/clusters/local/lag?token={token}")
    for bad in ({"subscribe": {"groups": "g1"}}, {"subscribe": {"groups": [1]}}, {"hello": 1}):
        await socket.send_json_to(bad)
        answer = await socket.receive_json_from(timeout=5)
        assert answer["type"] == "error" and answer["error"]["code"] == "bad_request"
    await socket.send_json_to({"subscribe": {"groups": ["g1"]}})
    assert (await socket.receive_json_from(timeout=5))["type"] == "status"
    await socket.disconnect()
