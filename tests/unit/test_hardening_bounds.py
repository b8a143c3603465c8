"""Bad input is a 400 (413, 415) naming the field, changes nothing and reaches no Kafka:
the cases test_hardening_inputs.py did not cover, each its own parameter id.

Kafka is unplugged for every test here (`no_kafka`): a case that got as far as asking Kafka
fails loudly instead of waiting for a timeout.
"""

from __future__ import annotations

import io
import json
import math

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator

from console.audit import record
from console.models import AuditEntry
from groups.models import OffsetReset
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db

TOPICS = "/api/v1/clusters/local/topics"
ELECT = "/api/v1/clusters/local/elect-leaders"
CONFIGS = "/api/v1/clusters/local/topics/t/configs"
PARTITIONS = "/api/v1/clusters/local/topics/t/partitions"
RESETS = "/api/v1/clusters/local/groups/g/offset-resets"


@pytest.fixture(autouse=True)
def no_kafka(monkeypatch):
    from console import kafka
    from console.metadata import cache

    def unplugged(*args, **kwargs):
        raise AssertionError("bad input reached Kafka")

    monkeypatch.setattr(kafka, "for_cluster", unplugged)
    monkeypatch.setattr(cache, "snapshot", unplugged)


def send(client, method: str, url: str, text: str, content_type: str = "application/json"):
    return client.generic(method, url, text.encode("utf-8", "surrogatepass"), content_type)


@pytest.fixture
def executed_reset(db):
    return OffsetReset.objects.create(cluster="local", group_id="g", strategy={}, executed=True)


# --- 1. JSON only ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, url, body, content_type",
    [
        ("POST", "undo", "", "application/x-www-form-urlencoded"),
        ("POST", "execute", "", "multipart/form-data; boundary=B"),
        ("POST", ELECT, '{"election": "unclean", "partitions": null}', "text/plain"),
        ("POST", ELECT, '{"election": "unclean", "partitions": null}', "application/vnd.x+json"),
        ("PATCH", CONFIGS, '{"set": {"retention.ms": "1"}}', "text/json"),
        ("POST", TOPICS, '{"name": "a"}', ""),
    ],
    ids=[
        "undo-empty-form",
        "execute-empty-multipart",
        "text-plain",
        "vendor-json",
        "text-json",
        "no-type",
    ],
)
def test_only_json_bodies(admin_client_api, executed_reset, method, url, body, content_type):
    if url in ("undo", "execute"):
        url = f"/api/v1/offset-resets/{executed_reset.pk}/{url}"
    error = assert_error(send(admin_client_api, method, url, body, content_type), 415)
    assert error["code"] == "unsupported_media_type"
    assert error["details"]["field"] == "body"
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("body", ["null", "[]", '"x"', "0"], ids=["null", "list", "string", "zero"])
def test_a_reset_action_body_is_an_object_or_nothing(operator_client, executed_reset, body):
    url = f"/api/v1/offset-resets/{executed_reset.pk}/undo"
    error = assert_error(send(operator_client, "POST", url, body), 400)
    assert error["details"]["field"] == "body"
    assert OffsetReset.objects.count() == 1  # no undo was made


# --- 2. body shape and size -----------------------------------------------------------------


@pytest.mark.parametrize(
    "method, url, text, field",
    [
        (
            "POST",
            ELECT,
            '{"election": "unclean", "partitions": [{"topic": "t", "partition": 0}], '
            '"partitions": null}',
            "partitions",
        ),
        (
            "PATCH",
            CONFIGS,
            '{"set": {"retention.ms": "1", "retention.ms": "2"}}',
            "set.retention.ms",
        ),
        (
            "POST",
            TOPICS,
            '{"name": "bad\\ud800", "partitions": 1, "replication_factor": 1}',
            "name",
        ),
        ("PATCH", CONFIGS, '{"set": {"retention.ms": "\\udfff"}}', "set.retention.ms"),
        ("PATCH", CONFIGS, '{"delete": ["a", "\\ud800"]}', "delete[1]"),
        ("POST", TOPICS, "\ufeff{}", "body"),
        ("POST", TOPICS, "{", "body"),
    ],
    ids=[
        "repeated-key",
        "repeated-nested-key",
        "surrogate-name",
        "surrogate-value",
        "surrogate-in-list",
        "bom",
        "truncated",
    ],
)
def test_unreadable_bodies_name_the_field(admin_client_api, method, url, text, field):
    error = assert_error(send(admin_client_api, method, url, text), 400, "parse_error")
    assert error["details"]["field"] == field, error
    assert not AuditEntry.objects.exists()


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


