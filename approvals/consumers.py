"""`/ws/clusters/{cluster}/approvals`: `{"type": "approval", ...}` whenever a request on the
cluster is asked for or decided (approvals.live), so approvers see it without reloading.
Viewers of the cluster and up; an unknown cluster is closed with 4404."""

from __future__ import annotations

from typing import Any

from approvals.live import approvals_channel
from console.clusters import ClusterNotFound, get_cluster
from console.ws_push import GroupPushConsumer

CLOSE_UNKNOWN = 4404


class ApprovalConsumer(GroupPushConsumer):
    async def group_for(self) -> str | None:
        cluster = self.scope["url_route"]["kwargs"]["cluster"]
        try:
            get_cluster(cluster)
        except ClusterNotFound:
            await self.close(code=CLOSE_UNKNOWN)
            return None
        return approvals_channel(cluster)

    async def approval_changed(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
