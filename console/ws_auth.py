"""WebSocket auth: the browser's session cookie, or a token (`?token=<key>` or
`Authorization: Token <key>`) for automation.

Consumers derived from `AuthenticatedConsumer` close an anonymous socket with 4401 and a
socket without the role with 4403, mirroring the REST API's 401/403. The scope's
`AUTH_METHOD` says which credential authenticated the user (the Origin check needs it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from console.roles import has_role

log = logging.getLogger(__name__)

AUTH_METHOD = "console.auth_method"  # scope key: "session" or "token"; absent: anonymous
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
# While the channel layer (Redis) fails: probe it after this many seconds, doubling up to max.
LAYER_RETRY_S, LAYER_RETRY_MAX_S = 1.0, 30.0


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    from rest_framework import exceptions
    from rest_framework.authtoken.models import Token

    from console.tokens import user_for_key

    try:
        found = user_for_key(key)  # a named token (console/tokens.py)
    except exceptions.AuthenticationFailed:  # expired, or its user disabled
        return AnonymousUser()
    if found is not None:
        return found[0]
    try:
        token = Token.objects.select_related("user").get(key=key)
    except Token.DoesNotExist:
        return AnonymousUser()
    return token.user if token.user.is_active else AnonymousUser()


class TokenAuthMiddleware:
    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is not None and user.is_authenticated:
            scope = {**scope, AUTH_METHOD: "session"}
        else:
            query = parse_qs(scope.get("query_string", b"").decode())
            headers = dict(scope.get("headers", []))
            key = (query.get("token") or [""])[0]
            auth = headers.get(b"authorization", b"").decode()
            if not key and auth.lower().startswith("token "):
                key = auth[6:].strip()
            if key:
                user = await _user_for_token(key)
                scope = {**scope, "user": user}
                if user.is_authenticated:
                    scope[AUTH_METHOD] = "token"
        return await self.inner(scope, receive, send)


def TokenOrSessionAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 (Channels' naming)
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))


class AuthenticatedConsumer(AsyncJsonWebsocketConsumer):
    required_role = "viewer"
    _layer_down = False

    # --- surviving a channel layer outage ---------------------------------------------------
    # Channels ends a consumer whose layer receive fails (Redis down): the socket would close
    # with 1011 and every page reconnect in a loop. Channels' __call__ stores the layer's
    # receive in `channel_receive` and then awaits it; this property hands it a wrapper that
    # turns a failure into a `layer.down` event, probes the layer with backoff, and lets a
    # `layer.back` event through once Redis answers. Both are dispatched in order with client
    # messages, like any event, so they cannot race a subscribe. Subclasses override
    # `layer_down` / `layer_back` to tell the client and join their groups again.

    @property
    def channel_receive(self) -> Callable[[], Awaitable[dict[str, Any]]]:
        return self._receive_tolerant

    @channel_receive.setter
    def channel_receive(self, receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self._layer_receive = receive

    async def _receive_tolerant(self) -> dict[str, Any]:
        delay = LAYER_RETRY_S
        while self._layer_down:
            await asyncio.sleep(delay)
            try:
                await self.channel_layer.send(self.channel_name, {"type": "layer.back"})
                self._layer_down = False
            except Exception:  # noqa: BLE001 (still down)
                delay = min(delay * 2, LAYER_RETRY_MAX_S)
        try:
            return await self._layer_receive()
        except Exception as exc:  # noqa: BLE001
            log.info("%s: channel layer failed: %r", type(self).__name__, exc)
            self._layer_down = True
            return {"type": "layer.down"}

    async def layer_down(self, event: dict[str, Any]) -> None:
        """The channel layer failed; pushes stop until `layer_back`."""

    async def layer_back(self, event: dict[str, Any]) -> None:
        """The channel layer answers again (group memberships may be lost)."""

    async def connect(self) -> None:
        # Accept first, then close with the code: a handshake refused before accept reaches
        # browsers as an HTTP 403 (close code 1006), which cannot say 4401 from 4403.
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        cluster = await self.role_cluster()
        if not await database_sync_to_async(has_role)(user, self.required_role, cluster):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.on_authenticated()

    async def role_cluster(self) -> str | None:
        """The cluster whose role this socket needs: the one its path names (None: the
        role anywhere)."""
        return self.scope.get("url_route", {}).get("kwargs", {}).get("cluster")

    async def on_authenticated(self) -> None:
        """Called once the socket is accepted; subclasses join their groups here."""
