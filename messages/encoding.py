"""Turning a produce request's parts (`{"format", "data"}`) into the bytes Kafka stores, the
inverse of messages/decoding.py for each format it can write. Each problem is a 400 naming
the part (`key.data`, `headers[1].value.format`, ...); nothing is produced then."""

from __future__ import annotations

import base64
import binascii
import math
import struct
from collections.abc import Callable
from typing import Any

import msgpack
import orjson

from console.errors import BadInput
from messages.schemas import SchemaLike, SchemaProblem, from_json

WRITE_FORMATS = (
    "json",
    "text",
    "bytes",
    "int",
    "long",
    "double",
    "msgpack",
    "avro",
    "protobuf",
    "jsonschema",
)
# Written with a schema from the cluster's registry, in its wire format.
REGISTRY_FORMATS = {"avro": "AVRO", "protobuf": "PROTOBUF", "jsonschema": "JSON"}
_SCHEMA_KEYS = {"schema_id", "subject", "message"}
_INTS = {"int": (">i", 32), "long": (">q", 64)}
# (schema id, subject) -> the schema; raises SchemaProblem saying why there is none.
SchemaLookup = Callable[[int | None, str | None], SchemaLike]


def encode(
    part: Any,
    field: str,
    schemas: SchemaLookup | None = None,
    default_subject: str | None = None,
) -> bytes | None:
    """The bytes of one part; None for a null part (a null key, a tombstone).

    avro, protobuf and jsonschema parts name their schema by `schema_id` or `subject` (its
    latest version); without either, `default_subject` (`<topic>-key` / `<topic>-value`, as
    Confluent's serializers name them). Protobuf's `message` picks a top-level message (the
    first by default)."""
    if part is None:
        return None
    if not isinstance(part, dict):
        raise BadInput(field, f'{field}: give {{"format": ..., "data": ...}} or null.')
    fmt = part.get("format")
    allowed = {"format", "data"} | (_SCHEMA_KEYS if fmt in REGISTRY_FORMATS else set())
    unknown = sorted(set(part) - allowed)
    if unknown:
        raise BadInput(f"{field}.{unknown[0]}", f"{field}.{unknown[0]}: unknown key.")
    if fmt not in WRITE_FORMATS:
        raise BadInput(
            f"{field}.format", f"{field}.format: give one of {', '.join(WRITE_FORMATS)}."
        )
    if "data" not in part:
        raise BadInput(f"{field}.data", f"{field}.data: missing (null is not the same as absent).")
    data, where = part["data"], f"{field}.data"
    if fmt in REGISTRY_FORMATS:
        return _registered(part, field, schemas, default_subject)
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


def _registered(
    part: dict[str, Any], field: str, schemas: SchemaLookup | None, default_subject: str | None
) -> bytes:
    fmt = part["format"]
    schema_id, subject, message = part.get("schema_id"), part.get("subject"), part.get("message")
    if schema_id is not None and (
        isinstance(schema_id, bool) or not isinstance(schema_id, int) or schema_id < 0
    ):
        raise BadInput(f"{field}.schema_id", f"{field}.schema_id: a schema id, a whole number.")
    if subject is not None and (not isinstance(subject, str) or not subject):
        raise BadInput(f"{field}.subject", f"{field}.subject: a non-empty string.")
    if schema_id is not None and subject is not None:
        raise BadInput(f"{field}.subject", f"{field}.subject: give schema_id or subject, not both.")
    if message is not None and (fmt != "protobuf" or not isinstance(message, str)):
        raise BadInput(f"{field}.message", f"{field}.message: a Protobuf message name (text).")
    if schemas is None:
        raise BadInput(
            f"{field}.format",
            f"{field}.format: {fmt} is written through a Schema Registry, and none is "
            "configured for this cluster.",
        )
    subject = subject if schema_id is not None or subject is not None else default_subject
    if schema_id is None and subject is None:
        raise BadInput(f"{field}.subject", f"{field}.subject: {fmt} needs schema_id or subject.")
    named = f"{field}.schema_id" if schema_id is not None else f"{field}.subject"
    try:
        schema = schemas(schema_id, subject)
    except SchemaProblem as exc:
        raise BadInput(named, f"{named}: {exc}.") from None
    if schema.type != REGISTRY_FORMATS[fmt]:
        raise BadInput(named, f"{named}: schema {schema.id} is {schema.type}, not {fmt}.")
    try:
        return from_json(schema, part["data"], message)
    except SchemaProblem as exc:
        where = f"{field}.message" if "top-level message" in str(exc) else f"{field}.data"
        raise BadInput(where, f"{where}: {exc}.") from None
