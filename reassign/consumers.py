"""`/ws/clusters/{cluster}/reassignments/{id}`: the reassignment's progress on connect, then
`{"type": "reassignment", ...}` on every pass of the watcher until it ends (reassign.live).
Admins only, like the REST reads; an unknown cluster or reassignment is closed with 4404."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from console.clusters import ClusterNotFound, get_cluster
from console.kafka import KafkaAdapterError
from console.ws_push import GroupPushConsumer
from reassign import live, progress
from reassign.models import Reassignment

CLOSE_UNKNOWN = 4404


@database_sync_to_async
def _exists(cluster: str, reassignment_id: int) -> bool:
    try:
        get_cluster(cluster)
    except ClusterNotFound:
        return False
    return Reassignment.objects.filter(pk=reassignment_id, cluster=cluster).exists()


@database_sync_to_async
def _current(cluster: str, reassignment_id: int) -> dict[str, Any] | None:
    r = Reassignment.objects.filter(pk=reassignment_id, cluster=cluster).first()
    if r is None:
        return None
    try:
        return live.message(progress.detail(get_cluster(cluster), r))
    except KafkaAdapterError:  # the watcher's next pass brings it
        return None


class ReassignmentConsumer(GroupPushConsumer):
    required_role = "admin"

    def _ids(self) -> tuple[str, int]:
        kwargs = self.scope["url_route"]["kwargs"]
        return kwargs["cluster"], int(kwargs["reassignment_id"])

    async def group_for(self) -> str | None:
        cluster, reassignment_id = self._ids()
        if not await _exists(cluster, reassignment_id):
            await self.close(code=CLOSE_UNKNOWN)
            return None
        return live.reassignment_channel(reassignment_id)

    async def on_joined(self) -> None:
        # What changed before the socket joined is not lost: the page starts from now.
        current = await _current(*self._ids())
        if current is not None:
            await self.send_json(current)

    async def reassign_progress(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
