"""Records written by Confluent's own serializers (confluent-kafka's AvroSerializer,
ProtobufSerializer, JSONSerializer) against the dev stack's real Schema Registry, read back
through the messages API: decoded with the schema their id names, forced decoders checked
against the schema's type, and a registry that cannot be reached shown as the reason."""

from __future__ import annotations

import base64
import dataclasses
import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

AVRO = """{
  "type": "record", "name": "Reading", "namespace": "plant",
  "fields": [
    {"name": "sensor", "type": "string"},
    {"name": "value", "type": "double"},
    {"name": "count", "type": "long"},
    {"name": "raw", "type": "bytes"},
    {"name": "unit", "type": ["null", "string"], "default": null},
    {"name": "state", "type": {"type": "enum", "name": "State", "symbols": ["OK", "ALARM"]}},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}
  ]
}"""

PROTO = """syntax = "proto3";
package plant.v1;

message Reading {
  string sensor = 1;
  double value = 2;
  int64 count = 3;
  repeated string tags = 4;
}

message Alarm {
  string equipment = 1;
  Level level = 2;
  message Detail {
    string text = 1;
    int32 code = 2;
  }
  Detail detail = 3;
  enum Level { LOW = 0; HIGH = 1; }
}
"""

JSON_SCHEMA = """{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Event", "type": "object",
  "properties": {"id": {"type": "integer"}, "kind": {"type": "string"}},
  "required": ["id"]
}"""


def _url(topic: str, cluster: str = "local") -> str:
    return f"/api/v1/clusters/{cluster}/topics/{topic}/messages"


def _topic(kind: str) -> str:
    topic = f"it-msg-sr-{kind}-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(topic, 1, 3, {})])
    return topic


def _produce(topic: str, values: list[bytes], keys: list[bytes | None] | None = None) -> None:
    producer = dev.make_producer(cluster_client())
    for i, value in enumerate(values):
        producer.produce(topic, key=keys[i] if keys else None, value=value, partition=0)
    assert producer.flush(30) == 0


def _registry():
    from console.clusters import get_cluster
    from console.kafka.registry import for_registry

    return for_registry(get_cluster("local").schema_registry)


def _records(viewer_client, topic: str, query: str = "") -> list[dict]:
    response = viewer_client.get(f"{_url(topic)}?position=earliest{query}")
    assert response.status_code == 200, response.content
    return response.json()["records"]


def test_avro_written_by_confluents_serializer_reads_back_field_for_field(viewer_client, stack):
    from console.clusters import get_cluster

    topic = _topic("avro")
    cfg = get_cluster("local")
    value_serializer = dev.registry_serializer(cfg, "avro", AVRO)
    key_serializer = dev.registry_serializer(
        cfg, "avro", '{"type": "string", "name": "SensorId"}', is_key=True
    )
    readings = [
        {
            "sensor": "pump-7",
            "value": 3.25,
            "count": 2**40,
            "raw": b"\x00\xff\x10",
            "unit": "bar",
            "state": "ALARM",
            "tags": ["a", "b"],
            "at": 1_700_000_000_123,
        },
        {
            "sensor": "fan-1",
            "value": -0.5,
            "count": 0,
            "raw": b"",
            "unit": None,
            "state": "OK",
            "tags": [],
            "at": 0,
        },
    ]
    _produce(
        topic,
        [value_serializer(r, topic) for r in readings],
        [key_serializer(r["sensor"], topic) for r in readings],
    )
    value_id = _registry().latest(f"{topic}-value").id
    key_id = _registry().latest(f"{topic}-key").id
    records = _records(viewer_client, topic)
    assert [r["value"]["format"] for r in records] == ["avro", "avro"]
    assert {r["value"]["schema_id"] for r in records} == {value_id}
    assert [r["key"] for r in records] == [
        {
            "format": "avro",
            "data": r["sensor"],
            "size": 6 + len(r["sensor"]),
            "schema_id": key_id,
            "note": None,
        }
        for r in readings
    ]
    first, second = (r["value"]["data"] for r in records)
    assert first["raw"] == base64.b64encode(b"\x00\xff\x10").decode()
    assert first["count"] == 2**40 and first["state"] == "ALARM" and first["tags"] == ["a", "b"]
    assert first["unit"] == "bar" and second["unit"] is None and second["tags"] == []
    assert first["at"].startswith("2023-11-14T22:13:20.123")  # timestamp-millis, as a time
    assert (first["sensor"], first["value"], second["value"]) == ("pump-7", 3.25, -0.5)
    # Forced: avro reads the same; protobuf names the schema's real type.
    forced = _records(viewer_client, topic, "&value_format=avro")
    assert [r["value"]["data"] for r in forced] == [first, second]
    wrong = _records(viewer_client, topic, "&value_format=protobuf")[0]["value"]
    assert (
        wrong["format"] == "bytes" and wrong["note"] == f"schema {value_id} is avro, not protobuf"
    )
    # Filters see the decoded value.
    hits = _records(viewer_client, topic, "&filter=value.state%20%3D%3D%20%22ALARM%22")
    assert [r["offset"] for r in hits] == [0]


