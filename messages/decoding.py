"""Turning a record's key, value or header bytes into something a person can read.

Each part is decoded on its own with the caller's format or `auto`, and the answer always says
which decoder was used (`format`) and, when the asked one could not read the bytes, why
(`note`): decoding never fails a page; what cannot be read comes back as bytes (base64).

`auto` tries, in order: the Schema Registry wire format (magic byte 0, a 4-byte schema id),
JSON, UTF-8 text, and falls back to bytes. Avro, Protobuf and JSON Schema through a registry
need the cluster's Schema Registry; without one a framed part is shown as bytes with its
schema id and that reason. `msgpack` is never guessed (almost any bytes parse as some
MessagePack value), only chosen. `int`, `long` and `double` read big-endian, as Kafka's
IntegerSerializer, LongSerializer and DoubleSerializer write them.
"""

from __future__ import annotations

import base64
import math
import struct
from dataclasses import dataclass
from typing import Any

import msgpack
import orjson

FORMATS = ("auto", "json", "text", "avro", "protobuf", "msgpack", "bytes", "int", "long", "double")
_REGISTRY_FORMATS = ("avro", "protobuf")
_FIXED = {"int": (">i", 4), "long": (">q", 8), "double": (">d", 8)}
# Text with these is binary data that happens to be valid UTF-8 (NUL, other C0 controls).
_CONTROL = frozenset(range(32)) - {9, 10, 13}


@dataclass(frozen=True)
class Decoded:
    format: str  # the decoder that produced `data`
    data: Any  # JSON value (json, avro, protobuf, msgpack), str (text), base64 (bytes), number
    size: int  # bytes on the wire
    schema_id: int | None = None
    note: str | None = None  # why the asked decoder was not the one used

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "data": self.data,
            "size": self.size,
            "schema_id": self.schema_id,
            "note": self.note,
        }


def decode(raw: bytes | None, fmt: str = "auto") -> Decoded | None:
    """`raw` read with `fmt` (one of FORMATS); None for a null part (a null key, a tombstone)."""
    if raw is None:
        return None
    if fmt == "auto":
        return _auto(raw)
    if fmt == "bytes":
        return _bytes(raw)
    if fmt in _REGISTRY_FORMATS:
        schema_id = registry_schema_id(raw)
        missing = (
            f"{fmt} needs the Schema Registry wire format; these bytes do not start with it"
            if schema_id is None
            else f"{fmt} needs a Schema Registry, and none is configured for this cluster"
        )
        return _bytes(raw, missing, schema_id)
    if fmt in _FIXED:
        code, width = _FIXED[fmt]
        if len(raw) != width:
            return _bytes(raw, f"{fmt} takes exactly {width} bytes; this part has {len(raw)}")
        number = struct.unpack(code, raw)[0]
        if isinstance(number, float) and not math.isfinite(number):
            return Decoded(fmt, str(number), len(raw))  # NaN and infinities are not JSON
        return Decoded(fmt, number, len(raw))
    reader = {"json": _json, "text": _text, "msgpack": _msgpack}.get(fmt)
    if reader is None:
        raise ValueError(f"unknown format {fmt!r}")
    value, why = reader(raw)
    return Decoded(fmt, value, len(raw)) if why is None else _bytes(raw, why)


def registry_schema_id(raw: bytes) -> int | None:
    """The schema id of a part in the Schema Registry wire format (magic 0, id, payload)."""
    if len(raw) >= 5 and raw[0] == 0:
        return int.from_bytes(raw[1:5], "big")
    return None


def _auto(raw: bytes) -> Decoded:
    schema_id = registry_schema_id(raw)
    if schema_id is not None:
        return _bytes(
            raw,
            f"Schema Registry wire format (schema id {schema_id}); no Schema Registry is "
            "configured for this cluster",
            schema_id,
        )
    value, not_json = _json(raw)
    if not_json is None:
        return Decoded("json", value, len(raw))
    text, why = _text(raw)
    if why is None:
        return Decoded("text", text, len(raw))
    return _bytes(raw, why)


def _json(raw: bytes) -> tuple[Any, str | None]:
    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError as exc:
        return None, f"not JSON: {exc}"


def _text(raw: bytes) -> tuple[str | None, str | None]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text: byte {exc.start} is 0x{raw[exc.start]:02x}"
    if any(ord(c) in _CONTROL for c in text):
        return None, "not text: it holds control characters"
    return text, None


def _msgpack(raw: bytes) -> tuple[Any, str | None]:
    try:
        value = msgpack.unpackb(raw, raw=False, strict_map_key=False, timestamp=3)
    except (ValueError, msgpack.UnpackException, TypeError) as exc:
        return None, f"not MessagePack: {exc}"
    try:
        # Only what JSON can carry: bytes and timestamps become text.
        return orjson.loads(orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS)), None
    except TypeError as exc:
        return None, f"MessagePack that JSON cannot carry: {exc}"


def _bytes(raw: bytes, note: str | None = None, schema_id: int | None = None) -> Decoded:
    return Decoded("bytes", base64.b64encode(raw).decode("ascii"), len(raw), schema_id, note)
