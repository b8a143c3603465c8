"""Client-quota rules without Kafka: entities as kafka-configs.sh names them, the keys each
type takes, the controller's value checks, and the wire codec read back."""

from __future__ import annotations

import struct

import pytest

from access import quotas
from console.errors import BadInput
from console.kafka import protocol, quota_protocol


def _field(call) -> str:
    with pytest.raises(BadInput) as caught:
        call()
    return caught.value.details["field"]


def test_entities_in_kafkas_order_with_defaults_as_none():
    spec = {"client_id": {"default": True}, "user": "alice"}
    found = quotas.entity(spec)
    assert found == (("user", "alice"), ("client-id", None))
    assert quotas.entity_json(found) == {"user": "alice", "client_id": {"default": True}}
    assert quotas.describe(found) == "user-principal 'alice', the default client-id"
    assert quotas.entity({"ip": "10.1.2.3"}) == (("ip", "10.1.2.3"),)


@pytest.mark.parametrize(
    "spec, field",
    [
        ({}, "entity"),
        ({"user": None}, "entity.user"),  # never "no user, so every user"
        ({"user": ""}, "entity.user"),
        ({"user": {"default": False}}, "entity.user"),
        ({"user": "a", "ip": "10.0.0.1"}, "entity"),
        ({"ip": "example.org"}, "entity.ip"),
        ({"group": "g"}, "entity.group"),
    ],
)
def test_an_entity_kafka_would_refuse_names_its_field(spec, field):
    assert _field(lambda: quotas.entity(spec)) == field


def test_values_checked_as_the_controller_checks_them():
    user = (("user", "a"),)
    assert quotas.changes(
        user, {"producer_byte_rate": 1024.0, "request_percentage": 12.5}, [], {}
    ) == (
        {"producer_byte_rate": 1024.0, "request_percentage": 12.5},
        [],
    )
    assert _field(lambda: quotas.changes(user, {"producer_byte_rate": 1.5}, [], {})) == (
        "set.producer_byte_rate"
    )
    assert _field(lambda: quotas.changes(user, {"request_percentage": 0}, [], {})) == (
        "set.request_percentage"
    )
    assert _field(lambda: quotas.changes(user, {"connection_creation_rate": 3}, [], {})) == (
        "set.connection_creation_rate"
    )
    ip = (("ip", "10.0.0.1"),)
    assert _field(lambda: quotas.changes(ip, {"producer_byte_rate": 3}, [], {})) == (
        "set.producer_byte_rate"
    )
    too_many = float(2**31)
    assert _field(lambda: quotas.changes(ip, {"connection_creation_rate": too_many}, [], {})) == (
        "set.connection_creation_rate"
    )


def test_a_delete_names_a_key_that_is_set_as_the_cli_requires():
    user = (("user", "a"),)
    held = {"producer_byte_rate": 1.0}
    assert quotas.changes(user, {}, ["producer_byte_rate"], held) == ({}, ["producer_byte_rate"])
    assert _field(lambda: quotas.changes(user, {}, ["consumer_byte_rate"], held)) == "delete[0]"
    both = {"producer_byte_rate": 2.0}
    assert _field(lambda: quotas.changes(user, both, ["producer_byte_rate"], held)) == "delete[0]"
    assert _field(lambda: quotas.changes(user, {}, [], held)) == "set"


def test_whole_number_keys_answer_integers():
    found = (("user", "a"),)
    values = {"producer_byte_rate": 1024.0, "request_percentage": 12.5}
    out = quotas.values_json(found, values)
    assert out == {"producer_byte_rate": 1024, "request_percentage": 12.5}
    assert isinstance(out["producer_byte_rate"], int)


def test_the_alter_request_carries_the_entity_and_ops():
    data = quota_protocol.alter_client_quotas_request(
        (("user", "alice"), ("client-id", None)), {"producer_byte_rate": 1024}, ["x"], True, 7
    )
    assert protocol.header_key_version(data) == (protocol.ALTER_CLIENT_QUOTAS, 1)
    body = data.split(b"kafka-console", 1)[1][1:]  # after the client id and the header's tags
    reader = protocol.Reader(body)
    assert reader.array_length() == 1
    assert reader.array_length() == 2
    assert (reader.compact_string(), reader.compact_string()) == ("user", "alice")
    reader.tags()
    assert (reader.compact_string(), reader.compact_string()) == ("client-id", None)
    reader.tags()
    assert reader.array_length() == 2
    assert reader.compact_string() == "producer_byte_rate"
    assert struct.unpack_from(">d?", body, reader.pos) == (1024.0, False)
    reader.pos += 9
    reader.tags()
    assert reader.compact_string() == "x"
    assert struct.unpack_from(">d?", body, reader.pos) == (0.0, True)


def test_a_describe_answer_is_read_into_entities_and_values():
    def text(value: str | None) -> bytes:
        return protocol.uvarint(0) if value is None else protocol.compact_string(value)

    entity = protocol.compact_array(
        [
            text("client-id") + text(None) + protocol.NO_TAGS,
            text("user") + text("bob") + protocol.NO_TAGS,
        ]
    )
    values = protocol.compact_array(
        [text("consumer_byte_rate") + struct.pack(">d", 2048.0) + protocol.NO_TAGS]
    )
    payload = (
        struct.pack(">i", 9)
        + protocol.NO_TAGS  # response header v1
        + struct.pack(">ih", 0, 0)
        + text(None)
        + protocol.compact_array([entity + values + protocol.NO_TAGS])
        + protocol.NO_TAGS
    )
    error, message, found = quota_protocol.parse_describe_client_quotas(payload)
    assert (error, message) == (0, None)
    # Components come back in Kafka's order whatever the broker's order was.
    assert found == {(("user", "bob"), ("client-id", None)): {"consumer_byte_rate": 2048.0}}
