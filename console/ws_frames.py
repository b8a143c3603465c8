"""Client frames of the WebSockets, read by the rules of REST request bodies.

A text frame is decoded by `console.api.parsers.loads_strict`, the reader of request bodies
(size, depth, no key twice in an object, no NaN / Infinity / out-of-range number, no lone
surrogate), and its keys are checked by `console.api.strict.check_body` against what the
socket takes: `{"subscribe": ..., "subscribe": ...}` is refused rather than read as its last
value, and a key the socket does not take is named. Every problem is answered with an
`error` message in the REST API's error shape; the socket stays open.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from console.api.limits import max_request_bytes
from console.api.parsers import BodyError, PayloadTooLarge, loads_strict
from console.api.strict import check_body
from console.errors import BadInput, ConsoleError

# Daphne (autobahn) fails the connection without a close frame (clients see 1006) when a
# message exceeds its --websocket-max-message-size, before the application sees a byte of it.
# project.serve starts daphne with this cap (daphne's own default is 1 MiB, the REST body
# limit: a frame just over it could never be answered); the frames' own limit is the REST one.
SERVER_MESSAGE_CAP_BYTES = 4 * 1024 * 1024
ROOT = "frame"  # what messages call the whole frame (REST says `body`)


class FrameError(ConsoleError):
    """A client frame the socket cannot act on; answered with `error_message`."""

    def __init__(
        self,
        message: str,
        *,
        field: str = ROOT,
        code: str | None = None,
        details: dict[str, Any] | None = None,
    ):
        super().__init__(message, code=code, details=details or {"field": field})
        self.field = field


def frame_limit() -> int:
    """The largest frame read, in UTF-8 bytes: a request body's limit (MAX_REQUEST_BYTES),
    kept under the server's cap so that a frame over it is still answered."""
    return min(max_request_bytes(), SERVER_MESSAGE_CAP_BYTES // 2)


def read_frame(text_data: str | None, spec: serializers.Serializer) -> dict[str, Any]:
    """The JSON object of a client frame (`text_data` None: a binary frame), or FrameError
    saying what is wrong. `spec` declares the keys (at every depth) and their JSON types, as
    a REST body's serializer does."""
    if text_data is None:
        raise FrameError(f"{ROOT}: send one JSON object per text frame (not a binary frame).")
    limit = frame_limit()
    # Every character is at least one byte: a frame that long is refused without encoding it.
    if len(text_data) > limit:
        raise _too_large(limit)
    try:
        data = loads_strict(text_data.encode("utf-8", "surrogatepass"), limit, ROOT)
    except PayloadTooLarge:
        raise _too_large(limit) from None
    except BodyError as exc:
        raise FrameError(str(exc.detail), field=exc.field) from None
    if not isinstance(data, dict):
        raise FrameError(f"{ROOT}: must be an object (a JSON object).")
    try:
        check_body(spec, data)
    except BadInput as exc:
        raise FrameError(exc.message, field=exc.field, details=exc.details) from None
    return data


def _too_large(limit: int) -> FrameError:
    return FrameError(
        f"{ROOT}: larger than {limit} bytes (UTF-8).",
        code="payload_too_large",
        details={"field": ROOT, "limit": limit},
    )


def error_message(error: FrameError) -> dict[str, Any]:
    """The `error` message answering a refused frame (`details.field` names where)."""
    return {
        "type": "error",
        "error": {"code": error.code, "message": error.message, "details": error.details},
    }
