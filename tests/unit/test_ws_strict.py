"""The WebSockets as strict as the REST API: the handshake's Origin compared exactly (scheme,
host and port) with the console's own origin and CSRF_TRUSTED_ORIGINS, and client frames
read by the REST body reader (no key twice, depth, NaN, lone surrogates, size), unknown keys
named. Through the real ASGI stack (auth, origin check, routing), in-memory channel layer."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from console.ws_frames import SERVER_MESSAGE_CAP_BYTES, frame_limit
from groups.lag import store as lag_store

ROOT = Path(__file__).resolve().parents[2]
METADATA = "/ws/clusters/local/metadata"
LAG = "/ws/clusters/local/lag"
HOST = (b"host", b"127.0.0.1:8000")
OWN = "http://127.0.0.1:8000"
STATUS = {"type": "status", "live": True}

sockets = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def console(settings, monkeypatch) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.LAG_SAMPLE_SECONDS = 5.0
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    # Not the console's own origin: what passes below passes as its own, or as listed here.
    settings.CSRF_TRUSTED_ORIGINS = ["https://trusted.example", "https://*.corp.example"]
    settings.HTTPS = False
    monkeypatch.setattr(lag_store, "read_latest", lambda cluster: {})


@pytest.fixture
def session_cookie(settings, viewer_client) -> tuple[bytes, bytes]:
    """The Cookie header of a signed-in viewer's browser."""
    browser = Client()
    browser.force_login(viewer_client.user)
    name = settings.SESSION_COOKIE_NAME
    return (b"cookie", f"{name}={browser.cookies[name].value}".encode())


@pytest.fixture
def token(viewer_client) -> str:
    return Token.objects.get(user=viewer_client.user).key


def _with_scheme(scheme: str):
    from project.asgi import application

    async def app(scope, receive, send):
        return await application({**scope, "scheme": scheme}, receive, send)

    return app


async def _open(path: str, headers: list, scheme: str = "ws") -> WebsocketCommunicator:
    socket = WebsocketCommunicator(_with_scheme(scheme), path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    assert connected  # accepted, then closed with a code: browsers see the code
    return socket


async def _refused_for_origin(socket: WebsocketCommunicator) -> dict:
    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["error"]["code"] == "origin_refused", error
    assert error["error"]["details"] == {"field": "origin"}
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == 4403, closed
    return error["error"]


async def _accepted(socket: WebsocketCommunicator) -> None:
    assert await socket.receive_json_from(timeout=5) == STATUS
    await socket.disconnect()


# --- the handshake's Origin -----------------------------------------------------------------


@sockets
@pytest.mark.parametrize(
    "origin",
    ["http://127.0.0.1:9999", "https://localhost:4443", "http://testserver", "null", ""],
    ids=["other-port", "other-scheme-host-port", "allowed-host-other-site", "null", "empty"],
)
async def test_a_session_socket_from_another_origin_is_closed_with_4403(session_cookie, origin):
    socket = await _open(METADATA, [HOST, session_cookie, (b"origin", origin.encode())])
    error = await _refused_for_origin(socket)
    assert "CSRF_TRUSTED_ORIGINS" in error["message"]


@sockets
async def test_the_consoles_own_origin_is_accepted(session_cookie):
    await _accepted(await _open(METADATA, [HOST, session_cookie, (b"origin", OWN.encode())]))
    # The host as the browser sent it, without a port too.
    headers = [(b"host", b"localhost"), session_cookie, (b"origin", b"http://localhost")]
    await _accepted(await _open(METADATA, headers))


@sockets
@pytest.mark.parametrize(
    "origin",
    [
        "https://127.0.0.1:8000",
        "http://127.0.0.1:8001",
        "http://127.0.0.1",
        "http://localhost:8000",
    ],
    ids=["wrong-scheme", "wrong-port", "no-port", "other-allowed-host"],
)
async def test_wrong_scheme_port_or_host_is_refused(session_cookie, origin):
    socket = await _open(METADATA, [HOST, session_cookie, (b"origin", origin.encode())])
    await _refused_for_origin(socket)


@sockets
async def test_over_tls_the_own_origin_is_https(settings, session_cookie):
    host = (b"host", b"localhost:4443")
    secure = [host, session_cookie, (b"origin", b"https://localhost:4443")]
    await _accepted(await _open(METADATA, secure, scheme="wss"))
    plain = [host, session_cookie, (b"origin", b"http://localhost:4443")]
    await _refused_for_origin(await _open(METADATA, plain, scheme="wss"))
    # Behind a TLS proxy: its X-Forwarded-Proto, once trusted (TRUST_X_FORWARDED_PROTO).
    forwarded = [*secure, (b"x-forwarded-proto", b"https")]
    await _refused_for_origin(await _open(METADATA, forwarded))
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    await _accepted(await _open(METADATA, forwarded))
    settings.SECURE_PROXY_SSL_HEADER = None
    settings.HTTPS = True  # served over https only: its pages' origin is https
    await _accepted(await _open(METADATA, secure))
    await _refused_for_origin(await _open(METADATA, plain))


@sockets
async def test_a_host_not_allowed_is_no_own_origin(session_cookie):
    # DNS rebinding: evil.example resolving to the console is no origin of the console.
    headers = [(b"host", b"evil.example"), session_cookie, (b"origin", b"http://evil.example")]
    await _refused_for_origin(await _open(METADATA, headers))


@sockets
@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("https://trusted.example", True),
        ("https://a.corp.example", True),
        ("https://corp.example", True),
        ("http://trusted.example", False),
        ("https://trusted.example:8443", False),
        ("https://trusted.example.evil", False),
        ("https://a.corp.example:8443", False),
    ],
)
async def test_csrf_trusted_origins_are_accepted_exactly(session_cookie, origin, accepted):
    socket = await _open(METADATA, [HOST, session_cookie, (b"origin", origin.encode())])
    if accepted:
        await _accepted(socket)
    else:
        await _refused_for_origin(socket)


