"""Live push without Kafka: the lag and metadata messages (pure), the sampler's publish when
the channel layer is down, and the sockets through the real ASGI stack (auth, routing) with
an in-memory channel layer."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from dataclasses import replace

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured
from rest_framework.authtoken.models import Token

from console import envvars, push, ws_auth
from console import metadata_push as topics_live
from console.kafka.types import Broker, ClusterDescription, PartitionMeta, TopicMeta
from console.metadata import ClusterSnapshot, SnapshotCache, cache
from groups import consumers
from groups.lag import live
from groups.lag import store as lag_store

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Nothing listens on port 1: every call fails at once (connection refused).
REDIS_DOWN = {
    "default": {
        "BACKEND": "console.channel_layer.PubSubChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
    }
}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
TS = 1_700_000_000.5  # 2023-11-14T22:13:20.500+00:00


def evaluation(group: str, lag: int, state: str = "Stable", members: int = 1) -> dict:
    return {
        "group_id": group, "ts": TS, "state": state, "member_count": members,
        "status": "WARN", "total_lag": lag, "max_lag": lag, "max_lag_seconds": 3.0,
        "catch_up_seconds": None, "retention_risk": "none", "retention_reason": None,
        "topics": {"t": {"lag": lag, "max_lag_seconds": 3.0, "write_per_s": 1.0,
                         "consume_per_s": 0.5, "catch_up_seconds": None,
                         "retention_risk": "none"}},
        "partitions": [{"topic": "t", "partition": 0, "committed_offset": 1,
                        "log_start_offset": 0, "log_end_offset": 1 + lag, "lag": lag,
                        "lag_seconds": 3.0, "lag_seconds_method": "timestamp",
                        "status": "WARN", "retention_risk": "none",
                        "member_id": "m-1", "client_id": "c", "host": "/10.0.0.1"}],
    }  # fmt: skip


# --- channel names and the lag message ------------------------------------------------------


def test_channel_names_are_short_ascii_whatever_the_names():
    names = {live.cluster_channel("local")}
    for group in ["g", "g ü/?*", "\ud800", "x" * 32767, ""]:
        name = live.group_channel("local", group)
        assert name.isascii() and len(name) < 100 and name.startswith("lag.")
        names.add(name)
    assert len(names) == 6  # distinct per group, and none is the cluster's
    assert live.group_channel("local", "g") == live.group_channel("local", "g")
    assert live.group_channel("other", "g") != live.group_channel("local", "g")
    assert live.cluster_channel("local") != live.cluster_channel("other")


def test_lag_message_is_the_api_shape():
    message = live.lag_message(evaluation("g1", 5))
    assert message == {
        "type": "lag", "group_id": "g1", "ts": "2023-11-14T22:13:20.500+00:00",
        "total_lag": 5, "max_lag": 5, "max_lag_seconds": 3.0, "status": "WARN",
        "state": "Stable", "member_count": 1, "catch_up_seconds": None,
        "retention_risk": "none", "retention_reason": None,
        "topics": evaluation("g1", 5)["topics"],
        "partitions": [{"topic": "t", "partition": 0, "committed_offset": 1,
                        "log_end_offset": 6, "lag": 5, "lag_seconds": 3.0,
                        "status": "WARN", "retention_risk": "none"}],
    }  # fmt: skip


def test_lag_message_tolerates_unknowns():
    message = live.lag_message({"group_id": "g", "ts": None, "partitions": [{"topic": "t"}, 3]})
    assert message["ts"] is None and message["total_lag"] is None and message["topics"] == {}
    assert message["partitions"] == [
        {k: ("t" if k == "topic" else None) for k in live.PARTITION_FIELDS}
    ]
    assert [live.iso(v) for v in (None, True, "1", 1e20)] == [None] * 4


# --- group_state ----------------------------------------------------------------------------


def test_no_state_message_when_state_and_member_count_hold():
    assert live.state_changes({"g": evaluation("g", 1)}, {"g": evaluation("g", 9)}) == []


def test_state_messages_for_changed_appeared_and_gone_groups():
    previous = {"g1": evaluation("g1", 1, "Empty", 0), "g2": evaluation("g2", 1, "Stable", 1),
                "gone": evaluation("gone", 1, "Stable", 2)}  # fmt: skip
    current = {"g1": evaluation("g1", 1, "Stable", 1), "g2": evaluation("g2", 1, "Stable", 2),
               "new": evaluation("new", 1, "Stable", 1)}  # fmt: skip
    got = {m["group_id"]: m for m in live.state_changes(previous, current)}
    assert set(got) == {"g1", "g2", "new", "gone"}
    assert got["g1"] == {
        "type": "group_state", "group_id": "g1", "ts": "2023-11-14T22:13:20.500+00:00",
        "state": "Stable", "member_count": 1, "members": ["m-1"], "previous_state": "Empty",
    }  # fmt: skip
    # Two members, one named on the partitions: the list would be partial, so it is left out.
    assert "members" not in got["g2"] and got["g2"]["member_count"] == 2
    assert got["new"]["previous_state"] is None and got["new"]["state"] == "Stable"
    assert got["gone"] == {
        "type": "group_state", "group_id": "gone", "ts": "2023-11-14T22:13:20.500+00:00",
        "state": "Dead", "member_count": 0, "members": [], "previous_state": "Stable",
    }  # fmt: skip


def test_pass_events_one_per_group_then_the_batch():
    previous = {"g1": evaluation("g1", 1, "Empty", 0), "gone": evaluation("gone", 1)}
    current = {"g1": evaluation("g1", 5), "g2": evaluation("g2", 7)}
    events = live.pass_events("local", current, previous)
    assert [name for name, _ in events] == [
        live.group_channel("local", "g1"),
        live.group_channel("local", "g2"),
        live.group_channel("local", "gone"),
        live.cluster_channel("local"),
    ]
    g1 = events[0][1]
    assert g1["type"] == "lag.sample" and [m["type"] for m in live.decode(g1)] == [
        "group_state",
        "lag",
    ]
    assert [m["type"] for m in live.decode(events[1][1])] == ["group_state", "lag"]  # appeared
    assert [m["state"] for m in live.decode(events[2][1])] == ["Dead"]
    batch = events[3][1]
    assert batch["type"] == "lag.batch" and len(batch["messages"]) == 5
    # The first pass has nothing to compare with: lag only.
    first = live.pass_events("local", current, None)
    assert [m["type"] for _, e in first[:-1] for m in live.decode(e)] == ["lag", "lag"]
    assert live.pass_events("local", {}, {}) == []


# --- publish never raises -------------------------------------------------------------------


class BrokenLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise ConnectionError("redis is down")


class SlowLayer:
    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.sleep(10)


def test_publish_lag_survives_a_broken_or_stuck_layer(monkeypatch, caplog):
    current = {"g1": evaluation("g1", 5)}
    monkeypatch.setattr(push, "get_channel_layer", lambda: BrokenLayer())
    assert live.publish_lag("local", current, None) == 0
    assert "live lag not pushed" in caplog.text
    monkeypatch.setattr(push, "get_channel_layer", lambda: SlowLayer())
    monkeypatch.setattr(push, "SEND_TIMEOUT_S", 0.2)
    started = time.monotonic()
    assert live.publish_lag("local", current, None) == 0
    assert time.monotonic() - started < 3
    monkeypatch.setattr(push, "get_channel_layer", lambda: 1 / 0)
    assert live.publish_lag("local", current, None) == 0
    assert live.publish_lag("local", {"g": {"partitions": "junk"}}, {"x": {}}) == 0


def test_publish_with_redis_down_returns_nothing_sent(settings):
    settings.CHANNEL_LAYERS = REDIS_DOWN
    started = time.monotonic()
    assert live.publish_lag("local", {"g1": evaluation("g1", 5)}, None) == 0
    assert topics_live.publish_metadata("local", {"type": "metadata"}) is False
    assert time.monotonic() - started < 15


# --- metadata -------------------------------------------------------------------------------


def snapshot(
    brokers=(1, 2, 3), controller=1, topics=None, leader=1, isr=(1, 2, 3)
) -> ClusterSnapshot:
    topics = {"t": 2} if topics is None else topics
    return ClusterSnapshot(
        time.monotonic(),
        ClusterDescription("cid", controller, [Broker(b, f"b{b}", 9092, None) for b in brokers]),
        {
            name: TopicMeta(
                name, False, [PartitionMeta(p, leader, [1, 2, 3], list(isr)) for p in range(n)]
            )
            for name, n in topics.items()
        },
    )


def test_no_metadata_message_without_a_change_or_a_previous_snapshot():
    assert topics_live.metadata_changes(None, snapshot()) is None
    assert topics_live.metadata_changes(snapshot(), snapshot()) is None
    # ISR order means nothing.
    assert topics_live.metadata_changes(snapshot(isr=(1, 2, 3)), snapshot(isr=(3, 1, 2))) is None


def test_metadata_message_when_a_broker_leaves_and_leaders_move():
    message = topics_live.metadata_changes(
        snapshot(), snapshot(brokers=(1, 2), leader=2, isr=(1, 2)), now=TS
    )
    assert message == {
        "type": "metadata",
        "ts": "2023-11-14T22:13:20.500+00:00",
        "brokers": [
            {"id": 1, "host": "b1", "port": 9092, "rack": None, "is_controller": True},
            {"id": 2, "host": "b2", "port": 9092, "rack": None, "is_controller": False},
        ],
        "changes": [
            {"topic": "t", "partition": 0, "leader": 2, "isr": [1, 2]},
            {"topic": "t", "partition": 1, "leader": 2, "isr": [1, 2]},
        ],
        "topics_added": [],
        "topics_removed": [],
    }


@pytest.mark.parametrize(
    "before, after, expect",
    [
        (snapshot(brokers=(1, 2)), snapshot(), {"brokers": 3, "changes": 0}),  # returned
        (snapshot(), snapshot(controller=2), {"brokers": 3, "changes": 0}),
        (snapshot(), snapshot(leader=None), {"changes": 2}),  # offline
        (snapshot(), snapshot(isr=(1, 3)), {"changes": 2}),
        (snapshot(), snapshot(topics={"t": 3}), {"changes": 1}),  # a partition added
        (snapshot(), snapshot(topics={"t": 2, "u": 1}), {"added": ["u"], "changes": 0}),
        (snapshot(topics={"t": 2, "u": 1}), snapshot(), {"removed": ["u"], "changes": 0}),
    ],
)
def test_metadata_message_for_each_kind_of_change(before, after, expect):
    message = topics_live.metadata_changes(before, after)
    assert message is not None and message["type"] == "metadata"
    assert len(message["changes"]) == expect["changes"]
    assert message["topics_added"] == expect.get("added", [])
    assert message["topics_removed"] == expect.get("removed", [])
    if "brokers" in expect:
        assert len(message["brokers"]) == expect["brokers"]
        controller = after.description.controller_id
        assert [b["id"] for b in message["brokers"] if b["is_controller"]] == [controller]


# --- sockets (real ASGI stack, in-memory layer) ---------------------------------------------


@pytest.fixture
def layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY
    settings.LAG_SAMPLE_SECONDS = 5.0


@pytest.fixture
def stored(monkeypatch) -> dict:
    """What `lag_store.read_latest` returns for any cluster (no Redis in unit tests)."""
    latest: dict = {}
    monkeypatch.setattr(lag_store, "read_latest", lambda cluster: dict(latest))
    return latest


def _token(client) -> str:
    return Token.objects.get(user=client.user).key


@pytest.fixture
def viewer_token(viewer_client) -> str:
    return _token(viewer_client)


@pytest.fixture
def norole_token(norole_client) -> str:
    return _token(norole_client)


async def _open(path: str) -> tuple[WebsocketCommunicator, bool, int | None]:
    from project.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def _socket(path: str) -> WebsocketCommunicator:
    communicator, connected, _ = await _open(path)
    assert connected
    return communicator


async def _subscribe(socket: WebsocketCommunicator, subscribe: dict) -> list[dict]:
    """Subscribe; the status message and the stored evaluations that follow it."""
    await socket.send_json_to({"subscribe": subscribe})
    got = [await socket.receive_json_from(timeout=5)]
    while not await socket.receive_nothing(timeout=0.2):
        got.append(await socket.receive_json_from(timeout=1))
    return got


sockets = pytest.mark.django_db(transaction=True)


@sockets
@pytest.mark.parametrize(
    "path, code",
    [
        pytest.param("/ws/clusters/local/{kind}", 4401, id="no-token"),
        # No hint about clusters before auth.
        pytest.param("/ws/clusters/nope/{kind}", 4401, id="no-token-unknown-cluster"),
        pytest.param("/ws/clusters/local/{kind}?token=not-a-token", 4401, id="bad-token"),
        pytest.param("/ws/clusters/local/{kind}?token={norole}", 4403, id="no-role"),
        pytest.param("/ws/clusters/nope/{kind}?token={viewer}", 4404, id="unknown-cluster"),
        pytest.param("/ws/clusters/local/{kind}/x?token={viewer}", 4404, id="unknown-path"),
    ],
)
@pytest.mark.parametrize("kind", ["lag", "metadata"])
async def test_sockets_need_credentials_the_viewer_role_and_a_known_cluster(
    kind, path, code, viewer_token, norole_token, layer
):
    path = path.format(kind=kind, viewer=viewer_token, norole=norole_token)
    socket, connected, _ = await _open(path)
    assert connected, path  # accepted, then closed: browsers see the code (not HTTP 403)
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": code}


@sockets
async def test_subscribers_get_their_groups_and_all_gets_the_batch(viewer_token, layer, stored):
    stored.update({"g1": evaluation("g1", 2), "g2": evaluation("g2", 3)})
    path = f"/ws/clusters/local/lag?token={viewer_token}"
    mine, other, everything = await _socket(path), await _socket(path), await _socket(path)

    got = await _subscribe(mine, {"groups": ["g1", "missing"]})
    assert got[0] == {"type": "status", "live": True, "sample_seconds": 5.0}
    assert [(m["type"], m["group_id"], m["total_lag"]) for m in got[1:]] == [("lag", "g1", 2)]
    assert len(await _subscribe(other, {"groups": ["g3"]})) == 1  # status only
    got = await _subscribe(everything, {"all": True})
    assert [m.get("group_id") for m in got] == [None, "g1", "g2"]

    previous = {"g1": evaluation("g1", 1, "Empty", 0)}
    current = {"g1": evaluation("g1", 5), "g2": evaluation("g2", 7)}
    assert await sync_to_async(live.publish_lag)("local", current, previous) == 3

    got = [await mine.receive_json_from(timeout=5) for _ in range(2)]
    assert [(m["type"], m["group_id"]) for m in got] == [("group_state", "g1"), ("lag", "g1")]
    assert got[0]["previous_state"] == "Empty" and got[1]["total_lag"] == 5
    assert await mine.receive_nothing(timeout=0.3)
    assert await other.receive_nothing(timeout=0.3)
    seen = [await everything.receive_json_from(timeout=5) for _ in range(4)]
    assert [(m["type"], m["group_id"]) for m in seen] == [
        ("group_state", "g1"), ("lag", "g1"), ("group_state", "g2"), ("lag", "g2"),
    ]  # fmt: skip
    assert await everything.receive_nothing(timeout=0.3)
    for socket in (mine, other, everything):
        await socket.disconnect()


@sockets
async def test_a_new_subscription_replaces_the_old_one(viewer_token, layer, stored):
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    await _subscribe(socket, {"all": True})
    await _subscribe(socket, {"groups": ["g2"]})
    current = {"g1": evaluation("g1", 5), "g2": evaluation("g2", 7)}
    await sync_to_async(live.publish_lag)("local", current, None)
    assert (await socket.receive_json_from(timeout=5))["group_id"] == "g2"
    assert await socket.receive_nothing(timeout=0.3)
    await _subscribe(socket, {"groups": []})  # nothing at all
    await sync_to_async(live.publish_lag)("local", current, None)
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


@sockets
async def test_many_groups_are_served_from_the_filtered_batch(viewer_token, layer, stored):
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    many = [f"g{i}" for i in range(consumers.MAX_GROUP_CHANNELS + 1)]
    await _subscribe(socket, {"groups": many})
    current = {"g0": evaluation("g0", 5), "g50": evaluation("g50", 6), "x": evaluation("x", 7)}
    assert await sync_to_async(live.publish_lag)("local", current, None) == 4
    got = [await socket.receive_json_from(timeout=5) for _ in range(2)]
    assert [m["group_id"] for m in got] == ["g0", "g50"]
    assert await socket.receive_nothing(timeout=0.3)  # not x, and not twice
    await socket.disconnect()


@sockets
@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"hello": 1}, id="unknown-key"),
        pytest.param([1], id="not-an-object"),
        pytest.param({"subscribe": {"groups": "g1"}}, id="groups-not-a-list"),
        pytest.param({"subscribe": {"groups": [1]}}, id="group-not-a-string"),
        pytest.param({"subscribe": {"groups": [""]}}, id="empty-group"),
        pytest.param({"subscribe": {"groups": ["g"] * 1001}}, id="1001-groups"),
        pytest.param({"subscribe": {"groups": ["x" * 32768]}}, id="group-over-32767-chars"),
        pytest.param({"subscribe": {"all": False}}, id="all-false"),
        pytest.param({"subscribe": {"all": True, "groups": ["g"]}}, id="all-and-groups"),
    ],
)
async def test_bad_messages_are_answered_and_the_socket_stays(viewer_token, layer, stored, bad):
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    await socket.send_json_to(bad)
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["error"]["code"] == "bad_request", bad
    assert answer["error"]["message"]
    assert (await _subscribe(socket, {"groups": ["g1"] * 1000}))[0]["live"] is True
    await socket.disconnect()


@sockets
@pytest.mark.parametrize(
    "frame",
    [
        pytest.param({"text_data": "not json"}, id="not-json"),
        pytest.param({"text_data": "[" * 100_000}, id="too-deep"),
        pytest.param({"bytes_data": b"x"}, id="binary"),
    ],
)
async def test_unreadable_frames_are_answered_and_the_socket_stays(
    viewer_token, layer, stored, frame
):
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    await socket.send_to(**frame)
    assert (await socket.receive_json_from(timeout=5))["type"] == "error"
    assert (await _subscribe(socket, {"groups": ["g1"] * 1000}))[0]["live"] is True
    await socket.disconnect()


@sockets
async def test_store_down_says_not_live_and_keeps_the_socket(viewer_token, layer, monkeypatch):
    def down(cluster: str) -> dict:
        raise lag_store.StoreUnavailable("Redis: connection refused")

    monkeypatch.setattr(lag_store, "read_latest", down)
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    status = (await _subscribe(socket, {"all": True}))[0]
    assert status["type"] == "status" and status["live"] is False and status["reason"]
    monkeypatch.setattr(lag_store, "read_latest", lambda cluster: {})
    assert (await _subscribe(socket, {"all": True}))[0]["live"] is True  # a retry
    await socket.disconnect()


@sockets
async def test_channel_layer_down_says_not_live(viewer_token, settings, stored):
    settings.CHANNEL_LAYERS = REDIS_DOWN
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    status = (await _subscribe(socket, {"groups": ["g1"]}))[0]
    assert status["live"] is False and "Redis" in status["reason"]
    await socket.disconnect()
    meta = await _socket(f"/ws/clusters/local/metadata?token={viewer_token}")
    assert (await meta.receive_json_from(timeout=15))["live"] is False
    await meta.disconnect()


@sockets
async def test_metadata_socket_gets_changes_of_its_cluster_only(viewer_token, layer):
    socket = await _socket(f"/ws/clusters/local/metadata?token={viewer_token}")
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    message = topics_live.metadata_changes(snapshot(), snapshot(brokers=(1, 2)))
    assert message is not None
    assert await sync_to_async(topics_live.publish_metadata)("other", message) is True
    assert await socket.receive_nothing(timeout=0.3)
    assert await sync_to_async(topics_live.publish_metadata)("local", message) is True
    assert await socket.receive_json_from(timeout=5) == message
    await socket.send_to(text_data="junk")  # ignored, the socket stays
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


def test_expire_before_drops_only_older_snapshots():
    snapshots = SnapshotCache()
    snapshots._snapshots["local"] = replace(snapshot(), asked_at=100.0)
    assert snapshots.expire_before("local", 100.0) is False  # as new as the push: kept
    assert snapshots.expire_before("other", 200.0) is False
    assert snapshots.expire_before("local", 100.5) is True
    assert "local" not in snapshots._snapshots


@sockets
async def test_a_metadata_push_expires_the_older_snapshot_before_the_page_hears_of_it(
    viewer_token, layer
):
    # A page refetching on the push must not be served the snapshot, still within its TTL,
    # from before the change (it would stay stale until the slow poll).
    socket = await _socket(f"/ws/clusters/local/metadata?token={viewer_token}")
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    cache._snapshots["local"] = replace(snapshot(), asked_at=time.time() - 1)
    message = topics_live.metadata_changes(snapshot(), snapshot(brokers=(1, 2)))
    assert message is not None
    sent = await sync_to_async(topics_live.publish_metadata)("local", message, time.time())
    assert sent is True
    assert await socket.receive_json_from(timeout=5) == message
    assert "local" not in cache._snapshots
    await socket.disconnect()


class FlakyLayer(InMemoryChannelLayer):
    """An in-memory layer whose receive, group_add and the sockets' probe fail while `down`
    (Redis gone); group_send keeps working, standing in for the sampler."""

    down = False

    def _check(self) -> None:
        if FlakyLayer.down:
            raise ConnectionError("Error 111 connecting to redis")

    async def receive(self, channel):
        self._check()
        return await super().receive(channel)

    async def send(self, channel, message):
        if message["type"] == "layer.back":  # the sockets' probe; group_send goes through
            self._check()
        await super().send(channel, message)

    async def group_add(self, group, channel):
        self._check()
        await super().group_add(group, channel)


@sockets
async def test_sockets_survive_a_layer_outage_and_rejoin(
    viewer_token, settings, stored, monkeypatch
):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.FlakyLayer"}}
    monkeypatch.setattr(ws_auth, "LAYER_RETRY_S", 0.05)
    monkeypatch.setattr(FlakyLayer, "down", False)
    stored["g1"] = evaluation("g1", 2)
    socket = await _socket(f"/ws/clusters/local/lag?token={viewer_token}")
    assert [m["type"] for m in await _subscribe(socket, {"groups": ["g1"]})] == ["status", "lag"]

    FlakyLayer.down = True
    layer = push.get_channel_layer()
    message = {**live.lag_message(evaluation("g1", 4)), "group_id": "g1"}
    event = {"type": "lag.sample", "messages": [live.encode(message)]}
    await layer.group_send(live.group_channel("local", "g1"), event)
    assert (await socket.receive_json_from(timeout=5))["total_lag"] == 4
    down = await socket.receive_json_from(timeout=5)  # the next receive failed
    assert down["type"] == "status" and down["live"] is False

    FlakyLayer.down = False  # Redis is back: joined again, told, and given the latest
    back = await socket.receive_json_from(timeout=5)
    assert back == {"type": "status", "live": True, "sample_seconds": 5.0}
    assert (await socket.receive_json_from(timeout=5))["total_lag"] == 2
    assert await sync_to_async(live.publish_lag)("local", {"g1": evaluation("g1", 6)}, None) == 2
    assert (await socket.receive_json_from(timeout=5))["total_lag"] == 6
    await socket.disconnect()


def test_parse_subscribe():
    assert consumers.parse_subscribe({"subscribe": {"all": True}}) is None
    assert consumers.parse_subscribe({"subscribe": {"groups": ["a", "a", "b"]}}) == {"a", "b"}
    with pytest.raises(consumers.BadRequest):
        consumers.parse_subscribe({"subscribe": {"groups": ["\ud800"]}})


@pytest.mark.redis
@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_pass_is_built_and_sent_only_for_groups_someone_watches():
    # The real Redis layer (the dev stack's): the sampler asks which Channels groups have a
    # member before building any message, so thousands of unwatched groups cost one round trip.
    from channels.layers import get_channel_layer

    cluster = f"occupied-{time.time_ns()}"
    layer = get_channel_layer()
    watched, idle = live.group_channel(cluster, "g1"), live.group_channel(cluster, "g2")
    channel = await layer.new_channel()
    await layer.group_add(watched, channel)
    try:
        names = [watched, idle, live.cluster_channel(cluster)]
        assert await push.occupied(layer, names) == {watched}
        current = {"g1": evaluation("g1", 3), "g2": evaluation("g2", 4)}
        assert await sync_to_async(live.publish_lag)(cluster, current, None) == 1
        event = await asyncio.wait_for(layer.receive(channel), 5)
        assert event["group_id"] == "g1" and live.decode(event)[0]["total_lag"] == 3
    finally:
        await layer.group_discard(watched, channel)
    assert await push.occupied(layer, names) == set()
    # A layer that cannot tell (in memory): everything is built and sent, as before.
    assert await push.occupied(InMemoryChannelLayer(), names) is None


@pytest.mark.redis
def test_occupied_also_reads_the_list_based_redis_layer(settings):
    # channels_redis.core keeps group members in a sorted set per group: the same answer.
    # Run on a loop of its own thread: this module's other tests leave pytest-asyncio's loop
    # and the pub/sub layer's loop hooks behind in the main thread.
    from channels_redis.core import RedisChannelLayer

    async def check() -> None:
        layer = RedisChannelLayer(hosts=[settings.REDIS_URL])
        cluster = f"occupied-core-{time.time_ns()}"
        watched, idle = live.group_channel(cluster, "g1"), live.group_channel(cluster, "g2")
        channel = await layer.new_channel()
        await layer.group_add(watched, channel)
        try:
            assert await push.occupied(layer, [watched, idle]) == {watched}
        finally:
            await layer.group_discard(watched, channel)
        assert await push.occupied(layer, [watched, idle]) == set()
        await layer.flush()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, check()).result(timeout=30)


def test_a_message_of_a_group_named_with_a_lone_surrogate_is_encoded():
    message = {**live.lag_message(evaluation("\ud800", 2)), "group_id": "\ud800"}
    group_id, text = live.encode(message)
    assert group_id == "\ud800"
    assert live.decode({"messages": [[group_id, text]]})[0]["group_id"] == "\ud800"


def test_the_channel_prefix_names_the_redis_database(settings):
    assert envvars.redis_database("redis://h:1/0") == 0
    assert envvars.redis_database("redis://h:1/12") == 12
    assert envvars.redis_database("redis://h:1") == 0
    assert envvars.redis_database("redis://h:1?db=3") == 3
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        envvars.redis_database("redis://h:1/x")
    assert envvars.channel_prefix("redis://h:1/2") != envvars.channel_prefix("redis://h:1/3")
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert config["prefix"] == envvars.channel_prefix(settings.REDIS_URL)


@pytest.mark.redis
def test_consoles_on_two_databases_of_one_redis_never_hear_each_other(settings):
    # Pub/sub channels are the whole server's: without the database in the prefix, a console
    # on database 1 would push its lag to the sockets of a console on database 2.
    from console.channel_layer import PubSubChannelLayer

    base = settings.REDIS_URL.rsplit("/", 1)[0]

    def layer(db: int) -> PubSubChannelLayer:
        url = f"{base}/{db}"
        return PubSubChannelLayer(hosts=[url], prefix=envvars.channel_prefix(url))

    async def check() -> None:
        one, two, again = layer(1), layer(2), layer(2)
        group = f"lag-{time.time_ns()}"
        heard_by_one, heard_by_two = await one.new_channel(), await two.new_channel()
        await one.group_add(group, heard_by_one)
        await two.group_add(group, heard_by_two)
        try:
            await again.group_send(group, {"type": "lag.pass", "n": 2})
            assert (await asyncio.wait_for(two.receive(heard_by_two), 5))["n"] == 2
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(one.receive(heard_by_one), 1)
        finally:
            await one.group_discard(group, heard_by_one)
            await two.group_discard(group, heard_by_two)
            for each in (one, two, again):
                await each.flush()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, check()).result(timeout=30)


@sockets
@pytest.mark.parametrize("kind", ["lag", "metadata"])
async def test_a_socket_needs_the_role_on_its_own_cluster(kind, layer, stored, settings):
    """A viewer of `local` only: its sockets on `local` open, on `local-secure` close 4403."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from console.roles import grant_cluster_role

    def make() -> str:
        user = get_user_model().objects.create_user("local-only")
        grant_cluster_role(user, "local", "viewer")
        return Token.objects.create(user=user).key

    token = await sync_to_async(make)()
    socket, connected, _ = await _open(f"/ws/clusters/local-secure/{kind}?token={token}")
    assert connected
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    socket = await _socket(f"/ws/clusters/local/{kind}?token={token}")
    if not await socket.receive_nothing(timeout=0.5):  # open: silent, or a first message
        first = await socket.receive_output(timeout=1)
        assert first.get("type") != "websocket.close", first
    await socket.disconnect()
