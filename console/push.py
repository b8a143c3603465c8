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
    tell (not channels_redis). A few round trips per Redis host, however many names: the
    sampler's thousands of group_sends to groups nobody watches would cost one each."""
    if not names:
        return None
    if hasattr(layer, "_get_layer"):  # channels_redis.pubsub: a group is a Redis channel
        return await _subscribed(layer._get_layer(), names)
    if hasattr(layer, "_group_key") and hasattr(layer, "consistent_hash"):
        return await _group_members(layer, names)
    return None


NUMSUB_CHUNK = 1000


async def _subscribed(loop_layer: Any, names: list[str]) -> set[str]:
    """channels_redis.pubsub: a group has a member when some web server subscribes to its
    Redis channel (PUBSUB NUMSUB). Uses the layer's own channel naming and sharding."""
    by_shard: dict[int, tuple[Any, dict[str, str]]] = {}
    for name in names:
        channel = loop_layer._get_group_channel_name(name)
        shard = loop_layer._get_shard(channel)
        by_shard.setdefault(id(shard), (shard, {}))[1][channel] = name
    found: set[str] = set()
    for shard, by_channel in by_shard.values():
        shard._ensure_redis()
        channels = list(by_channel)
        for start in range(0, len(channels), NUMSUB_CHUNK):
            counts = await shard._redis.pubsub_numsub(*channels[start : start + NUMSUB_CHUNK])
            found.update(
                by_channel[c.decode() if isinstance(c, bytes) else c] for c, n in counts if n
            )
    return found


async def _group_members(layer: Any, names: list[str]) -> set[str]:
    """channels_redis.core: one pipelined ZCOUNT per group on the layer's own group key and
    expiry, so it counts what group_send would."""
    by_host: dict[int, list[str]] = {}
    for name in names:
        by_host.setdefault(layer.consistent_hash(name), []).append(name)
    alive_since = int(time.time()) - int(layer.group_expiry)
    found: set[str] = set()
    for index, host_names in by_host.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for name in host_names:
            pipe.zcount(layer._group_key(name), alive_since, "+inf")
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
