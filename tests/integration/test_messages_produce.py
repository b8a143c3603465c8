"""Producing a record from the console against the real cluster: every format written and
read back, the default partitioner landing where Apache Kafka's own console producer (the
Java client) puts the same key, tombstones and headers, internal topics refused, the audit
entry without the content, and every bad body a 400 naming the field with nothing produced."""

from __future__ import annotations

import base64
import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

PARTITIONS = 6


@pytest.fixture(scope="module")
def topic(stack) -> str:
    name = f"it-produce-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(name, PARTITIONS, 3, {})])
    return name


def _url(topic: str) -> str:
    return f"/api/v1/clusters/local/topics/{topic}/messages"


def _ends(topic: str) -> dict:
    return log_ends(cluster_client(), [(topic, p) for p in range(PARTITIONS)])


def _read(client, topic: str, partition: int, offset: int, **formats: str) -> dict:
    query = "&".join(f"{k}={v}" for k, v in formats.items())
    page = client.get(
        f"{_url(topic)}?position=offset&offset={offset}&partition={partition}&limit=1&{query}"
    ).json()
    return page["records"][0]


@pytest.mark.parametrize(
    "part, read_as, data",
    [
        ({"format": "json", "data": {"id": "c-17", "amount": 6001.5}}, "json", None),
        ({"format": "text", "data": "héllo"}, "text", None),
        ({"format": "bytes", "data": base64.b64encode(b"\x00\x01\xff").decode()}, "bytes", None),
        ({"format": "int", "data": -42}, "int", None),
        ({"format": "long", "data": 2**62}, "long", None),
        ({"format": "double", "data": 0.25}, "double", None),
        ({"format": "msgpack", "data": {"k": [1, 2]}}, "msgpack", None),
    ],
)
def test_every_format_is_written_and_read_back(operator_client, topic, part, read_as, data):
    body = {"partition": 1, "key": {"format": "text", "data": "k"}, "value": part}
    response = operator_client.post(_url(topic), body, format="json")
    assert response.status_code == 201, response.content
    written = response.json()
    assert written["partition"] == 1 and written["timestamp"].endswith("Z")
    record = _read(operator_client, topic, 1, written["offset"], value_format=read_as)
    assert record["value"]["format"] == read_as
    assert record["value"]["data"] == part["data"]


def test_keys_land_where_the_java_producer_puts_them(operator_client, topic):
    """Apache Kafka's console producer (the Java client, default partitioner) writes the same
    keys first; the console's records with those keys go to the same partitions."""
    keys = [f"truck-{i}" for i in range(24)]
    before = _ends(topic)
    lines = "".join(f"{k}\tjava\n" for k in keys)
    from devtools.devstack import tools

    run = tools.run_tool(
        "kafka-console-producer",
        [
            "--topic",
            topic,
            "--property",
            "parse.key=true",
            "--property",
            "key.separator=\t",
        ],
        input=lines,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    after = _ends(topic)
    java = {
        record.key.decode(): record.partition
        for record in dev.read_topic(cluster_client(), topic)
        if record.offset >= before[(topic, record.partition)] and record.value == b"java"
    }
    assert sorted(java) == sorted(keys) and sum(after.values()) - sum(before.values()) == 24
    for key in keys:
        body = {"key": {"format": "text", "data": key}, "value": {"format": "text", "data": "x"}}
        response = operator_client.post(_url(topic), body, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["partition"] == java[key], key


def test_a_tombstone_with_headers_in_order(operator_client, topic):
    body = {
        "partition": 2,
        "key": None,
        "value": None,
        "headers": [
            {"key": "h", "value": {"format": "text", "data": "one"}},
            {"key": "n", "value": None},
            {"key": "h", "value": {"format": "json", "data": [1]}},
        ],
    }
    response = operator_client.post(_url(topic), body, format="json")
    assert response.status_code == 201, response.content
    record = _read(operator_client, topic, 2, response.json()["offset"])
    assert record["key"] is None and record["value"] is None
    assert [(h["key"], h["value"] and h["value"]["data"]) for h in record["headers"]] == [
        ("h", "one"),
        ("n", None),
        ("h", [1]),
    ]


def test_the_audit_entry_says_where_and_how_big_never_what(
    operator_client, admin_client_api, topic
):
    secret = f"card-{uuid.uuid4().hex}"
    body = {"partition": 0, "key": None, "value": {"format": "text", "data": secret}}
    written = operator_client.post(_url(topic), body, format="json").json()
    entries = admin_client_api.get("/api/v1/audit?action=message.produce").json()
    entry = next(e for e in entries if e["details"].get("offset") == written["offset"]
                 and e["target"] == topic)  # fmt: skip
    assert entry["outcome"] == "ok" and entry["cluster"] == "local"
    assert entry["details"] == {
        "partition": 0,
        "offset": written["offset"],
        "key_bytes": 0,
        "value_bytes": len(secret),
        "headers": 0,
    }
    assert entry["request"] == {
        "partition": 0,
        "key_format": None,
        "value_format": "text",
        "headers": 0,
    }
    assert secret not in str(entry)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"key": None}, "value"),
        ({"value": None}, "key"),
        ({"key": None, "value": {"format": "xml", "data": "<a/>"}}, "value.format"),
        ({"key": None, "value": {"format": "text"}}, "value.data"),
        ({"key": None, "value": {"format": "text", "data": 5}}, "value.data"),
        ({"key": None, "value": {"format": "bytes", "data": "not base64!"}}, "value.data"),
        ({"key": None, "value": {"format": "int", "data": 2**31}}, "value.data"),
        ({"key": None, "value": {"format": "long", "data": "5"}}, "value.data"),
        # No schema under the topic's value subject (more: test_messages_schemas.py).
        ({"key": None, "value": {"format": "avro", "data": {}}}, "value.subject"),
        ({"key": None, "value": None, "partition": 6}, "partition"),
        ({"key": None, "value": None, "partition": -1}, "partition"),
        ({"key": None, "value": None, "partition": "1"}, "partition"),
        ({"key": None, "value": None, "headers": [{"key": "", "value": None}]}, "headers[0].key"),
        ({"key": None, "value": None, "partiton": 1}, "partiton"),
    ],
)
def test_a_bad_body_is_a_400_naming_the_field_and_nothing_is_produced(
    operator_client, topic, body, field
):
    before = _ends(topic)
    response = operator_client.post(_url(topic), body, format="json")
    error = assert_error(response, 400)
    assert field in (error["details"].get("field"), *error["details"].get("errors", {})), error
    assert _ends(topic) == before


@pytest.mark.parametrize("name", ["__consumer_offsets", "__transaction_state"])
def test_internal_topics_are_refused(operator_client, stack, name):
    body = {"key": None, "value": {"format": "text", "data": "x"}}
    response = operator_client.post(_url(name), body, format="json")
    assert assert_error(response, 400)["details"]["field"] == "topic"


def test_a_viewer_may_read_but_not_produce(viewer_client, topic):
    body = {"key": None, "value": {"format": "text", "data": "x"}}
    assert_error(viewer_client.post(_url(topic), body, format="json"), 403)
