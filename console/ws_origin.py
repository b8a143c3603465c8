"""The Origin check of WebSocket handshakes, against cross-site WebSocket hijacking.

A browser sends the console's session cookie with a WebSocket handshake that any site starts,
and WebSockets have no CORS: only the Origin header tells the console's own pages from
another site's. Channels' AllowedHostsOriginValidator compared the origin's host with
ALLOWED_HOSTS only, so `http://127.0.0.1:9999`, `https://localhost:4443` or
`http://testserver` passed. Here an origin passes as Django's CSRF check passes it for the
REST API, exactly (scheme, host and port):

- the console's own origin: the connection's scheme (`wss`, a trusted `X-Forwarded-Proto:
  https` (SECURE_PROXY_SSL_HEADER), or HTTPS=true: `https`; otherwise `http`) and the Host
  header as sent, port included, when that host is in ALLOWED_HOSTS;
- an origin listed in CSRF_TRUSTED_ORIGINS (`https://*.example.com`: it and its subdomains).

Without an Origin header (every browser sends one) only a token client, i.e. automation,
passes; a session cookie without an Origin is refused. Anonymous handshakes without one go
on, to be closed with 4401 like any socket without credentials. A refused socket is accepted,
told why, and closed with 4403, as the consumers close theirs (console/ws_auth.py): refused
at the handshake it would reach browsers as close code 1006, saying nothing.
"""

from __future__ import annotations

import io
import json
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

from console.ws_auth import AUTH_METHOD

CLOSE_ORIGIN_REFUSED = 4403


def _header(scope: dict[str, Any], name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == name]


def own_origin(scope: dict[str, Any]) -> str | None:
    """The origin a browser sends for the console itself, or None (the host is not allowed).

    Host and scheme are Django's own reading of the handshake (`get_host`, `is_secure`), the
    same the REST API's CSRF check compares with."""
    secure_socket = scope.get("scheme") == "wss"
    as_http = {
        **scope,
        "type": "http",
        "method": "GET",
        "scheme": "https" if secure_socket else "http",
    }
    request = ASGIRequest(as_http, io.BytesIO())
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    # HTTPS=true: the console is served over https only (HSTS), whatever a proxy forwards.
    secure = request.is_secure() or bool(getattr(settings, "HTTPS", False))
    return f"{'https' if secure else 'http'}://{host}"


def trusted(origin: str) -> bool:
    """`origin` is listed in CSRF_TRUSTED_ORIGINS, as Django's CSRF check reads the list."""
    listed = list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []))
    if origin in {entry for entry in listed if "*" not in entry}:
        return True
    try:
        asked = urlsplit(origin)
    except ValueError:
        return False
    for entry in listed:
        if "*" in entry:
            pattern = urlsplit(entry)
            if pattern.scheme == asked.scheme and is_same_domain(
                asked.netloc, pattern.netloc.lstrip("*")
            ):
                return True
    return False


def refusal(scope: dict[str, Any]) -> str | None:
    """Why a WebSocket handshake is refused for its origin, or None when it may go on."""
    origins = _header(scope, b"origin")
    if len(origins) > 1:
        return "The handshake has more than one Origin header."
    if not origins:
        # A browser always sends one: without it only automation, which holds a token.
        if scope.get(AUTH_METHOD) == "session":
            return "A session socket needs an Origin header; automation uses a token."
        return None
    origin = origins[0]
    if origin == own_origin(scope) or trusted(origin):
        return None
    return (
        f"The origin {origin!r} is not this console's; list it in CSRF_TRUSTED_ORIGINS "
        "if its pages may use the console."
    )


def refusal_message(reason: str) -> dict[str, Any]:
    """The `error` message sent before a refused handshake is closed."""
    error = {"code": "origin_refused", "message": reason, "details": {"field": "origin"}}
    return {"type": "error", "error": error}


async def _refuse(receive: Any, send: Any, reason: str) -> None:
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(refusal_message(reason))})
    await send({"type": "websocket.close", "code": CLOSE_ORIGIN_REFUSED})


class OriginCheck:
    """ASGI middleware for WebSockets, inside the auth stack (it needs `AUTH_METHOD`)."""

    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        reason = refusal(scope) if scope.get("type") == "websocket" else None
        if reason is not None:
            await _refuse(receive, send, reason)
            return None
        return await self.inner(scope, receive, send)
