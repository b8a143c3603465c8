"""`GroupPushConsumer`: a socket that only listens to one Channels group.

The metadata socket and the Spark job socket work alike: after auth, the subclass names its
group (or closes the socket with a code), the socket joins it and says whether pushes will
come (`{"type": "status", "live": ...}`), events are sent on as they are, and while the
channel layer (Redis) is down the client is told `live: false` and joins again when it is
back. Client frames are ignored (never decoded: junk cannot crash it).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from console.ws_auth import AuthenticatedConsumer

log = logging.getLogger(__name__)

# The `status` messages of these sockets: joined (pushes will come), or not (the page polls).
LIVE = {"type": "status", "live": True}
UNAVAILABLE = {"type": "status", "live": False, "reason": "Live updates are unavailable (Redis)."}


class GroupPushConsumer(AuthenticatedConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group_name = ""  # set once accepted for something that exists

    async def group_for(self) -> str | None:
        """The Channels group of this socket, or None after closing it (e.g. 4404)."""
        raise NotImplementedError

    async def on_joined(self) -> None:
        """Called after each (re)join: e.g. send the current state."""

    async def on_authenticated(self) -> None:
        # Resolved after auth, so an anonymous socket cannot probe what exists.
        group = await self.group_for()
        if group is None:
            return
        self.group_name = group
        await self._join()

    async def layer_down(self, event: dict[str, Any]) -> None:
        if self.group_name:
            await self.send_json(UNAVAILABLE)

    async def layer_back(self, event: dict[str, Any]) -> None:
        if self.group_name:
            await self._join()

    async def _join(self) -> None:
        """Join the group (again after an outage) and say whether pushes will come."""
        try:
            if self.channel_layer is None:
                raise RuntimeError("no channel layer configured")
            await self.channel_layer.group_add(self.group_name, self.channel_name)
        except Exception as exc:  # noqa: BLE001 (Redis down: the page keeps polling)
            log.info("%s not joined: %r", type(self).__name__, exc)
            await self.send_json(UNAVAILABLE)
            return
        await self.send_json(LIVE)
        await self.on_joined()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        return

    async def disconnect(self, code: int) -> None:
        if self.group_name and self.channel_layer is not None:
            # Nothing to clean up when Redis is gone.
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(self.group_name, self.channel_name)
