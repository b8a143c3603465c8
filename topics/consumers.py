"""`/ws/clusters/{cluster}/metadata`: a `metadata` message whenever brokers, the controller,
topics, leaders or ISR change (console.metadata_push). No subscribe message needed."""

from __future__ import annotations

from typing import Any

from console.clusters import ClusterNotFound, get_cluster
from console.metadata import cache
from console.metadata_push import metadata_channel
from console.ws_push import GroupPushConsumer

CLOSE_UNKNOWN_CLUSTER = 4404


class MetadataConsumer(GroupPushConsumer):
    async def group_for(self) -> str | None:
        cluster = self.scope["url_route"]["kwargs"]["cluster"]
        try:
            get_cluster(cluster)
        except ClusterNotFound:
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return None
        return metadata_channel(cluster)

    async def metadata_change(self, event: dict[str, Any]) -> None:
        # Before the page hears of it: its refetch must not be answered from an older snapshot.
        asked_at = event.get("asked_at")
        if isinstance(asked_at, (int, float)):
            cache.expire_before(self.scope["url_route"]["kwargs"]["cluster"], float(asked_at))
        await self.send_json(event["message"])