@sockets
async def test_a_token_client_without_origin_is_accepted(token):
    header = [HOST, (b"authorization", f"Token {token}".encode())]
    await _accepted(await _open(METADATA, header))
    await _accepted(await _open(f"{METADATA}?token={token}", [HOST]))


@sockets
async def test_a_token_client_from_another_origin_is_refused(token):
    headers = [HOST, (b"authorization", f"Token {token}".encode()), (b"origin", b"http://x.test")]
    await _refused_for_origin(await _open(METADATA, headers))


@sockets
async def test_a_session_client_without_origin_is_refused(session_cookie):
    error = await _refused_for_origin(await _open(METADATA, [HOST, session_cookie]))
    assert "Origin" in error["message"]
    # A session with a token it did not use: still the session that authenticates.
    headers = [HOST, session_cookie, (b"authorization", b"Token not-a-token")]
    await _refused_for_origin(await _open(METADATA, headers))


@sockets
async def test_no_credentials_and_no_origin_is_4401(token):
    for path in (METADATA, f"{METADATA}?token=not-a-token"):
        socket = await _open(path, [HOST])
        assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


@sockets
async def test_two_origin_headers_are_refused(session_cookie):
    origin = (b"origin", OWN.encode())
    await _refused_for_origin(await _open(METADATA, [HOST, session_cookie, origin, origin]))


@sockets
async def test_the_lag_socket_checks_the_origin_too(session_cookie):
    socket = await _open(LAG, [HOST, session_cookie, (b"origin", b"http://127.0.0.1:9999")])
    await _refused_for_origin(socket)


# --- client frames --------------------------------------------------------------------------


async def _lag_socket(token: str) -> WebsocketCommunicator:
    return await _open(f"{LAG}?token={token}", [HOST, (b"origin", OWN.encode())])


async def _error(socket: WebsocketCommunicator, text: str | None = None, **frame) -> dict:
    await socket.send_to(text_data=text, **frame)
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "error", answer
    assert set(answer["error"]) == {"code", "message", "details"}, answer
    return answer["error"]


async def _still_open(socket: WebsocketCommunicator) -> None:
    await socket.send_json_to({"subscribe": {"groups": ["g"]}})
    status = await socket.receive_json_from(timeout=5)
    assert status["type"] == "status" and status["live"] is True, status
    await socket.disconnect()


@sockets
@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"subscribe": {"all": true}, "subscribe": {"groups": ["g"]}}', "subscribe"),
        ('{"subscribe": {"groups": ["g"], "groups": []}}', "subscribe.groups"),
    ],
    ids=["top-level", "nested"],
)
async def test_a_key_given_twice_is_refused_and_the_socket_stays(token, text, field):
    socket = await _lag_socket(token)
    error = await _error(socket, text)
    assert error["code"] == "bad_request"
    assert error["message"] == f"{field}: given twice in one object."
    assert error["details"]["field"] == field
    await _still_open(socket)


