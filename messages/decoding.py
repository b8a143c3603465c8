"""Turning a record's key, value or header bytes into something a person can read.

Each part is decoded on its own with the caller's format or `auto`, and the answer always says
which decoder was used (`format`) and, when the asked one could not read the bytes, why
(`note`): decoding never fails a page; what cannot be read comes back as bytes (base64).

`auto` tries, in order: the Schema Registry wire format (magic byte 0, a 4-byte schema id)
read with the schema it names (Avro, Protobuf or JSON Schema, as `avro`, `protobuf`,
`jsonschema`), JSON, UTF-8 text, and falls back to bytes. A framed part needs the cluster's
Schema Registry; without one, or when the registry cannot give the schema or the bytes do not
fit it, the part is shown as bytes with its schema id and that reason. `msgpack` is never
guessed (almost any bytes parse as some MessagePack value), only chosen. `int`, `long` and
`double` read big-endian, as Kafka's IntegerSerializer, LongSerializer and DoubleSerializer
write them.
"""

from __future__ import annotations

import base64
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack
import orjson

from messages.schemas import SchemaLike, SchemaProblem, to_json

FORMATS = (
    "auto",
    "json",
    "text",
    "avro",
    "protobuf",
    "jsonschema",
    "msgpack",
    "bytes",
    "int",
    "long",
    "double",
)
_REGISTRY_FORMATS = ("avro", "protobuf", "jsonschema")
# A schema by id from the cluster's registry; raises SchemaProblem saying why it cannot.
SchemaSource = Callable[[int], SchemaLike]
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


def decode(
    raw: bytes | None, fmt: str = "auto", schemas: SchemaSource | None = None
) -> Decoded | None:
    """`raw` read with `fmt` (one of FORMATS); None for a null part (a null key, a tombstone).
    `schemas` gives the cluster registry's schemas (None: the cluster has no registry)."""
    if raw is None:
        return None
    if fmt == "auto":
        return _auto(raw, schemas)
    if fmt == "bytes":
        return _bytes(raw)
    if fmt in _REGISTRY_FORMATS:
        schema_id = registry_schema_id(raw)
        if schema_id is None:
            unframed = f"{fmt} needs the Schema Registry wire format; these bytes lack it"
            return _bytes(raw, unframed)
        decoded = _registered(raw, schema_id, schemas)
        if decoded.format not in (fmt, "bytes"):
            return _bytes(raw, f"schema {schema_id} is {decoded.format}, not {fmt}", schema_id)
        return decoded
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


def _registered(raw: bytes, schema_id: int, schemas: SchemaSource | None) -> Decoded:
    """A part in the registry's wire format, read with the schema its id names."""
    if schemas is None:
        why = (
            f"Schema Registry wire format (schema id {schema_id}); no Schema Registry is "
            "configured for this cluster"
        )
        return _bytes(raw, why, schema_id)
    try:
        data, fmt = to_json(schemas(schema_id), raw[5:])
    except SchemaProblem as exc:
        return _bytes(raw, f"schema id {schema_id}: {exc}", schema_id)
    return Decoded(fmt, data, len(raw), schema_id)


def _auto(raw: bytes, schemas: SchemaSource | None) -> Decoded:
    schema_id = registry_schema_id(raw)
    if schema_id is not None:
        return _registered(raw, schema_id, schemas)
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
