"""Bad input never reaches Kafka and never answers 500: each case a regression test.

All of these are refused before any Kafka call, so they need no cluster; the integration
suite checks the same rules where Kafka is involved.
"""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from console.audit import TRUNCATED, record
from console.models import AuditEntry
from groups.api.views import content_disposition
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db

TOPICS = "/api/v1/clusters/local/topics"
ELECT = "/api/v1/clusters/local/elect-leaders"
CONFIGS = "/api/v1/clusters/local/topics/t/configs"
RESETS = "/api/v1/clusters/local/groups/g/offset-resets"


def raw_post(client, url: str, text: str, content_type: str = "application/json"):
    return client.generic("POST", url, text.encode("utf-8", "surrogatepass"), content_type)


@pytest.mark.parametrize(
    "url, body, content_type",
    [
        (ELECT, "election=unclean&partitions=t:0", "application/x-www-form-urlencoded"),
        (CONFIGS, "set=retention.ms%3D1", "application/x-www-form-urlencoded"),
        (TOPICS, "name=a&partitions=1&replication_factor=1", "application/x-www-form-urlencoded"),
        (
            TOPICS,
            '--B\r\nContent-Disposition: form-data; name="name"; filename="f.txt"\r\n'
            "\r\nx\r\n--B--\r\n",
            "multipart/form-data; boundary=B",
        ),
        ("/api/v1/offset-resets/{id}/undo", "reason=x", "application/x-www-form-urlencoded"),
        (
            RESETS,
            '--B\r\nContent-Disposition: form-data; name="reason"; filename="f.txt"\r\n'
            "\r\nx\r\n--B--\r\n",
            "multipart/form-data; boundary=B",
        ),
    ],
    ids=[
        "elect-form",
        "configs-form",
        "create-form",
        "create-multipart",
        "undo-form",
        "reset-file",
    ],
)
def test_writes_accept_json_only(admin_client_api, url, body, content_type):
    if "{id}" in url:
        from groups.models import OffsetReset

        reset = OffsetReset.objects.create(
            cluster="local", group_id="g", strategy={}, executed=True
        )
        url = url.format(id=reset.pk)
    method = "PATCH" if url == CONFIGS else "POST"
    response = admin_client_api.generic(method, url, body.encode(), content_type)
    assert_error(response, 415, "unsupported_media_type")


def test_a_body_over_the_limit_is_413(admin_client_api):
    big = json.dumps({"name": "x" * (1024 * 1024 + 10), "partitions": 1, "replication_factor": 1})
    assert_error(raw_post(admin_client_api, TOPICS, big), 413, "payload_too_large")


@pytest.mark.parametrize(
    "text",
    ['{"a":' * 5000 + "1" + "}" * 5000, "[" * 100000, '{"a":' * 40 + "1" + "}" * 40],
    ids=["5000-objects", "100000-arrays", "40-levels"],
)
def test_deep_nesting_is_a_400_not_a_recursion_error(admin_client_api, text):
    error = assert_error(raw_post(admin_client_api, TOPICS, text), 400)
    assert "nested" in error["message"]


