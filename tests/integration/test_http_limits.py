"""What the web server itself answers (project.serve over daphne), on raw sockets: long
request lines get the API's error shape, an oversize Content-Length is answered at once, and
the access log holds no credential."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import quote

import pytest

from tests.live_server import start_console

pytestmark = [pytest.mark.integration]


@pytest.fixture(scope="module")
def console(tmp_path_factory, stack):
    live = start_console(tmp_path_factory.mktemp("http-limits"))
    live.viewer = live.token("limits-viewer", "viewer")
    yield live
    live.stop()


def _raw(console, request: bytes, timeout: float = 10) -> tuple[int, dict, float]:
    host, port = console.base.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = [h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")]
            if length and len(body) >= int(length[0].split(b":")[1]):
                break
    elapsed = time.monotonic() - started
    head, _, body = data.partition(b"\r\n\r\n")
    assert head, f"no answer in {elapsed:.1f}s"
    status = int(head.split(b" ")[1])
    return status, json.loads(body), elapsed


def _get(console, path: str, token: str = "") -> bytes:
    auth = f"Authorization: Token {token}\r\n" if token else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}\r\n".encode()


def test_a_long_group_id_path_reaches_the_api(console):
    group = "g" * 20_000
    path = "/api/v1/clusters/local/groups/" + quote(group, safe="").replace("g", "%67")
    assert len(path) > 60_000  # four times what Twisted took by default
    status, body, _ = _raw(console, _get(console, path, console.viewer))
    assert status == 404 and body["error"]["code"] == "group_not_found", body


def test_a_request_line_over_the_limit_gets_the_error_shape(console):
    status, body, _ = _raw(console, _get(console, "/api/v1/me?x=" + "a" * 200_000))
    assert status == 431 and body["error"]["code"] == "request_too_large"


def test_an_oversize_content_length_is_answered_before_any_body(console):
    request = (
        "POST /api/v1/spark/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Token {console.viewer}\r\nContent-Type: application/json\r\n"
        "Content-Length: 5000000\r\n\r\n"
    ).encode()
    status, body, elapsed = _raw(console, request)
    assert status == 413 and body["error"]["details"]["limit"] == 1024 * 1024
    assert elapsed < 3  # not held until a timeout


def test_a_token_in_a_query_string_is_refused_and_never_logged(console):
    secret = console.viewer
    status, body, _ = _raw(console, _get(console, f"/api/v1/me?token={secret}"))
    assert status in (400, 401), body
    time.sleep(0.5)  # the access log line is written after the response
    log = console.log_path.read_text()
    assert secret not in log
    assert "/api/v1/me?token=***" in log


def test_a_socket_frame_over_the_body_limit_is_answered_and_the_socket_stays(console):
    """The frames' limit is the body limit (1 MiB); the server's cap (4 MiB) is above it, so
    a frame past the limit gets an answer, not a dropped connection (1006)."""
    from websockets.sync.client import connect

    url = console.base.replace("http://", "ws://") + "/ws/clusters/local/lag"
    headers = {"Authorization": f"Token {console.viewer}"}
    with connect(url, additional_headers=headers, max_size=None, open_timeout=10) as socket:
        socket.send(json.dumps({"subscribe": {"groups": ["g" * (1536 * 1024)]}}))
        answer = json.loads(socket.recv(timeout=10))
        assert answer["type"] == "error", answer
        assert answer["error"]["code"] == "payload_too_large"
        assert answer["error"]["details"]["limit"] == 1024 * 1024
        socket.send(json.dumps({"subscribe": {"groups": ["still-open"]}}))
        answer = json.loads(socket.recv(timeout=10))
        assert answer["type"] == "status", answer
