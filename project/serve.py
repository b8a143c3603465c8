"""The web server: daphne, with the limits the API documents and an access log that never
writes a credential. Run as `python -m project.serve <daphne's arguments>` (the Procfile's
`web`).

Three things daphne (Twisted underneath) does on its own that the API documents otherwise:
- its access log writes each request's full URI, so a token put in a query string (which the
  REST API refuses, but still receives) would be logged in full: secret-looking query values
  are written as `***`;
- Twisted answers a request line or headers over 16 KiB with a bare `400` (no error shape), or
  closes the connection, while group ids of up to 32,767 bytes (98 KiB percent-encoded) are
  documented as reachable: the line limit is raised to MAX_REQUEST_LINE_BYTES, and what is
  over it gets the API's error shape;
- daphne reads a whole body before the application sees the request, so a `Content-Length`
  over the body limit held the connection until the body came (or the timeout): it is
  answered 413 as soon as the headers are in.

It also sends each write as it is made when nothing is queued (`project.write_through`), so a
lag pass reaches its first sockets before the last ones are handled.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from daphne import cli, http_protocol
from daphne.access import AccessLogGenerator
from twisted.web import http

from project import write_through

# A path of a group id at the protocol's 32,767 bytes, every byte percent-encoded, plus the
# longest route around it; headers (cookies included) get as much again.
MAX_REQUEST_LINE_BYTES = 128 * 1024
MAX_HEADER_BYTES = 2 * MAX_REQUEST_LINE_BYTES

_SECRET = re.compile(
    r"(?P<name>(?:^|[?&;])[^=&;#]*(?:token|password|passwd|secret|key|auth|credential)[^=&;#]*=)"
    r"(?P<value>[^&;#]*)",
    re.IGNORECASE,
)


def redact(request_line: str) -> str:
    """`GET /api/v1/me?token=abc&x=1` -> `GET /api/v1/me?token=***&x=1`."""
    return _SECRET.sub(lambda m: m["name"] + "***", request_line)


class RedactingAccessLog(AccessLogGenerator):
    def write_entry(self, host: Any, date: Any, request: str, *args: Any, **kwargs: Any) -> None:
        super().write_entry(host, date, redact(request), *args, **kwargs)


def error_response(status: int, reason: str, code: str, message: str, **details: Any) -> bytes:
    """A whole HTTP/1.1 response in the API's error shape, closing the connection."""
    body = json.dumps({"error": {"code": code, "message": message, "details": details}}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


def _answer_and_close(channel: Any, response: bytes) -> None:
    channel.transport.write(response)
    channel.loseConnection()


def _too_large_head(channel: Any) -> None:
    _answer_and_close(
        channel,
        error_response(
            431,
            "Request Header Fields Too Large",
            "request_too_large",
            f"The request line and headers are over {MAX_HEADER_BYTES} bytes "
            f"(a request line at most {MAX_REQUEST_LINE_BYTES}).",
            field="path",
        ),
    )


def _bad_request(channel: Any) -> None:
    _answer_and_close(
        channel,
        error_response(400, "Bad Request", "bad_request", "The request is not valid HTTP/1.1."),
    )


def _early_length_check(request: Any, length: int | None) -> None:
    from console.api.limits import max_request_bytes

    limit = max_request_bytes()
    if length is not None and length > limit:
        _answer_and_close(
            request.channel,
            error_response(
                413,
                "Payload Too Large",
                "payload_too_large",
                f"body: the request body is larger than {limit} bytes.",
                field="body",
                limit=limit,
            ),
        )
        return
    _original_got_length(request, length)


_original_got_length = http_protocol.WebRequest.gotLength


def install() -> None:
    """Apply the limits, the access log and the write-through to daphne and Twisted in this
    process."""
    write_through.install()
    cli.AccessLogGenerator = RedactingAccessLog
    channel: Any = http.HTTPChannel
    channel.MAX_LENGTH = MAX_REQUEST_LINE_BYTES
    channel.totalHeadersSize = MAX_HEADER_BYTES
    # Twisted's own answers to what it cannot take: a bare "400" or a silent close.
    channel._respondToBadRequestAndDisconnect = _bad_request
    channel.lineLengthExceeded = lambda self, line: _too_large_head(self)
    original_line_received = channel.lineReceived

    def line_received(self: Any, line: bytes) -> None:
        # Over the total header size: Twisted calls _respondToBadRequestAndDisconnect, which
        # cannot tell it from malformed HTTP; say which it is.
        if self._receivedHeaderSize + len(line) > self.totalHeadersSize:
            _too_large_head(self)
            return
        original_line_received(self, line)

    channel.lineReceived = line_received
    http_protocol.WebRequest.gotLength = _early_length_check


def daphne_argv(argv: list[str]) -> list[str]:
    """daphne's arguments with the WebSocket message cap of console.ws_frames unless given."""
    from console.ws_frames import SERVER_MESSAGE_CAP_BYTES

    extra = [
        f"{option}={SERVER_MESSAGE_CAP_BYTES}"
        for option in ("--websocket-max-message-size", "--websocket-max-frame-size")
        if not any(arg == option or arg.startswith(option + "=") for arg in argv)
    ]
    return extra + argv


def main() -> None:
    install()
    sys.argv[1:] = daphne_argv(sys.argv[1:])
    cli.CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
