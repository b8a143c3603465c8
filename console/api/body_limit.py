"""ASGI guard for API request bodies: over the limit is a 413 before Django reads the body.

Django's ASGI handler reads a whole body (into a spooled file) before any view runs, so the
parser's own check (`console/api/parsers.py`) comes too late to stop the reading. This guard
answers 413 at once when Content-Length is over the limit, and otherwise reads at most the
limit (and one chunk) before it refuses a body that keeps coming (chunked, or a wrong
Content-Length). The server in front (Daphne, a proxy) may still receive the rest of a body
it was sent: limit bodies there too.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from console.api.limits import max_request_bytes

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]

API_PREFIX = "/api/"


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps(
        {
            "error": {
                "code": "payload_too_large",
                "message": f"body: the request body is larger than {limit} bytes.",
                "details": {"field": "body", "limit": limit},
            }
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        limit = max_request_bytes()
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _too_large(send, limit)
            return
        # Read the body here, never more than the limit, then hand it on as it came.
        buffered: list[Message] = []
        size = 0
        while True:
            message = await receive()
            buffered.append(message)
            if message["type"] != "http.request":
                break  # the client went away; Django sees that too
            size += len(message.get("body", b""))
            if size > limit:
                await _too_large(send, limit)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return buffered.pop(0) if buffered else await receive()

        await self.app(scope, replay, send)
