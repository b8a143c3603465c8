"""The Channels layer: channels_redis' pub/sub layer, which tells its sockets about outages.

Why pub/sub: a group_send is one PUBLISH, and each web server fans it out to its own sockets
in memory. The list-based layer (channels_redis.core) stores one copy per socket in Redis and
each web server pops them one round trip at a time: 500 sockets watching a group took about
0.5 s to all get a pass. Nothing here needs what only the list layer gives (messages kept for
a consumer that is not listening yet): a socket reads the current state when it subscribes.

What this subclass adds: with the list layer a consumer's receive fails while Redis is down,
and `console.ws_auth` turns that into `layer.down` / `layer.back` events (the page says
"not live", then joins its groups again). The pub/sub layer's receive is an in-memory queue
that never fails, and its background reader only logs Redis errors; so here the reader puts
`layer.down` into every local channel when Redis fails and `layer.back` once it answers
again (subscribing again whatever could not be subscribed meanwhile). A channel created while
Redis is down starts with `layer.down` instead of failing the socket's handshake.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
    _wrap_close,
)
from channels_redis.utils import decode_hosts

log = logging.getLogger(__name__)

DOWN, BACK = {"type": "layer.down"}, {"type": "layer.back"}
RETRY_S = 1.0


class _Shard(RedisSingleShardConnection):
    """One Redis host: its reader also watches for the host failing and coming back."""

    def __init__(self, host: Any, channel_layer: Any):
        super().__init__(host, channel_layer)
        self.down = False
        self._wanted: set[str] = set()  # subscriptions asked for, made or not

    async def subscribe(self, channel: str) -> None:
        self._wanted.add(channel)
        try:
            await super().subscribe(channel)
        except Exception:
            self._ensure_receiver()  # it notices when Redis is back and subscribes then
            self._set_down()
            raise

    async def unsubscribe(self, channel: str) -> None:
        self._wanted.discard(channel)
        if not self.down:
            await super().unsubscribe(channel)
        else:
            self._subscribed_to.discard(channel)

    async def flush(self) -> None:
        self._wanted = set()
        self.down = False
        await super().flush()

    def _set_down(self) -> None:
        if not self.down:
            self.down = True
            log.info("channel layer: Redis %s failed; sockets told", self.host.get("address"))
            self._tell_all(DOWN)

    def _tell_all(self, event: dict[str, str]) -> None:
        data = self.channel_layer.channel_layer.serialize(event)
        for queue in list(self.channel_layer.channels.values()):
            queue.put_nowait(data)

    async def _recover(self) -> None:
        """Subscribe again to what was asked (redis-py resubscribes what it had), then tell."""
        async with self._lock:
            self._ensure_redis()
            await self._redis.ping()
            connection = self._pubsub.connection
            if connection is not None and not connection.is_connected:
                await connection.connect()  # redis-py subscribes again to what it had
            missing = self._wanted - self._subscribed_to
            if missing:
                await self._pubsub.subscribe(*missing)
                self._subscribed_to |= missing
        self.down = False
        log.info("channel layer: Redis %s answers again", self.host.get("address"))
        self._tell_all(BACK)

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self.down:
                    await self._recover()
                elif self._pubsub is not None and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as exc:  # noqa: BLE001 (Redis down: tell, retry)
                log.debug("channel layer reader: %r", exc)
                self._set_down()
                await asyncio.sleep(RETRY_S)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, hosts: Any = None, **kwargs: Any):
        super().__init__(*args, hosts=hosts, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue()
        try:
            await self._get_shard(channel).subscribe(channel)
        except Exception:  # noqa: BLE001 (Redis down: the consumer is told, not failed)
            self.channels[channel].put_nowait(self.channel_layer.serialize(DOWN))


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """settings.CHANNEL_LAYERS' backend: RedisPubSubChannelLayer with outage events."""

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
