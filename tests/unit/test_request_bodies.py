"""Request bodies: JSON only (any other content type is a 415), and JSON that reads one way
only (a key twice, a lone surrogate, a byte-order mark, cut short, nested too deep, a number
JSON cannot hold): a 400 naming the field. Either way nothing changes, and no Kafka is asked
(`no_kafka`).
"""

from __future__ import annotations

import pytest

from console.models import AuditEntry
from groups.models import OffsetReset
from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]

TOPICS = "/api/v1/clusters/local/topics"
ELECT = "/api/v1/clusters/local/elect-leaders"
CONFIGS = "/api/v1/clusters/local/topics/t/configs"
RESETS = "/api/v1/clusters/local/groups/g/offset-resets"


def send(client, method: str, url: str, text: str, content_type: str = "application/json"):
    return client.generic(method, url, text.encode("utf-8", "surrogatepass"), content_type)


@pytest.fixture
def executed_reset(db):
    return OffsetReset.objects.create(cluster="local", group_id="g", strategy={}, executed=True)


# --- JSON only --------------------------------------------------------------------------------
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


# --- JSON that reads one way only -------------------------------------------------------------
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


@pytest.mark.parametrize(
    "text",
    ['{"a":' * 5000 + "1" + "}" * 5000, "[" * 100000, '{"a":' * 40 + "1" + "}" * 40],
    ids=["5000-objects", "100000-arrays", "40-levels"],
)
def test_deep_nesting_is_a_400_not_a_recursion_error(admin_client_api, text):
    error = assert_error(send(admin_client_api, "POST", TOPICS, text), 400)
    assert "nested" in error["message"]


def test_a_lone_surrogate_is_refused(admin_client_api):
    text = '{"name": "bad\\ud800name", "partitions": 1, "replication_factor": 1}'
    error = assert_error(send(admin_client_api, "POST", TOPICS, text), 400)
    assert "surrogate" in error["message"]


@pytest.mark.parametrize("number", ["1e400", "NaN", "-Infinity"])
def test_numbers_json_cannot_hold_are_a_400(admin_client_api, number):
    text = f'{{"name": "a", "partitions": {number}, "replication_factor": 1}}'
    error = assert_error(send(admin_client_api, "POST", TOPICS, text), 400, "parse_error")
    assert error["message"].startswith("body:")
    assert not AuditEntry.objects.exists()  # nothing read, nothing stored