def test_protobuf_in_the_wire_format_reads_back_nested_types(viewer_client, stack):
    """Framed as Confluent's documentation lays it out (confluent-kafka's ProtobufSerializer
    asks the registry for `format=serialized`, which Apicurio's API does not give): magic 0,
    the id, the message indexes as zig-zag varints (0: the first message; 2 2: one index, 1,
    the second message), the message's bytes."""
    from google.protobuf.message_factory import GetMessageClass

    from messages.schemas import _proto_file

    topic = _topic("proto")
    schema_id = _registry().register(f"{topic}-value", PROTO, "PROTOBUF")
    # The message classes an application would generate from the same .proto.
    pool, _ = _proto_file(schema_id, PROTO)
    reading_cls = GetMessageClass(pool.FindMessageTypeByName("plant.v1.Reading"))
    alarm_cls = GetMessageClass(pool.FindMessageTypeByName("plant.v1.Alarm"))
    reading = reading_cls(sensor="pump-7", value=1.5, count=2**40, tags=["x", "y"])
    alarm = alarm_cls(equipment="EQ-3", level=1, detail={"text": "overheat", "code": 7})
    head = b"\x00" + schema_id.to_bytes(4, "big")
    _produce(
        topic,
        [
            head + b"\x00" + reading.SerializeToString(),
            head + b"\x02\x02" + alarm.SerializeToString(),
            head + b"\x04\x02\x00" + alarm.detail.SerializeToString(),  # Alarm.Detail
        ],
    )
    records = _records(viewer_client, topic)
    assert [(r["value"]["format"], r["value"]["schema_id"]) for r in records] == [
        ("protobuf", schema_id)
    ] * 3
    # int64 is text in Protobuf's JSON mapping (it does not fit a double).
    assert records[0]["value"]["data"] == {
        "sensor": "pump-7",
        "value": 1.5,
        "count": str(2**40),
        "tags": ["x", "y"],
    }
    assert records[1]["value"]["data"] == {
        "equipment": "EQ-3",
        "level": "HIGH",
        "detail": {"text": "overheat", "code": 7},
    }
    assert records[2]["value"]["data"] == {"text": "overheat", "code": 7}
    wrong = _records(viewer_client, topic, "&value_format=avro")[1]["value"]
    assert wrong["note"] == f"schema {schema_id} is protobuf, not avro"


def test_json_schema_written_by_confluents_serializer_reads_back(viewer_client, stack):
    from console.clusters import get_cluster

    topic = _topic("json")
    serializer = dev.registry_serializer(get_cluster("local"), "json", JSON_SCHEMA)
    _produce(topic, [serializer({"id": 1, "kind": "start"}, topic)])
    [record] = _records(viewer_client, topic)
    assert record["value"]["format"] == "jsonschema"
    assert record["value"]["data"] == {"id": 1, "kind": "start"}
    assert record["value"]["schema_id"] == _registry().latest(f"{topic}-value").id


def test_bytes_that_do_not_fit_their_schema_come_back_as_bytes_with_the_reason(
    viewer_client, stack
):
    topic = _topic("misfit")
    schema_id = _registry().register(
        f"{topic}-value",
        '{"type": "record", "name": "Two", "fields": '
        '[{"name": "a", "type": "long"}, {"name": "b", "type": "string"}]}',
        "AVRO",
    )
    head = b"\x00" + schema_id.to_bytes(4, "big")
    _produce(topic, [head + b"\x02", head + b"\x02\x02ab-extra"])
    cut, extra = (r["value"] for r in _records(viewer_client, topic))
    assert cut["format"] == "bytes" and cut["schema_id"] == schema_id
    assert cut["note"].startswith(f"schema id {schema_id}: not Avro of schema {schema_id}")
    assert extra["note"].endswith("bytes left over")


