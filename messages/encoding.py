"""Turning a produce request's parts (`{"format", "data"}`) into the bytes Kafka stores, the
inverse of messages/decoding.py for each format it can write. Each problem is a 400 naming
the part (`key.data`, `headers[1].value.format`, ...); nothing is produced then."""

from __future__ import annotations

import base64
import binascii
import math
import struct
from typing import Any

import msgpack
import orjson

from console.errors import BadInput

WRITE_FORMATS = ("json", "text", "bytes", "int", "long", "double", "msgpack", "avro", "protobuf")
_INTS = {"int": (">i", 32), "long": (">q", 64)}


def encode(part: Any, field: str) -> bytes | None:
    """The bytes of one part; None for a null part (a null key, a tombstone)."""
    if part is None:
        return None
    if not isinstance(part, dict):
        raise BadInput(field, f'{field}: give {{"format": ..., "data": ...}} or null.')
    unknown = sorted(set(part) - {"format", "data"})
    if unknown:
        raise BadInput(f"{field}.{unknown[0]}", f"{field}.{unknown[0]}: unknown key.")
    fmt = part.get("format")
    if fmt not in WRITE_FORMATS:
        raise BadInput(
            f"{field}.format", f"{field}.format: give one of {', '.join(WRITE_FORMATS)}."
        )
    if "data" not in part:
        raise BadInput(f"{field}.data", f"{field}.data: missing (null is not the same as absent).")
    data, where = part["data"], f"{field}.data"
    if fmt in ("avro", "protobuf"):
        raise BadInput(
            f"{field}.format",
            f"{field}.format: {fmt} is written through a Schema Registry, and none is "
            "configured for this cluster.",
        )
    if fmt in ("json", "msgpack"):
        try:
            return orjson.dumps(data) if fmt == "json" else msgpack.packb(data, use_bin_type=True)
        except (TypeError, OverflowError, ValueError) as exc:  # a number beyond 64 bits
            raise BadInput(where, f"{where}: cannot be written as {fmt}: {exc}.") from None
    if fmt == "text":
        if not isinstance(data, str):
            raise BadInput(where, f"{where}: text takes a string.")
        return data.encode("utf-8")
    if fmt == "bytes":
        if not isinstance(data, str):
            raise BadInput(where, f"{where}: bytes takes base64 text.")
        try:
            return base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise BadInput(where, f"{where}: not base64.") from None
    if fmt == "double":
        if isinstance(data, bool) or not isinstance(data, (int, float)) or not math.isfinite(data):
            raise BadInput(where, f"{where}: double takes a finite number.")
        return struct.pack(">d", float(data))
    code, bits = _INTS[fmt]
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    if isinstance(data, bool) or not isinstance(data, int) or not low <= data <= high:
        raise BadInput(where, f"{where}: {fmt} takes a whole number from {low} to {high}.")
    return struct.pack(code, data)