@sockets
@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"subscribe": {"all": True}, "extra": 1}, "extra"),
        ({"subscribe": {"all": True, "group": ["g"]}}, "subscribe.group"),
        ({"subscribe": {"groups": ["g"]}, "type": "subscribe"}, "type"),
    ],
    ids=["top-level", "nested-typo", "type"],
)
async def test_an_unknown_key_is_refused_by_name(token, frame, field):
    socket = await _lag_socket(token)
    error = await _error(socket, json.dumps(frame))
    assert error["code"] == "bad_request" and error["details"]["field"] == field
    assert error["message"].startswith(f"{field}: unknown field (this object takes: ")
    await _still_open(socket)


@sockets
async def test_an_oversize_frame_is_answered_and_the_socket_stays(token):
    limit = frame_limit()
    assert limit == 1024 * 1024  # the REST body limit (MAX_REQUEST_BYTES, by default)
    socket = await _lag_socket(token)
    big = '{"subscribe": {"groups": ["' + "g" * limit + '"]}}'
    error = await _error(socket, big)
    assert error["code"] == "payload_too_large"
    assert error["details"] == {"field": "frame", "limit": limit}
    # Counted in UTF-8 bytes, as a body is: fewer characters than the limit, twice the bytes.
    error = await _error(socket, '{"subscribe": {"groups": ["' + "é" * (limit // 2) + '"]}}')
    assert error["code"] == "payload_too_large"
    # Exactly the limit is read.
    exact = '{"subscribe": {"groups": ["g"]}}'
    await socket.send_to(text_data=exact + " " * (limit - len(exact)))
    assert (await socket.receive_json_from(timeout=5))["live"] is True
    await _still_open(socket)


@sockets
async def test_a_smaller_max_request_bytes_bounds_frames_too(settings, token):
    settings.MAX_REQUEST_BYTES = 100
    socket = await _lag_socket(token)
    error = await _error(socket, json.dumps({"subscribe": {"groups": ["g" * 100]}}))
    assert error["code"] == "payload_too_large" and error["details"]["limit"] == 100
    await _still_open(socket)


def test_the_servers_message_cap_is_above_the_frame_limit():
    # Daphne (autobahn) drops a connection whose message exceeds its cap before the console
    # sees it (close code 1006): every frame over the console's limit must get under the cap
    # to be answered. Read as the Procfile starts daphne (directly or through a wrapper that
    # hands its arguments to daphne's command line), with daphne's own defaults.
    from daphne.cli import CommandLineInterface

    web = next(
        line.split(":", 1)[1]
        for line in (ROOT / "Procfile").read_text().splitlines()
        if line.startswith("web:")
    )
    argv = shlex.split(web)
    assert argv[argv.index("-m") + 1] == "project.serve", web
    from project.serve import daphne_argv

    args = CommandLineInterface().parser.parse_args(daphne_argv(argv[argv.index("-m") + 2 :]))
    assert args.application == "project.asgi:application"
    for cap in (args.websocket_max_message_size, args.websocket_max_frame_size):
        assert cap == SERVER_MESSAGE_CAP_BYTES > frame_limit(), cap


@sockets
@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ('{"subscribe": {"groups": [NaN]}}', "frame", "NaN is not JSON"),
        ('{"subscribe": {"groups": [1e400]}}', "frame", "out of range"),
        ('{"subscribe": {"groups": ["\\ud800"]}}', "subscribe.groups[0]", "lone surrogate"),
        ('{"subscribe": {"groups": ' + "[" * 40 + "]" * 40 + "}}", "frame", "deeper than 32"),
        ("[" * 100_000, "frame", "deeper than 32"),
        ("not json", "frame", "not valid JSON"),
        ("[1]", "frame", "must be an object"),
        ('{"subscribe": {"groups": [1]}}', "subscribe.groups[0]", "must be text"),
        ('{"subscribe": {"all": "true"}}', "subscribe.all", "must be true or false"),
        ('{"subscribe": {"all": 1}}', "subscribe.all", "must be true or false"),
        ("{}", "subscribe", 'Send {"subscribe"'),
    ],
)
async def test_frames_are_read_like_request_bodies(token, text, field, words):
    socket = await _lag_socket(token)
    error = await _error(socket, text)
    assert error["code"] == "bad_request" and error["details"]["field"] == field, error
    assert words in error["message"], error
    await _still_open(socket)


@sockets
async def test_a_binary_frame_is_refused(token):
    socket = await _lag_socket(token)
    error = await _error(socket, bytes_data=b'{"subscribe": {"all": true}}')
    assert error["code"] == "bad_request" and "text frame" in error["message"]
    await _still_open(socket)