def test_an_unreachable_registry_is_the_reason_and_the_page_still_answers(
    viewer_client, stack, settings
):
    from console.clusters import SchemaRegistry, get_cluster

    topic = _topic("down")
    _produce(topic, [b"\x00\x00\x00\x00\x01payload", b'{"plain": "json"}'])
    local = get_cluster("local")
    # A registry on a port nothing listens on (the dev stack's range, unused).
    broken = dataclasses.replace(
        local, schema_registry=SchemaRegistry(url="http://127.0.0.1:18099/apis/ccompat/v7")
    )
    settings.KAFKA_CLUSTERS = {**settings.KAFKA_CLUSTERS, "local": broken}
    framed, plain = (r["value"] for r in _records(viewer_client, topic))
    assert framed["format"] == "bytes" and framed["schema_id"] == 1
    assert "cannot be reached" in framed["note"] and "127.0.0.1:18099" in framed["note"]
    assert plain == {
        "format": "json",
        "data": {"plain": "json"},
        "size": 17,
        "schema_id": None,
        "note": None,
    }


# --- produce ---------------------------------------------------------------------------------
def _raw_value(viewer_client, topic: str, offset: int) -> bytes:
    [record] = _records(viewer_client, topic, f"&value_format=bytes&limit=1&offset={offset}")
    return base64.b64decode(record["value"]["data"])


def _raw_at(viewer_client, topic: str, offset: int) -> bytes:
    response = viewer_client.get(
        f"{_url(topic)}?position=offset&offset={offset}&partition=0&limit=1&value_format=bytes"
    )
    assert response.status_code == 200, response.content
    return base64.b64decode(response.json()["records"][0]["value"]["data"])


def test_produce_avro_by_the_topics_subject_reads_with_confluents_deserializer(
    operator_client, viewer_client, stack
):
    from console.clusters import get_cluster

    topic = _topic("produce-avro")
    schema_id = _registry().register(f"{topic}-value", AVRO, "AVRO")
    reading = {
        "sensor": "pump-7",
        "value": 2.5,
        "count": 3,
        "raw": "",
        "unit": None,
        "state": "OK",
        "tags": ["t"],
        "at": 1_700_000_000_000,
    }
    body = {
        "key": {"format": "text", "data": "pump-7"},
        "value": {"format": "avro", "data": reading},
    }
    response = operator_client.post(_url(topic), body, format="json")
    assert response.status_code == 201, response.content
    raw = _raw_at(viewer_client, topic, response.json()["offset"])
    assert raw[:5] == b"\x00" + schema_id.to_bytes(4, "big")
    read = dev.registry_deserializer(get_cluster("local"), "avro")(raw, topic)
    assert read["sensor"] == "pump-7" and read["state"] == "OK" and read["raw"] == b""
    assert read["at"].timestamp() == 1_700_000_000  # Confluent's reader: a datetime
    [shown] = _records(viewer_client, topic)
    assert shown["value"]["format"] == "avro" and shown["value"]["data"]["tags"] == ["t"]


def test_produce_protobuf_names_its_message_and_reads_back(operator_client, viewer_client, stack):
    topic = _topic("produce-proto")
    schema_id = _registry().register(f"{topic}-value", PROTO, "PROTOBUF")
    alarm = {"equipment": "EQ-9", "level": "HIGH", "detail": {"text": "hot", "code": 3}}
    body = {
        "key": None,
        "value": {"format": "protobuf", "data": alarm, "schema_id": schema_id, "message": "Alarm"},
    }
    response = operator_client.post(_url(topic), body, format="json")
    assert response.status_code == 201, response.content
    raw = _raw_at(viewer_client, topic, response.json()["offset"])
    assert raw[:7] == b"\x00" + schema_id.to_bytes(4, "big") + b"\x02\x02"  # message index 1
    [shown] = _records(viewer_client, topic)
    assert shown["value"]["format"] == "protobuf" and shown["value"]["data"] == alarm


@pytest.mark.parametrize(
    "value, field, says",
    [
        ({"format": "avro", "data": {}}, "value.subject", "has no subject"),
        ({"format": "protobuf", "data": {}, "subject": "SUBJ"}, "value.subject", "not protobuf"),
        ({"format": "avro", "data": {"sensor": 1}, "subject": "SUBJ"}, "value.data", "fit"),
        ({"format": "avro", "data": {}, "schema_id": 2**31 - 1}, "value.schema_id", "no schema"),
        ({"format": "avro", "data": {}, "schema_id": "1"}, "value.schema_id", None),
        ({"format": "json", "data": {}, "subject": "SUBJ"}, "value.subject", None),
        (
            {"format": "protobuf", "data": {}, "subject": "SUBJ", "message": 3},
            "value.message",
            None,
        ),
        ({"format": "avro", "data": {}, "subject": "SUBJ", "schema_id": 1}, "value.subject", None),
    ],
)
def test_bad_schema_parts_are_a_400_naming_the_field_and_produce_nothing(
    operator_client, viewer_client, stack, value, field, says
):
    topic = _topic("produce-bad")
    _registry().register(f"{topic}-avro", AVRO, "AVRO")
    value = {k: (f"{topic}-avro" if v == "SUBJ" else v) for k, v in value.items()}
    response = operator_client.post(_url(topic), {"key": None, "value": value}, format="json")
    error = assert_error(response, 400)
    assert error["details"]["field"] == field, error
    if says:
        assert says in error["message"], error
    assert _records(viewer_client, topic) == []


