"""`/ws/clusters/{cluster}/metadata`: a `metadata` message whenever brokers, the controller,
topics, leaders or ISR change (console.metadata_push). No subscribe message needed."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from console.clusters import ClusterNotFound, get_cluster
from console.metadata_push import metadata_channel
from console.ws_auth import AuthenticatedConsumer

log = logging.getLogger(__name__)

CLOSE_UNKNOWN_CLUSTER = 4404


class MetadataConsumer(AuthenticatedConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_name = ""  # set once accepted for a known cluster

    async def layer_down(self, event: dict[str, Any]) -> None:
        if self.group_name:
            await self.send_json(
                {"type": "status", "live": False, "reason": "Live updates are unavailable (Redis)."}
            )

    async def layer_back(self, event: dict[str, Any]) -> None:
        if self.group_name:
            await self._join()

    async def on_authenticated(self) -> None:
        # Checked after auth, so an anonymous socket cannot probe the cluster registry.
        cluster = self.scope["url_route"]["kwargs"]["cluster"]
        try:
            get_cluster(cluster)
        except ClusterNotFound:
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return
        self.group_name = metadata_channel(cluster)
        await self._join()

    async def _join(self) -> None:
        """Join the cluster's group (again after an outage) and say whether pushes will come."""
        try:
            if self.channel_layer is None:
                raise RuntimeError("no channel layer configured")
            await self.channel_layer.group_add(self.group_name, self.channel_name)
        except Exception as exc:  # noqa: BLE001 (Redis down: the page keeps polling)
            log.info("metadata socket not joined: %r", exc)
            await self.send_json(
                {"type": "status", "live": False, "reason": "Live updates are unavailable (Redis)."}
            )
            return
        await self.send_json({"type": "status", "live": True})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Clients have nothing to say here; frames are ignored, not decoded (no crash on junk).
        return

    async def disconnect(self, code: int) -> None:
        if self.group_name and self.channel_layer is not None:
            # Nothing to clean up when Redis is gone.
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def metadata_change(self, event: dict[str, Any]) -> None:
        await self.send_json(event["message"])
