"""`/ws/clusters/{cluster}/metadata`: a `metadata` message whenever brokers, the controller,
topics, leaders or ISR change (console.metadata_push). No subscribe message needed."""

from __future__ import annotations

from typing import Any

from console.clusters import ClusterNotFound, get_cluster
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
        await self.send_json(event["message"])
