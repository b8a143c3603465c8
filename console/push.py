"""Sending to Channels groups from sync code (the sampler's thread, a Celery worker, a view).

The one emit helper of the live pushes: lag samples, metadata changes and Spark job updates
all go through `send_to_groups`, which never raises, so a Redis outage costs a page its live
updates (it polls and says so) and never the process that published.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 2.0
# Sends in flight at once: a pass's thousands of groups in a few round trips to Redis, without
# one task per group at once.
CONCURRENT_SENDS = 16

Event = tuple[str, dict[str, Any]]  # (Channels group name, event)
# Given the Channels groups that have members (None: unknown, so all), the events to send.
Build = Callable[[set[str] | None], list[Event]]


async def _send_all(layer: Any, events: list[Event], sent: list[int]) -> None:
    async def send(name: str, event: dict[str, Any]) -> None:
        await asyncio.wait_for(layer.group_send(name, event), SEND_TIMEOUT_S)
        sent[0] += 1

    for start in range(0, len(events), CONCURRENT_SENDS):
        await asyncio.gather(*(send(n, e) for n, e in events[start : start + CONCURRENT_SENDS]))


async def occupied(layer: Any, names: list[str]) -> set[str] | None:
    """Which of the Channels groups `names` have a member now; None when the layer cannot
    tell (not channels_redis). One pipelined round trip per Redis host: the sampler's
    thousands of group_sends to groups nobody watches cost two round trips each otherwise.
    Uses channels_redis' own group key and expiry, so it counts what group_send would."""
    group_key = getattr(layer, "_group_key", None)
    if group_key is None or not hasattr(layer, "consistent_hash") or not names:
        return None
    by_host: dict[int, list[str]] = {}
    for name in names:
        by_host.setdefault(layer.consistent_hash(name), []).append(name)
    alive_since = int(time.time()) - int(layer.group_expiry)
    found: set[str] = set()
    for index, host_names in by_host.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for name in host_names:
            pipe.zcount(group_key(name), alive_since, "+inf")
        counts = await pipe.execute()
        found.update(name for name, count in zip(host_names, counts, strict=True) if count)
    return found


async def _build_and_send(layer: Any, names: list[str], build: Build, sent: list[int]) -> None:
    await _send_all(layer, build(await occupied(layer, names)), sent)


def send_to_occupied(names: list[str], build: Build, what: str) -> int:
    """Like `send_to_groups`, for many groups of which few have members: `build` makes the
    events once it knows which of `names` have members, so nothing is built or sent for the
    others. A socket joining meanwhile misses this send only (it reads the state on join)."""
    sent = [0]
    try:
        layer = get_channel_layer()
        if layer is None:
            return 0
        async_to_sync(_build_and_send)(layer, names, build, sent)
    except Exception as exc:  # noqa: BLE001 (the publisher must not die of a push)
        log.warning("%s not pushed (%d sent): %r", what, sent[0], exc)
    return sent[0]


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
