"""`/ws/clusters/{cluster}/lag`: live lag of the consumer groups a page shows.

After connecting, the client sends `{"subscribe": {"groups": [...]}}` or
`{"subscribe": {"all": true}}`; each subscription replaces the previous one. The server
answers with a `status` message and the latest stored evaluation of every subscribed group
(so a page has data at once), then pushes what the sampler publishes (groups.lag.live).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from django.conf import settings
from rest_framework import serializers

from console.api.limits import KAFKA_STRING_BYTES
from console.clusters import ClusterNotFound, get_cluster
from console.ws_auth import AuthenticatedConsumer
from console.ws_frames import FrameError, error_message, read_frame
from groups.lag import store
from groups.lag.live import BATCH_EVENT, SAMPLE_EVENT, cluster_channel, group_channel, lag_message

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_CLUSTER = 4404
MAX_SUBSCRIBED_GROUPS = 1000
# Above this many groups a socket listens to the cluster's batch and filters it: one event per
# group and pass would overflow its channel (Channels drops what exceeds a channel's capacity,
# 100 by default), and the batch is one event whatever the count.
MAX_GROUP_CHANNELS = 50

# Events whose handlers touch no database: dispatched without Channels' close_old_connections,
# which runs before every event in asgiref's one shared sync thread, so a pass reached 500
# sockets one thread round trip after another (publish to last socket: p50 174 ms, p99 0.5 s).
NO_DATABASE_EVENTS = frozenset({SAMPLE_EVENT, BATCH_EVENT})

# None: every group of the cluster; otherwise the group ids.
Subscription = frozenset[str] | None


class BadRequest(FrameError):
    """A client message the socket cannot act on; answered, the socket stays open."""


class _Subscribe(serializers.Serializer):
    groups = serializers.ListField(child=serializers.CharField())
    all = serializers.BooleanField()


class _LagFrame(serializers.Serializer):
    subscribe = _Subscribe()


# The keys and JSON types a frame may carry, read like a REST body (console.ws_frames).
LAG_FRAME = _LagFrame()


def parse_subscribe(content: object) -> Subscription:
    """The subscription a client message asks for, or BadRequest saying what is wrong."""
    sub = content.get("subscribe") if isinstance(content, dict) else None
    if not isinstance(sub, dict):
        raise BadRequest(
            'Send {"subscribe": {"groups": [...]}} or {"subscribe": {"all": true}}.',
            field="subscribe",
        )
    if "all" in sub:
        if sub["all"] is not True or "groups" in sub:
            raise BadRequest(
                'subscribe: give either "all": true or "groups", not both.', field="subscribe"
            )
        return None
    where = "subscribe.groups"
    groups = sub.get("groups")
    if not isinstance(groups, list) or len(groups) > MAX_SUBSCRIBED_GROUPS:
        raise BadRequest(
            f"{where}: a list of at most {MAX_SUBSCRIBED_GROUPS} group ids.", field=where
        )
    for group in groups:
        if not isinstance(group, str) or not group:
            raise BadRequest(f"{where}: every group id is a non-empty string.", field=where)
        try:
            size = len(group.encode("utf-8"))
        except UnicodeEncodeError:
            raise BadRequest(f"{where}: a group id is not valid text.", field=where) from None
        if size > KAFKA_STRING_BYTES:
            raise BadRequest(
                f"{where}: a group id has at most {KAFKA_STRING_BYTES} bytes.", field=where
            )
    return frozenset(groups)


def read_subscription(text_data: str | None) -> Subscription:
    """The subscription a client frame asks for; FrameError (answered with `error_message`)
    when the frame cannot be read or asks for nothing the socket can do."""
    return parse_subscribe(read_frame(text_data, LAG_FRAME))


def status_message(problem: str | None) -> dict[str, Any]:
    """The `status` message answering a subscription: live, or not with the problem."""
    status: dict[str, Any] = {
        "type": "status",
        "live": problem is None,
        "sample_seconds": settings.LAG_SAMPLE_SECONDS,
    }
    if problem:
        status["reason"] = problem
    return status


def _known(cluster: str) -> bool:
    try:
        get_cluster(cluster)
    except ClusterNotFound:
        return False
    return True


class LagConsumer(AuthenticatedConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cluster = ""  # set once the socket is accepted for a known cluster
        self.joined: set[str] = set()
        self.subscription: Subscription = frozenset()
        self.subscribed = False

    async def layer_down(self, event: dict[str, Any]) -> None:
        if self.cluster and self.subscribed:
            await self.send_json(status_message("Live updates are unavailable (Redis)."))

    async def layer_back(self, event: dict[str, Any]) -> None:
        # Redis may have lost the memberships: join again, then the usual status and data.
        if self.cluster and self.subscribed:
            await self._subscribe(self.subscription)

    async def on_authenticated(self) -> None:
        # Checked after auth, so an anonymous socket cannot probe the cluster registry.
        cluster = self.scope["url_route"]["kwargs"]["cluster"]
        if not _known(cluster):
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return
        self.cluster = cluster

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Overrides the JSON consumer's decoding: a frame is read like a REST body, and a bad
        # one is answered, not a crash (1011).
        if not self.cluster:
            return
        try:
            wanted = read_subscription(text_data)
        except FrameError as exc:
            await self.send_json(error_message(exc))
            return
        await self._subscribe(wanted)

    async def _subscribe(self, wanted: Subscription) -> None:
        # Filter first: events already queued for groups just dropped are not forwarded.
        self.subscription, self.subscribed = wanted, True
        names = (
            {cluster_channel(self.cluster)}
            if wanted is None or len(wanted) > MAX_GROUP_CHANNELS
            else {group_channel(self.cluster, g) for g in wanted}
        )
        problem = await self._join(names)
        latest: dict[str, dict[str, Any]] = {}
        try:
            latest = await sync_to_async(store.read_latest, thread_sensitive=False)(self.cluster)
        except Exception as exc:  # noqa: BLE001 (Redis down: say so, keep the socket)
            log.info("%s: latest lag not read: %r", self.cluster, exc)
            problem = problem or "The lag store (Redis) is unavailable."
        await self.send_json(status_message(problem))
        for group in sorted(latest):
            if self._wants(group):
                await self.send_json({**lag_message(latest[group]), "group_id": group})

    async def _join(self, names: set[str]) -> str | None:
        """Move the socket to exactly `names`; the problem when the layer is unreachable.

        Every wanted name is added again (idempotent): after an outage Redis may have lost
        the memberships, and a successful add is what shows the layer works."""
        if self.channel_layer is None:
            return "Live updates are not configured (no channel layer)."
        try:
            for name in sorted(self.joined - names):
                await self.channel_layer.group_discard(name, self.channel_name)
                self.joined.discard(name)
            for name in sorted(names):
                await self.channel_layer.group_add(name, self.channel_name)
                self.joined.add(name)
        except Exception as exc:  # noqa: BLE001 (Redis down; subscribing again retries)
            log.info("%s: lag subscription not joined: %r", self.cluster, exc)
            return "Live updates are unavailable (Redis)."
        return None

    def _wants(self, group: object) -> bool:
        return self.subscription is None or group in self.subscription

    async def disconnect(self, code: int) -> None:
        await self._join(set())

    # --- Channels events from groups.lag.live.publish_lag -----------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message.get("type") in NO_DATABASE_EVENTS:
            await getattr(self, get_handler_name(message))(message)
            return
        await super().dispatch(message)

    async def _forward(self, event: dict[str, Any]) -> None:
        for group_id, text in event.get("messages") or []:
            if self._wants(group_id):
                await self.send(text_data=text)  # encoded once by the sampler

    async def lag_sample(self, event: dict[str, Any]) -> None:
        await self._forward(event)

    async def lag_batch(self, event: dict[str, Any]) -> None:
        await self._forward(event)
