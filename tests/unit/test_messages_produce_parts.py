"""Producing's pure parts: Kafka's murmur2 partitioner and the formats' encodings."""

from __future__ import annotations

import base64
import struct

import msgpack
import pytest

from console.errors import BadInput
from messages.decoding import decode
from messages.encoding import encode
from messages.partitioner import murmur2, partition_for


@pytest.mark.parametrize(
    "data, expected",
    [
        # Apache Kafka's UtilsTest.testMurmur2 and librdkafka's rdmurmur2 unit test.
        (b"21", -973932308),
        (b"foobar", -790332482),
        (b"a-little-bit-long-string", -985981536),
        (b"a-little-bit-longer-string", -1486304829),
        (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
        (b"abc", 479470107),
        (b"kafka", 0xD067CF64 - 2**32),
        (b"", 0x106E08D9),
    ],
)
def test_murmur2_is_kafkas(data, expected):
    assert murmur2(data) == expected


def test_partitions_as_the_java_producer_picks_them():
    assert partition_for(b"kafka", 6) == 4
    assert partition_for(b"foobar", 6) == 0
    assert all(0 <= partition_for(bytes([i]), 7) < 7 for i in range(256))


@pytest.mark.parametrize(
    "part, raw",
    [
        ({"format": "json", "data": {"a": [1, None]}}, b'{"a":[1,null]}'),
        ({"format": "text", "data": "é"}, "é".encode()),
        ({"format": "bytes", "data": "AAH/"}, b"\x00\x01\xff"),
        ({"format": "int", "data": -1}, struct.pack(">i", -1)),
        ({"format": "long", "data": 2**63 - 1}, struct.pack(">q", 2**63 - 1)),
        ({"format": "double", "data": 1}, struct.pack(">d", 1.0)),
        ({"format": "msgpack", "data": {"k": 1}}, msgpack.packb({"k": 1})),
    ],
)
def test_each_format_writes_what_the_decoder_reads_back(part, raw):
    assert encode(part, "value") == raw
    decoded = decode(raw, part["format"])
    expected = part["data"]
    if part["format"] == "bytes":
        expected = base64.b64encode(raw).decode()
    assert decoded.data == expected


@pytest.mark.parametrize(
    "part, field",
    [
        ("text", "value"),
        ({"format": "text"}, "value.data"),
        ({"format": "yaml", "data": ""}, "value.format"),
        ({"format": "text", "data": "x", "extra": 1}, "value.extra"),
        ({"format": "int", "data": True}, "value.data"),
        ({"format": "long", "data": 2**63}, "value.data"),
        ({"format": "double", "data": float("inf")}, "value.data"),
        ({"format": "bytes", "data": "@@@"}, "value.data"),
        ({"format": "json", "data": 2**70}, "value.data"),
        ({"format": "protobuf", "data": {}}, "value.format"),
    ],
)
def test_a_part_that_cannot_be_written_names_its_field(part, field):
    with pytest.raises(BadInput) as raised:
        encode(part, "value")
    assert raised.value.field == field


def test_null_is_null():
    assert encode(None, "key") is None
