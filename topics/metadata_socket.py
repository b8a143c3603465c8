"""`/ws/clusters/{cluster}/metadata`: a message whenever brokers, leaders or ISR change."""

from __future__ import annotations

from typing import Any

from console.clusters import ClusterNotFound, get_cluster
from console.metadata_push import metadata_channel
from console.ws_auth import AuthenticatedConsumer

CLOSE_UNKNOWN_CLUSTER = 4404


class MetadataConsumer(AuthenticatedConsumer):
    group_name = ""

    async def connect(self) -> None:
        cluster = self.scope["url_route"]["kwargs"]["cluster"]
        try:
            get_cluster(cluster)
        except ClusterNotFound:
            await self.accept()
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return
        self.group_name = metadata_channel(cluster)
        await super().connect()

    async def on_authenticated(self) -> None:
        try:
            await self.channel_layer.group_add(self.group_name, self.channel_name)
        except Exception:  # noqa: BLE001 (Redis down: the page keeps polling)
            await self.send_json({"type": "status", "live": False, "reason": "store unavailable"})
            return
        await self.send_json({"type": "status", "live": True})

    async def disconnect(self, code: int) -> None:
        if self.group_name:
            try:
                await self.channel_layer.group_discard(self.group_name, self.channel_name)
            except Exception:  # noqa: BLE001 (nothing to clean up when Redis is gone)
                pass

    async def metadata_change(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
