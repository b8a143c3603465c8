"""The request body limit (MAX_REQUEST_BYTES): a 413 naming the body and the limit, from the
body parser (which stops reading one byte past it) and from the ASGI guard, before Django
reads a body at all. No Kafka is asked (`no_kafka`).
"""

from __future__ import annotations

import io
import json

import pytest
from asgiref.testing import ApplicationCommunicator

from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]

TOPICS = "/api/v1/clusters/local/topics"
ELECT = "/api/v1/clusters/local/elect-leaders"


def send(client, method: str, url: str, text: str, content_type: str = "application/json"):
    return client.generic(method, url, text.encode("utf-8", "surrogatepass"), content_type)


def test_a_body_over_the_limit_is_413(admin_client_api):
    big = json.dumps({"name": "x" * (1024 * 1024 + 10), "partitions": 1, "replication_factor": 1})
    assert_error(send(admin_client_api, "POST", TOPICS, big), 413, "payload_too_large")


def test_the_body_limit_is_a_setting(admin_client_api, settings):
    settings.MAX_REQUEST_BYTES = 100
    body = json.dumps({"election": "preferred", "partitions": None, "pad": "x" * 100})
    error = assert_error(send(admin_client_api, "POST", ELECT, body), 413, "payload_too_large")
    assert error["details"] == {"field": "body", "limit": 100}


def test_the_parser_stops_reading_past_the_limit(settings):
    from console.api.parsers import PayloadTooLarge, StrictJSONParser

    settings.MAX_REQUEST_BYTES = 100
    stream = io.BytesIO(b"[" + b"1," * 10_000 + b"1]")  # no Content-Length to go by
    with pytest.raises(PayloadTooLarge):
        StrictJSONParser().parse(stream, "application/json", {})
    assert stream.tell() == 101  # the limit and one byte to tell, not the rest


# --- the ASGI guard: 413 before Django reads the body -----------------------------------------
def _http_scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }


async def _answer(communicator: ApplicationCommunicator) -> tuple[int, dict]:
    start = await communicator.receive_output(timeout=10)
    body = await communicator.receive_output(timeout=10)
    return start["status"], json.loads(body["body"])


async def test_asgi_refuses_a_declared_length_over_the_limit_without_reading_it():
    from project.asgi import application

    scope = _http_scope(ELECT, [(b"content-length", b"%d" % (10 * 1024 * 1024))])
    communicator = ApplicationCommunicator(application, scope)
    # No body is ever sent: the answer comes without reading one.
    status, body = await _answer(communicator)
    assert status == 413 and body["error"]["code"] == "payload_too_large"
    await communicator.wait(timeout=5)


async def test_asgi_stops_reading_a_chunked_body_past_the_limit():
    from project.asgi import application

    communicator = ApplicationCommunicator(application, _http_scope(ELECT, []))
    chunk = b"x" * (600 * 1024)
    await communicator.send_input({"type": "http.request", "body": chunk, "more_body": True})
    await communicator.send_input({"type": "http.request", "body": chunk, "more_body": True})
    status, body = await _answer(communicator)
    assert status == 413 and body["error"]["details"]["field"] == "body"
    await communicator.wait(timeout=5)


async def test_asgi_hands_a_small_body_on_to_django():
    from project.asgi import application

    communicator = ApplicationCommunicator(application, _http_scope(ELECT, []))
    await communicator.send_input({"type": "http.request", "body": b"{}", "more_body": False})
    status, body = await _answer(communicator)
    assert status == 401 and body["error"]["code"] == "not_authenticated"  # Django answered
    await communicator.wait(timeout=5)
