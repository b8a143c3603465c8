"""The Schema Registry wire format without a registry: framing, Protobuf message indexes,
Avro/Protobuf/JSON Schema payloads read and written with schemas given here."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from messages.decoding import decode
from messages.schemas import SchemaProblem, frame, from_json, split_indexes, to_json


@dataclass(frozen=True)
class Imported:
    name: str
    type: str
    text: str


@dataclass(frozen=True)
class Given:
    id: int
    type: str
    text: str
    references: tuple[Imported, ...] = ()


AVRO = Given(
    11,
    "AVRO",
    '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "long"},'
    ' {"name": "b", "type": ["null", "bytes"], "default": null}]}',
)
PROTO = Given(
    12,
    "PROTOBUF",
    'syntax = "proto3"; package t;\n'
    "message A { string s = 1; }\n"
    "message B { message C { int32 n = 1; } C c = 1; repeated int64 big = 2; }\n",
)


@pytest.mark.parametrize(
    "raw, path",
    [(b"\x00rest", [0]), (b"\x02\x02rest", [1]), (b"\x04\x02\x00rest", [1, 0])],
)
def test_message_indexes_follow_confluents_zigzag_varints(raw, path):
    assert split_indexes(raw) == (path, b"rest")


@pytest.mark.parametrize("bad", [b"", b"\x80", b"\x01"])
def test_cut_or_negative_indexes_are_a_problem_not_a_crash(bad):
    with pytest.raises(SchemaProblem):
        split_indexes(bad)


def test_avro_round_trip_and_bytes_as_base64():
    framed = from_json(AVRO, {"a": 2**40, "b": b"\xff"})
    assert framed[:5] == b"\x00\x00\x00\x00\x0b"
    assert to_json(AVRO, framed[5:]) == ({"a": 2**40, "b": "/w=="}, "avro")


def test_avro_that_does_not_fit_is_a_problem_with_the_reason():
    with pytest.raises(SchemaProblem, match="bytes left over"):
        to_json(AVRO, from_json(AVRO, {"a": 1, "b": None})[5:] + b"\x00")
    with pytest.raises(SchemaProblem, match="does not fit Avro schema 11"):
        from_json(AVRO, {"a": "not a number"})


def test_protobuf_round_trip_picks_the_named_message():
    framed = from_json(PROTO, {"c": {"n": 5}, "big": ["9007199254740993"]}, message="B")
    assert framed[5:7] == b"\x02\x02"  # one index: 1, the second top-level message
    data, fmt = to_json(PROTO, framed[5:])
    assert fmt == "protobuf" and data == {"c": {"n": 5}, "big": ["9007199254740993"]}
    with pytest.raises(SchemaProblem, match="no top-level message 'Z'"):
        from_json(PROTO, {}, message="Z")


def test_a_proto_that_does_not_compile_is_a_problem():
    with pytest.raises(SchemaProblem, match="does not compile"):
        to_json(Given(13, "PROTOBUF", "message {"), b"\x00")


ADDRESS_AVRO = Imported(
    "acme.Address",
    "AVRO",
    '{"type": "record", "name": "Address", "namespace": "acme", "fields": ['
    '{"name": "city", "type": "string"}, {"name": "raw", "type": "bytes"}]}',
)
CUSTOMER_AVRO = Given(
    14,
    "AVRO",
    '{"type": "record", "name": "Customer", "namespace": "acme", "fields": ['
    '{"name": "id", "type": "string"}, {"name": "home", "type": "acme.Address"},'
    ' {"name": "work", "type": ["null", "Address"], "default": null}]}',
    (ADDRESS_AVRO,),
)


def test_avro_named_types_from_referenced_schemas_are_read_and_written():
    data = {"id": "c-1", "home": {"city": "Gent", "raw": "AAE="}, "work": None}
    framed = from_json(CUSTOMER_AVRO, data)
    assert to_json(CUSTOMER_AVRO, framed[5:]) == (data, "avro")
    other = {**data, "work": {"city": "Lille", "raw": ""}}
    assert to_json(CUSTOMER_AVRO, from_json(CUSTOMER_AVRO, other)[5:])[0] == other
    # Without its reference the schema does not parse: the reason says so.
    with pytest.raises(SchemaProblem, match="Avro schema 15 does not parse"):
        to_json(Given(15, "AVRO", CUSTOMER_AVRO.text), framed[5:])


ADDRESS_PROTO = Imported(
    "acme/address.proto",
    "PROTOBUF",
    'syntax = "proto3"; package acme.common;\nmessage Address { string city = 1; }\n',
)
CUSTOMER_PROTO = Given(
    16,
    "PROTOBUF",
    'syntax = "proto3"; package acme;\nimport "acme/address.proto";\n'
    'import "google/protobuf/timestamp.proto";\n'
    "message Customer { string id = 1; acme.common.Address home = 2;"
    " google.protobuf.Timestamp since = 3; }\n",
    (ADDRESS_PROTO,),
)


def test_protobuf_imports_from_referenced_schemas_compile_with_the_schema():
    data = {"id": "c-2", "home": {"city": "Gent"}, "since": "2026-11-29T10:00:00Z"}
    framed = from_json(CUSTOMER_PROTO, data)
    assert to_json(CUSTOMER_PROTO, framed[5:]) == (data, "protobuf")
    with pytest.raises(SchemaProblem, match="does not compile"):
        to_json(Given(17, "PROTOBUF", CUSTOMER_PROTO.text), framed[5:])


def test_an_import_path_that_leaves_the_schema_directory_is_refused():
    bad = Imported("../../etc/evil.proto", "PROTOBUF", 'syntax = "proto3";')
    with pytest.raises(SchemaProblem, match="not a path"):
        to_json(Given(18, "PROTOBUF", CUSTOMER_PROTO.text, (bad,)), b"\x00")


def test_decode_uses_the_source_and_falls_back_with_the_reason():
    schemas = {11: AVRO, 12: PROTO}

    def source(schema_id):
        if schema_id not in schemas:
            raise SchemaProblem("the Schema Registry has no schema with this id")
        return schemas[schema_id]

    framed = from_json(AVRO, {"a": 1, "b": None})
    assert decode(framed, "auto", source).data == {"a": 1, "b": None}
    assert decode(framed, "protobuf", source).note == "schema 11 is avro, not protobuf"
    unknown = decode(frame(99, b"x"), "auto", source)
    assert unknown.format == "bytes" and unknown.schema_id == 99
    assert unknown.note == "schema id 99: the Schema Registry has no schema with this id"
    assert decode(b'{"a": 1}', "avro", source).note.endswith("these bytes lack it")


def test_avro_from_json_takes_base64_bytes_fixed_decimals_and_named_types():
    import orjson

    schema = Given(
        20,
        "AVRO",
        orjson.dumps(
            {
                "type": "record",
                "name": "R",
                "namespace": "n",
                "fields": [
                    {"name": "b", "type": "bytes"},
                    {"name": "u", "type": ["null", "bytes"]},
                    {"name": "f", "type": {"type": "fixed", "name": "F", "size": 2}},
                    {"name": "g", "type": "F"},
                    {
                        "name": "d",
                        "type": {
                            "type": "bytes",
                            "logicalType": "decimal",
                            "precision": 5,
                            "scale": 2,
                        },
                    },
                    {"name": "m", "type": {"type": "map", "values": "bytes"}},
                ],
            }
        ).decode(),
    )
    value = {"b": "AAE=", "u": None, "f": "AAE=", "g": "AQI=", "d": "12.34", "m": {"x": "/w=="}}
    assert to_json(schema, from_json(schema, value)[5:]) == (value, "avro")
