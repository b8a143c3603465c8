"""WebSocket auth: the browser's session cookie, or `?token=<key>` for automation.

Consumers derived from `AuthenticatedConsumer` close an anonymous socket with 4401 and a
socket without the role with 4403, mirroring the REST API's 401/403.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from console.roles import has_role

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    from rest_framework.authtoken.models import Token

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
        if user is None or not user.is_authenticated:
            query = parse_qs(scope.get("query_string", b"").decode())
            headers = dict(scope.get("headers", []))
            key = (query.get("token") or [""])[0]
            auth = headers.get(b"authorization", b"").decode()
            if not key and auth.lower().startswith("token "):
                key = auth[6:].strip()
            if key:
                scope = {**scope, "user": await _user_for_token(key)}
        return await self.inner(scope, receive, send)


def TokenOrSessionAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 (Channels' naming)
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))


class AuthenticatedConsumer(AsyncJsonWebsocketConsumer):
    required_role = "viewer"

    async def connect(self) -> None:
        # Accept first, then close with the code: a handshake refused before accept reaches
        # browsers as an HTTP 403 (close code 1006), which cannot say 4401 from 4403.
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await database_sync_to_async(has_role)(user, self.required_role):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.on_authenticated()

    async def on_authenticated(self) -> None:
        """Called once the socket is accepted; subclasses join their groups here."""