def test_the_demo_writes_truck_positions_as_avro_and_one_filter_reads_both_topics(
    viewer_client, stack, demo_topics
):
    import threading

    from console.clusters import get_cluster
    from devtools.demo import traffic
    from tests.stack import wait_for

    stop = threading.Event()
    runner = threading.Thread(target=traffic.run, args=(get_cluster("local"), stop), daemon=True)
    runner.start()
    try:
        wait_for(
            lambda: _records(viewer_client, traffic.TRUCKS_AVRO_TOPIC, "&limit=1"),
            timeout=60,
            what="the demo's first Avro truck position",
        )
    finally:
        stop.set()
        runner.join(30)
    fast = "&filter=value.speed_kmh%20%3E%3D%2040.0%20%26%26%20has(value.truck_id)&limit=20"
    for topic, fmt in ((traffic.TRUCKS_AVRO_TOPIC, "avro"), (traffic.TRUCKS_TOPIC, "json")):
        found = _records(viewer_client, topic, fast)
        assert found and {r["value"]["format"] for r in found} == {fmt}, topic
        assert all(r["value"]["data"]["truck_id"] == r["key"]["data"] for r in found)


ADDRESS_AVRO = """{"type": "record", "name": "Address", "namespace": "crm",
  "fields": [{"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "string"]}]}"""
CUSTOMER_AVRO = """{"type": "record", "name": "Customer", "namespace": "crm",
  "fields": [{"name": "id", "type": "string"}, {"name": "home", "type": "crm.Address"}]}"""
ADDRESS_PROTO = """syntax = "proto3";
package crm.common;
message Address { string city = 1; string zip = 2; }
"""
CUSTOMER_PROTO = """syntax = "proto3";
package crm;
import "crm/address.proto";
message Customer { string id = 1; crm.common.Address home = 2; }
"""


def test_schemas_that_import_other_subjects_are_written_and_read_through_the_registry(
    operator_client, viewer_client, stack
):
    """Schema references: an Avro record whose field type is another subject's record, and a
    .proto importing another subject's file. The console writes them (by subject) and reads
    them back; Confluent's own deserializer reads the console's Avro the same."""
    from console.clusters import get_cluster

    registry = _registry()
    tag = uuid.uuid4().hex[:8]
    registry.register(f"crm-address-{tag}", ADDRESS_AVRO, "AVRO")
    avro_topic = _topic("refs-avro")
    avro_id = registry.register(
        f"{avro_topic}-value", CUSTOMER_AVRO, "AVRO", [("crm.Address", f"crm-address-{tag}", 1)]
    )
    customer = {"id": "c-7", "home": {"city": "Gent", "zip": None}}
    body = {"key": None, "value": {"format": "avro", "data": customer}}
    response = operator_client.post(_url(avro_topic), body, format="json")
    assert response.status_code == 201, response.content
    raw = _raw_at(viewer_client, avro_topic, response.json()["offset"])
    assert raw[:5] == b"\x00" + avro_id.to_bytes(4, "big")
    assert dev.registry_deserializer(get_cluster("local"), "avro")(raw, avro_topic) == customer
    [shown] = _records(viewer_client, avro_topic)
    assert shown["value"]["format"] == "avro" and shown["value"]["data"] == customer

    registry.register(f"crm-address-proto-{tag}", ADDRESS_PROTO, "PROTOBUF")
    proto_topic = _topic("refs-proto")
    proto_id = registry.register(
        f"{proto_topic}-value",
        CUSTOMER_PROTO,
        "PROTOBUF",
        [("crm/address.proto", f"crm-address-proto-{tag}", 1)],
    )
    customer = {"id": "c-8", "home": {"city": "Lille", "zip": "59000"}}
    body = {"key": None, "value": {"format": "protobuf", "data": customer, "schema_id": proto_id}}
    response = operator_client.post(_url(proto_topic), body, format="json")
    assert response.status_code == 201, response.content
    [shown] = _records(viewer_client, proto_topic)
    assert shown["value"]["format"] == "protobuf" and shown["value"]["data"] == customer
    assert shown["value"]["schema_id"] == proto_id