# --- the ASGI guard: 413 before Django reads the body ----------------------------------------


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
    from console.asgi import application

    scope = _http_scope(ELECT, [(b"content-length", b"%d" % (10 * 1024 * 1024))])
    communicator = ApplicationCommunicator(application, scope)
    # No body is ever sent: the answer comes without reading one.
    status, body = await _answer(communicator)
    assert status == 413 and body["error"]["code"] == "payload_too_large"
    await communicator.wait(timeout=5)


async def test_asgi_stops_reading_a_chunked_body_past_the_limit():
    from console.asgi import application

    communicator = ApplicationCommunicator(application, _http_scope(ELECT, []))
    chunk = b"x" * (600 * 1024)
    await communicator.send_input({"type": "http.request", "body": chunk, "more_body": True})
    await communicator.send_input({"type": "http.request", "body": chunk, "more_body": True})
    status, body = await _answer(communicator)
    assert status == 413 and body["error"]["details"]["field"] == "body"
    await communicator.wait(timeout=5)


async def test_asgi_hands_a_small_body_on_to_django():
    from console.asgi import application

    communicator = ApplicationCommunicator(application, _http_scope(ELECT, []))
    await communicator.send_input({"type": "http.request", "body": b"{}", "more_body": False})
    status, body = await _answer(communicator)
    assert status == 401 and body["error"]["code"] == "not_authenticated"  # Django answered
    await communicator.wait(timeout=5)


# --- 2. Kafka-bound text and 3. numbers -----------------------------------------------------


@pytest.mark.parametrize(
    "method, url, body, field",
    [
        (
            "POST",
            TOPICS,
            {"name": "a", "partitions": 2**31 - 1, "replication_factor": 1},
            "partitions",
        ),
        (
            "POST",
            TOPICS,
            {"name": "a", "partitions": 100_001, "replication_factor": 1},
            "partitions",
        ),
        ("POST", PARTITIONS, {"count": 2**31 - 1}, "count"),
        ("POST", PARTITIONS, {"count": 1e300}, "count"),
        ("PATCH", CONFIGS, {"set": {"retention.ms": "1" * 30_001}}, "set.retention.ms"),
        ("PATCH", CONFIGS, {"set": {"cleanup.policy": "é" * 16_000}}, "set.cleanup.policy"),
        ("PATCH", CONFIGS, {"set": {"k" * 256: "1"}}, "set"),
        ("PATCH", CONFIGS, {"set": {"retention.ms\x7f": "1"}}, "set"),
        ("PATCH", CONFIGS, {"delete": ["retention.ms\t"]}, "delete"),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t\r", "partition": 0}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t", "partition": -1}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t", "partition": True}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": {"topic": "t", "partition": 0}},
            "partitions",
        ),
    ],
    ids=[
        "partitions-int32-max",
        "partitions-over-librdkafka-cap",
        "count-int32-max",
        "count-1e300",
        "value-over-30000-bytes",
        "value-multibyte-32000-bytes",
        "key-256-chars",
        "key-with-del",
        "delete-key-with-tab",
        "elect-topic-with-cr",
        "elect-negative-partition",
        "elect-boolean-partition",
        "elect-object-not-list",
    ],
)
def test_kafka_bound_values_are_bounded(admin_client_api, method, url, body, field):
    response = admin_client_api.generic(method, url, json.dumps(body), "application/json")
    error = assert_error(response, 400)
    assert error["details"]["field"].startswith(field), error
    entry = AuditEntry.objects.get()  # refused, and audited as such
    assert entry.outcome == "refused"