def test_a_lone_surrogate_is_refused(admin_client_api):
    text = '{"name": "bad\\ud800name", "partitions": 1, "replication_factor": 1}'
    error = assert_error(raw_post(admin_client_api, TOPICS, text), 400)
    assert "surrogate" in error["message"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "a\u0000b", "partitions": 1, "replication_factor": 1}, "name"),
        ({"name": "a\nb", "partitions": 1, "replication_factor": 1}, "name"),
        ({"name": "a", "partitions": 2147483648, "replication_factor": 1}, "partitions"),
        ({"name": "a", "partitions": 10**30, "replication_factor": 1}, "partitions"),
        ({"name": "a", "partitions": 1, "replication_factor": 40000}, "replication_factor"),
        (
            {"name": "a", "partitions": 1, "replication_factor": 1, "configs": {"k\u0000j": "1"}},
            "configs",
        ),
        (
            {"name": "a", "partitions": 1, "replication_factor": 1, "configs": {"k": "v" * 40000}},
            "configs",
        ),
    ],
    ids=["nul-name", "newline-name", "int32+1", "1e30", "rf-over-int16", "nul-key", "long-value"],
)
def test_topic_create_bounds(admin_client_api, body, field):
    error = assert_error(admin_client_api.post(TOPICS, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error


@pytest.mark.parametrize("number", ["1e400", "NaN", "-Infinity"])
def test_numbers_json_cannot_hold_are_a_400(admin_client_api, number):
    text = f'{{"name": "a", "partitions": {number}, "replication_factor": 1}}'
    error = assert_error(raw_post(admin_client_api, TOPICS, text), 400, "parse_error")
    assert error["message"].startswith("body:")
    assert not AuditEntry.objects.exists()  # nothing read, nothing stored


@pytest.mark.parametrize(
    "body, field",
    [
        ({"set": {"retention.ms\u0000junk": "7200000"}}, "set"),
        ({"delete": ["retention.ms", "retention.ms"]}, "delete"),
        ({"set": {"retention.ms": "1\r\n"}}, "set"),
    ],
    ids=["nul-in-key", "delete-twice", "crlf-in-value"],
)
def test_config_patch_bounds(admin_client_api, body, field):
    error = assert_error(admin_client_api.patch(CONFIGS, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error


@pytest.mark.parametrize(
    "body, field",
    [
        ({"election": "unclean"}, "partitions"),
        ({"election": "unclean", "partitions": [None]}, "partitions"),
        ({"election": "unclean", "partitions": "t:0"}, "partitions"),
        ({"election": "unclean", "partitions": []}, "partitions"),
        (
            {"election": "preferred", "partitions": [{"topic": "t", "partition": 0}] * 2},
            "partitions",
        ),
        (
            {"election": "preferred", "partitions": [{"topic": "t", "partition": 2**31}]},
            "partitions",
        ),
    ],
    ids=["missing", "null-item", "string", "empty", "duplicate", "partition-over-int32"],
)
def test_elect_leaders_never_reads_a_bad_field_as_all(admin_client_api, body, field):
    error = assert_error(admin_client_api.post(ELECT, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error


def test_add_partitions_count_bounds(admin_client_api):
    for count in (2**31, 2**63, 0):
        response = admin_client_api.post(
            "/api/v1/clusters/local/topics/t/partitions", {"count": count}, format="json"
        )
        assert assert_error(response, 400)["details"]["field"] == "count"


@pytest.mark.parametrize(
    "strategy, field",
    [
        ({"type": "to_datetime", "datetime": "1969-12-31T23:59:59Z"}, "strategy.datetime"),
        ({"type": "to_datetime", "datetime": "0001-01-01T00:00:00Z"}, "strategy.datetime"),
        (
            {"type": "by_duration", "duration": "P1000000000000000000000000000000D"},
            "strategy.duration",
        ),
        ({"type": "to_offset", "offset": 2**63}, "strategy.offset"),
        ({"type": "shift_by", "shift": -(2**63) - 1}, "strategy.shift"),
        ({"type": "from_file", "csv": "t,0,1\n" * 100000}, "strategy.csv"),
    ],
    ids=[
        "before-1970",
        "year-1",
        "huge-duration",
        "offset-over-int64",
        "shift-under-int64",
        "huge-csv",
    ],
)
def test_reset_inputs_out_of_range(operator_client, strategy, field):
    body = {"scope": {"all_topics": True}, "strategy": strategy}
    error = assert_error(operator_client.post(RESETS, body, format="json"), 400)
    assert error["details"]["field"] == field, error


@pytest.mark.parametrize(
    "url, field",
    [
        ("/api/v1/clusters/local/groups/%00", "group"),
        ("/api/v1/clusters/local/groups/a%09b/offsets.csv", "group"),
        ("/api/v1/clusters/local/topics?include_internal=maybe", "include_internal"),
        ("/api/v1/audit?limit=-1", "limit"),
        ("/api/v1/audit?limit=0", "limit"),
        ("/api/v1/audit?since=0000-01-01T00:00:00Z", "since"),
        ("/api/v1/audit?before_id=x", "before_id"),
    ],
    ids=[
        "nul-group",
        "tab-group",
        "maybe-bool",
        "limit-negative",
        "limit-zero",
        "year-0",
        "cursor",
    ],
)
def test_bad_query_and_path_values_are_400(operator_client, url, field):
    error = assert_error(operator_client.get(url), 400)
    assert error["details"]["field"] == field


def test_unknown_api_paths_answer_json_404_even_for_token_writes(operator_client):
    for method in ("GET", "POST", "DELETE"):
        response = operator_client.generic(
            method, "/api/v1/no/such/thing", b"{}", "application/json"
        )
        assert_error(response, 404, "not_found")


async def test_unknown_websocket_paths_close_with_a_code():
    from console.asgi import application

    communicator = WebsocketCommunicator(
        application,
        "/ws/clusters/local/nothing-here",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")],
    )
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_output(timeout=5)
    assert message == {"type": "websocket.close", "code": 4404}
    await communicator.wait()


def test_audit_entries_are_bounded():
    entry = record(
        actor="ada",
        action="topic.create",
        outcome="refused",
        target="t" * 1_000_000,
        request={"name": "x" * 2_500_000},
    )
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert len(stored.target) == 512 and stored.target.endswith(TRUNCATED)
    assert stored.request["_truncated"] is True and stored.request["_bytes"] > 2_500_000
    assert len(json.dumps(stored.request)) < 4096


def test_audit_list_pages_with_before_id(operator_client):
    ids = [record(actor="a", action="x", outcome="ok").pk for _ in range(5)]
    first = operator_client.get("/api/v1/audit?limit=2").json()
    assert [e["id"] for e in first] == ids[::-1][:2]
    nxt = operator_client.get(f"/api/v1/audit?limit=2&before_id={first[-1]['id']}").json()
    assert [e["id"] for e in nxt] == ids[::-1][2:4]


@pytest.mark.parametrize(
    "group",
    ['q"uote', "semi;colon", "a/b", "üñí", "crlf\r\nX-Injected: 1"],
)
def test_csv_download_header_is_safe_for_any_group_id(group):
    header = content_disposition(f"{group}-offsets.csv")
    assert "\r" not in header and "\n" not in header
    fallback = header.split('filename="', 1)[1].split('"', 1)[0]
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in fallback)
    assert "filename*=UTF-8''" in header
