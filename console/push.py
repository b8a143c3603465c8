"""Sending to Channels groups from sync code (the sampler's thread, a Celery worker, a view).

The one emit helper of the live pushes: lag samples, metadata changes and Spark job updates
all go through `send_to_groups`, which never raises, so a Redis outage costs a page its live
updates (it polls and says so) and never the process that published.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 2.0
# Sends in flight at once: a pass's thousands of groups in a few round trips to Redis, without
# one task per group at once.
CONCURRENT_SENDS = 16

Event = tuple[str, dict[str, Any]]  # (Channels group name, event)


async def _send_all(layer: Any, events: list[Event], sent: list[int]) -> None:
    async def send(name: str, event: dict[str, Any]) -> None:
        await asyncio.wait_for(layer.group_send(name, event), SEND_TIMEOUT_S)
        sent[0] += 1

    for start in range(0, len(events), CONCURRENT_SENDS):
        await asyncio.gather(*(send(n, e) for n, e in events[start : start + CONCURRENT_SENDS]))


def send_to_groups(events: list[Event], what: str) -> int:
    """Send `events` in order of batches; the number sent. With no channel layer, or Redis
    down, logs a warning naming `what` and returns what was sent."""
    sent = [0]
    if not events:
        return 0
    try:
        layer = get_channel_layer()
        if layer is None:
            return 0
        # One event loop (and Redis connection) for all of them, not one per send.
        async_to_sync(_send_all)(layer, events, sent)
    except Exception as exc:  # noqa: BLE001 (the publisher must not die of a push)
        log.warning("%s not pushed (%d of %d sent): %r", what, sent[0], len(events), exc)
    return sent[0]