@pytest.mark.parametrize(
    "strategy, field",
    [
        (
            {"type": "by_duration", "duration": "-P1000000000000000000000000000000D"},
            "strategy.duration",
        ),
        (
            {"type": "by_duration", "duration": "PT-99999999999999999999999999S"},
            "strategy.duration",
        ),
        ({"type": "by_duration", "duration": "-P3000000D"}, "strategy.duration"),
        ({"type": "to_datetime", "datetime": "1970-01-01T01:00:00+02:00"}, "strategy.datetime"),
        ({"type": "to_datetime", "datetime": "1970-01-01T00:30:00+01:00"}, "strategy.datetime"),
        ({"type": "to_offset", "offset": 10**30}, "strategy.offset"),
        ({"type": "to_offset", "offset": "1e400"}, "strategy.offset"),
        ({"type": "shift_by", "shift": 2**63}, "strategy.shift"),
        ({"type": "from_file", "csv": "t" * 200_000 + ",0,1"}, "strategy.csv"),
        ({"type": "from_file", "csv": "t\x01x,0,1"}, "strategy.csv"),
        ({"type": "from_file", "csv": "t,0,1\n" * 90_000}, "strategy.csv"),
    ],
    ids=[
        "future-duration-huge",
        "negative-seconds-huge",
        "past-year-9999",
        "before-1970-with-offset",
        "1970-in-utc-but-before",
        "offset-1e30",
        "offset-text-1e400",
        "shift-2-63",
        "csv-field-over-csv-module-limit",
        "csv-topic-control-char",
        "csv-over-512-kib",
    ],
)
def test_reset_strategies_are_bounded(operator_client, strategy, field):
    body = {"scope": {"all_topics": True}, "strategy": strategy}
    error = assert_error(operator_client.post(RESETS, body, format="json"), 400)
    assert error["details"]["field"] == field, error
    assert not OffsetReset.objects.exists()


def test_a_reset_needs_a_group_id_the_database_can_keep(operator_client):
    url = "/api/v1/clusters/local/groups/" + "g" * 256 + "/offset-resets"
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}}
    error = assert_error(operator_client.post(url, body, format="json"), 400)
    assert error["details"]["field"] == "group"
    assert AuditEntry.objects.get().outcome == "refused"


# --- 3. query strings, 4. paths -------------------------------------------------------------


@pytest.mark.parametrize(
    "url, field",
    [
        ("/api/v1/audit?limit=%C2%B2", "limit"),  # "²": isdigit() but not a number
        ("/api/v1/audit?before_id=%C2%B2", "before_id"),
        ("/api/v1/audit?limit=" + "9" * 5000, "limit"),
        ("/api/v1/audit?limit=%EF%BC%95", "limit"),  # a fullwidth 5
        ("/api/v1/audit?limit=1001", "limit"),
        ("/api/v1/audit?before_id=9223372036854775808", "before_id"),
        ("/api/v1/audit?since=9999-12-31T23:59:59-23:59", "since"),
        ("/api/v1/audit?since=0001-01-01T00:00:00%2B01:00", "since"),
        ("/api/v1/audit?since=2026-01-01T00:00:00", "since"),
        ("/api/v1/audit?actor=a%00b", "actor"),
        ("/api/v1/audit?action=x%0D%0Ay", "action"),
        ("/api/v1/clusters/local/topics?search=a%09b", "search"),
        ("/api/v1/clusters/local/topics?include_internal=yes", "include_internal"),
        ("/api/v1/clusters/local/topics?include_internal=TRUE%00", "include_internal"),
        ("/api/v1/offset-resets/99999999999999999999", "reset_id"),
        ("/api/v1/clusters/local/groups/" + "N" * 32_768, "group"),
        ("/api/v1/clusters/local/groups/" + "%C3%A9" * 16_384 + "/offsets.csv", "group"),
        ("/api/v1/clusters/local/groups/a%0Ab/offset-resets", "group"),
        ("/api/v1/clusters/local/topics/t%7F", "topic"),
        ("/api/v1/clusters/lo%00cal/brokers", "cluster"),
    ],
    ids=[
        "limit-superscript",
        "cursor-superscript",
        "limit-5000-digits",
        "limit-fullwidth",
        "limit-over-max",
        "cursor-over-int64",
        "since-past-9999-in-utc",
        "since-before-year-1-in-utc",
        "since-without-zone",
        "actor-nul",
        "action-crlf",
        "search-tab",
        "bool-yes",
        "bool-nul",
        "reset-id-over-int64",
        "group-over-32767-bytes",
        "group-multibyte-over-32767-bytes",
        "group-lf-resets",
        "topic-del",
        "cluster-nul",
    ],
)
def test_bad_query_and_path_values(operator_client, url, field):
    error = assert_error(operator_client.get(url), 400)
    assert error["details"]["field"] == field, error


