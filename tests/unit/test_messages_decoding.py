"""Decoding record parts: auto's order and reasons, forced decoders, never an exception."""

from __future__ import annotations

import base64
import struct

import msgpack
import pytest

from messages.decoding import FORMATS, decode


@pytest.mark.parametrize(
    "raw, fmt, data",
    [
        (b'{"a": 1}', "json", {"a": 1}),
        (b"42", "json", 42),
        (b"truck-17", "text", "truck-17"),
        ("é ✓".encode(), "text", "é ✓"),
        (b"\xff\xfe", "bytes", "//4="),
        (b"a\x01b", "bytes", base64.b64encode(b"a\x01b").decode()),
    ],
)
def test_auto_tries_json_then_text_then_bytes(raw, fmt, data):
    decoded = decode(raw)
    assert decoded is not None and (decoded.format, decoded.data) == (fmt, data)
    assert decoded.size == len(raw)


def test_auto_says_why_it_fell_back():
    assert decode(b"\xff").note == "not UTF-8 text: byte 0 is 0xff"
    assert decode(b"a\x01b").note == "not text: it holds control characters"
    framed = decode(b"\x00\x00\x00\x01\x2cpayload")
    assert framed.format == "bytes" and framed.schema_id == 300
    assert "no Schema Registry is configured" in framed.note


def test_null_parts_stay_null():
    assert decode(None) is None and decode(None, "long") is None


@pytest.mark.parametrize(
    "fmt, raw, data",
    [
        ("int", struct.pack(">i", -5), -5),
        ("long", struct.pack(">q", -(2**62)), -(2**62)),
        ("double", struct.pack(">d", 0.125), 0.125),
        ("double", struct.pack(">d", float("nan")), "nan"),
        ("msgpack", msgpack.packb({"k": [1, b"\x01"]}), {"k": [1, "b'\\x01'"]}),
        ("text", b"{}", "{}"),
    ],
)
def test_forced_decoders(fmt, raw, data):
    decoded = decode(raw, fmt)
    assert (decoded.format, decoded.data, decoded.note) == (fmt, data, None)


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f not in ("auto", "bytes")])
def test_a_forced_decoder_that_cannot_read_gives_bytes_and_the_reason(fmt):
    raw = b"\xc1\xff\x00"  # not JSON, not UTF-8, not 4 or 8 bytes, not MessagePack
    decoded = decode(raw, fmt)
    assert decoded.format == "bytes" and base64.b64decode(decoded.data) == raw
    assert decoded.note
