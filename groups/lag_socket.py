"""`/ws/clusters/{cluster}/lag`: live lag for the groups a page subscribes to.

The client sends `{"subscribe": {"groups": [...]}}` or `{"subscribe": {"all": true}}` (a new
subscription replaces the previous one). The server answers with a `status` message, the
latest stored evaluation of each subscribed group at once, then a `lag` message per group
and sample, and `group_state` when a group's state or membership changes.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from console.clusters import ClusterNotFound, get_cluster
from console.ws_auth import AuthenticatedConsumer
from groups import lag_push, lag_store

CLOSE_UNKNOWN_CLUSTER = 4404
MAX_SUBSCRIBED_GROUPS = 1000


def _bad(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"code": "bad_request", "message": message}}


class LagConsumer(AuthenticatedConsumer):
    cluster: str
    channels_joined: list[str]
    subscribed: set[str] | None  # None: all groups

    async def connect(self) -> None:
        self.cluster = self.scope["url_route"]["kwargs"]["cluster"]
        self.channels_joined, self.subscribed = [], set()
        try:
            get_cluster(self.cluster)
        except ClusterNotFound:
            await self.accept()
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return
        await super().connect()

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        for name in self.channels_joined:
            await self.channel_layer.group_discard(name, self.channel_name)
        self.channels_joined = []

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        subscribe = content.get("subscribe") if isinstance(content, dict) else None
        if not isinstance(subscribe, dict):
            await self.send_json(_bad('send {"subscribe": {"groups": [...]}} or {"all": true}.'))
            return
        groups = subscribe.get("groups")
        if subscribe.get("all") is True:
            wanted: set[str] | None = None
            names = [lag_push.cluster_channel(self.cluster)]
        elif (
            isinstance(groups, list)
            and all(isinstance(g, str) and g for g in groups)
            and len(groups) <= MAX_SUBSCRIBED_GROUPS
        ):
            wanted = set(groups)
            names = [lag_push.group_channel(self.cluster, g) for g in sorted(wanted)]
        else:
            await self.send_json(
                _bad(f"subscribe.groups: a list of 1..{MAX_SUBSCRIBED_GROUPS} group ids.")
            )
            return
        await self._leave()
        try:
            for name in names:
                await self.channel_layer.group_add(name, self.channel_name)
                self.channels_joined.append(name)
        except Exception:  # noqa: BLE001 (Redis down: say so, keep the socket)
            await self.send_json({"type": "status", "live": False, "reason": "store unavailable"})
            return
        self.subscribed = wanted
        await self.send_json({"type": "status", "live": True})
        await self._send_latest()

    async def _send_latest(self) -> None:
        try:
            latest = await database_sync_to_async(lag_store.read_latest)(self.cluster)
        except lag_store.StoreUnavailable:
            await self.send_json({"type": "status", "live": False, "reason": "store unavailable"})
            return
        for group, evaluation in sorted(latest.items()):
            if self.subscribed is None or group in self.subscribed:
                await self.send_json(lag_push.lag_message(evaluation))

    async def lag_sample(self, event: dict[str, Any]) -> None:
        for message in event["messages"]:
            await self.send_json(message)

    async def lag_batch(self, event: dict[str, Any]) -> None:
        for message in event["messages"]:
            if self.subscribed is None or message["group_id"] in self.subscribed:
                await self.send_json(message)