def test_audit_paging_defaults_and_bounds(operator_client):
    for _ in range(105):
        record(actor="a", action="x", outcome="ok")
    assert len(operator_client.get("/api/v1/audit").json()) == 100
    assert len(operator_client.get("/api/v1/audit?limit=").json()) == 100
    assert len(operator_client.get("/api/v1/audit?limit=1000").json()) == 105
    since = operator_client.get("/api/v1/audit?since=2000-01-01T00:00:00%2B14:00&limit=3")
    assert since.status_code == 200 and len(since.json()) == 3


# --- 6. the audit log stores anything, bounded ----------------------------------------------


def test_audit_entries_hold_no_nul_and_any_json():
    entry = record(
        actor="a\x00b",
        action="topic.create",
        outcome="refused",
        target="t\x00" + "x" * 600,
        request={"name": "a\x00b", "k\x00": ["\ud800"], "n": math.nan},
        details={"tuple": (1, 2), "set": {3}, (1, 2): "key", "error": ValueError("boom")},
    )
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert stored.actor == "a\\x00b"
    assert "\x00" not in stored.target and len(stored.target) == 512
    assert stored.request == {"name": "a\\x00b", "k\\x00": ["\\ud800"], "n": "nan"}
    assert stored.details == {"tuple": [1, 2], "set": [3], "(1, 2)": "key", "error": "boom"}


def test_a_refused_body_with_nul_is_audited_storably(admin_client_api):
    body = {"name": "a\x00b", "partitions": 1, "replication_factor": 1, "note": "\x00"}
    assert_error(admin_client_api.post(TOPICS, body, format="json"), 400)
    entry = AuditEntry.objects.get()
    assert entry.target == "a\\x00b" and entry.request["note"] == "\\x00"


def test_a_large_request_is_kept_as_a_marked_preview():
    entry = record(actor="a", action="x", outcome="ok", request={"csv": "t,0,1\n" * 10_000})
    stored = AuditEntry.objects.get(pk=entry.pk).request
    assert stored["_truncated"] is True and stored["_bytes"] > 60_000
    assert stored["preview"].endswith("…[truncated]")


# --- 7. unknown WebSocket paths -------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/ws/clusters/local/lag/x", "/ws/clusters/local/nothing", "/ws/", "/ws/%00/x"],
    ids=["below-the-lag-socket", "no-such-socket", "root", "odd-bytes"],
)
async def test_unknown_websocket_paths_close_with_4404(path):
    from console.asgi import application

    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]
    )
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await communicator.wait()


# --- 8. the schema documents the errors and the audit paging -------------------------------


def test_every_operation_documents_its_error_answers(viewer_client):
    response = viewer_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            responses = operation["responses"]
            for code in ("400", "401", "403"):
                assert responses[code]["content"]["application/json"]["schema"] == error_ref
            if "requestBody" in operation:
                assert {"413", "415"} <= set(responses), (method, path)
            if "{cluster}" in path:
                assert {"502", "504"} <= set(responses), (method, path)
    audit = schema["paths"]["/api/v1/audit"]["get"]
    params = {p["name"]: p for p in audit["parameters"]}
    assert {"limit", "before_id", "since", "actor", "action", "cluster"} <= set(params)
    assert "1..1000" in params["limit"]["description"]
    reset_id = schema["paths"]["/api/v1/offset-resets/{reset_id}"]["get"]["parameters"][0]
    assert reset_id["schema"]["maximum"] == 2**63 - 1
