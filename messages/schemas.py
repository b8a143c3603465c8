"""Reading and writing the Schema Registry wire format: magic byte 0, the schema id (4 bytes,
big-endian), then for Protobuf the message indexes (zig-zag varints: a count, then the path of
the message type inside the .proto file; a single 0 stands for the first message), then the
payload in the schema's format: Avro binary, Protobuf, or JSON text (JSON Schema).

Schemas come from the cluster's registry by id; parsed Avro schemas and compiled .proto files
are kept per (registry, id), which never change. A schema's references (the other subjects it
imports) come with it, resolved by the registry client: Avro's named types are parsed before
the schema that uses them, .proto imports are written beside the schema under the names it
imports them by and compiled with it.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import io
import tempfile
import threading
import uuid
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import fastavro
import orjson
from google.protobuf import descriptor_pb2, descriptor_pool, json_format
from google.protobuf.message import DecodeError
from google.protobuf.message_factory import GetMessageClass

TYPES = {"AVRO": "avro", "PROTOBUF": "protobuf", "JSON": "jsonschema"}


class SchemaProblem(Exception):
    """The part cannot be read with its schema; the message says why (shown to the user)."""


class ImportedLike(Protocol):
    @property
    def name(self) -> str: ...  # an Avro full name, or the path a .proto file imports
    @property
    def type(self) -> str: ...
    @property
    def text(self) -> str: ...


class SchemaLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def type(self) -> str: ...  # AVRO, PROTOBUF or JSON
    @property
    def text(self) -> str: ...
    @property
    def references(self) -> Sequence[ImportedLike]: ...  # dependencies first


def _imports(schema: SchemaLike, kind: str) -> tuple[tuple[str, str], ...]:
    """(name, text) of each referenced schema of the schema's own type, in load order."""
    return tuple((r.name, r.text) for r in schema.references if r.type.upper() == kind)


def frame(schema_id: int, payload: bytes, indexes: list[int] | None = None) -> bytes:
    head = b"\x00" + schema_id.to_bytes(4, "big")
    if indexes is None:
        return head + payload
    return head + _message_indexes(indexes) + payload


def to_json(schema: SchemaLike, body: bytes) -> tuple[Any, str]:
    """The payload after the 5-byte header read with its schema, as JSON, and the format name
    (`avro`, `protobuf`, `jsonschema`)."""
    if schema.type == "AVRO":
        parsed = _avro_schema(schema.id, schema.text, _imports(schema, "AVRO"))
        return _jsonable(_avro_read(schema.id, parsed, body)), "avro"
    if schema.type == "PROTOBUF":
        files = _proto_file(schema.id, schema.text, _imports(schema, "PROTOBUF"))
        return _protobuf_read(schema.id, files, body), "protobuf"
    if schema.type == "JSON":
        try:
            return orjson.loads(body), "jsonschema"
        except orjson.JSONDecodeError as exc:
            raise SchemaProblem(f"JSON Schema payload is not JSON: {exc}") from None
    raise SchemaProblem(f"schema {schema.id} has a type this console does not read: {schema.type}")


def from_json(schema: SchemaLike, data: Any, message: str | None = None) -> bytes:
    """`data` written with the schema and framed with its id (what a serializer writes)."""
    if schema.type == "AVRO":
        out = io.BytesIO()
        imports = _imports(schema, "AVRO")
        parsed = _avro_schema(schema.id, schema.text, imports)
        try:
            named: dict[str, Any] = {}
            for _, text in imports:  # their named types, for the schema that uses them
                _from_jsonable(orjson.loads(text), None, named, "")
            value = _from_jsonable(orjson.loads(schema.text), data, named, "")
            fastavro.schemaless_writer(out, parsed, value)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise SchemaProblem(f"does not fit Avro schema {schema.id}: {exc}") from None
        return frame(schema.id, out.getvalue())
    if schema.type == "PROTOBUF":
        pool, fd = _proto_file(schema.id, schema.text, _imports(schema, "PROTOBUF"))
        names = [m.name for m in fd.message_type]
        name = message or (names[0] if names else None)
        if name not in names:
            raise SchemaProblem(f"schema {schema.id} has no top-level message {name!r}: {names}")
        full = f"{fd.package}.{name}" if fd.package else name
        msg = GetMessageClass(pool.FindMessageTypeByName(full))()
        try:
            json_format.ParseDict(data, msg)
        except (json_format.ParseError, TypeError, ValueError) as exc:
            raise SchemaProblem(f"does not fit message {full}: {exc}") from None
        return frame(schema.id, msg.SerializeToString(), [names.index(name)])
    if schema.type == "JSON":
        return frame(schema.id, orjson.dumps(data))
    raise SchemaProblem(f"schema {schema.id} has a type this console does not write: {schema.type}")


# --- Avro -------------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def _avro_schema(schema_id: int, text: str, imports: tuple[tuple[str, str], ...] = ()) -> Any:
    """The schema parsed, the named types of what it imports parsed first."""
    named: dict[str, Any] = {}
    try:
        for name, imported in imports:
            try:
                fastavro.parse_schema(orjson.loads(imported), named_schemas=named)
            except (orjson.JSONDecodeError, fastavro.schema.SchemaParseException) as exc:
                why = f"referenced Avro schema {name} does not parse: {exc}"
                raise SchemaProblem(why) from None
        return fastavro.parse_schema(orjson.loads(text), named_schemas=named)
    except (orjson.JSONDecodeError, fastavro.schema.SchemaParseException, ValueError) as exc:
        raise SchemaProblem(f"Avro schema {schema_id} does not parse: {exc}") from None


def _avro_read(schema_id: int, parsed: Any, body: bytes) -> Any:
    stream = io.BytesIO(body)
    try:
        value = fastavro.schemaless_reader(stream, parsed, None)
    except (EOFError, ValueError, IndexError, UnicodeDecodeError, StopIteration) as exc:
        why = str(exc) or type(exc).__name__
        raise SchemaProblem(f"not Avro of schema {schema_id}: {why}") from None
    if stream.tell() != len(body):
        raise SchemaProblem(
            f"not Avro of schema {schema_id}: {len(body) - stream.tell()} bytes left over"
        )
    return value


def _jsonable(value: Any) -> Any:
    """Avro's Python values as JSON: bytes as base64, decimals as text, times as ISO 8601."""

    def default(v: Any) -> Any:
        if isinstance(v, bytes):
            return base64.b64encode(v).decode("ascii")
        if isinstance(v, decimal.Decimal | uuid.UUID):
            return str(v)
        if isinstance(v, dt.date | dt.time):
            return v.isoformat()
        raise TypeError(type(v).__name__)

    return orjson.loads(orjson.dumps(value, default=default, option=orjson.OPT_NON_STR_KEYS))


def _from_jsonable(schema: Any, value: Any, names: dict[str, Any], space: str) -> Any:
    """A JSON value as fastavro writes it for `schema`: the inverse of `_jsonable` (bytes and
    fixed from base64, decimals from text), following named types and unions."""
    if isinstance(schema, str):
        named = names.get(schema) or names.get(f"{space}.{schema}")
        if named is not None:
            return _from_jsonable(named, value, names, space)
        if schema == "bytes" and isinstance(value, str):
            return base64.b64decode(value, validate=True)
        return value
    if isinstance(schema, list):  # a union: the first branch the value fits
        if value is None:
            return None
        for branch in schema:
            if branch == "null":
                continue
            try:
                converted = _from_jsonable(branch, value, names, space)
                if fastavro.validation.validate(
                    converted, _resolved(branch, names, space), raise_errors=False
                ):
                    return converted
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
        return value  # fastavro says why nothing fits
    kind = schema.get("type")
    if kind in ("record", "enum", "fixed", "error"):
        space = schema.get("namespace", space)
        full = schema["name"] if "." in schema["name"] else f"{space}.{schema['name']}".lstrip(".")
        names[full] = names[schema["name"]] = schema
    logical = schema.get("logicalType")
    if logical == "decimal" and isinstance(value, str | int | float):
        return decimal.Decimal(str(value))
    if kind in ("bytes", "fixed") and isinstance(value, str):
        return base64.b64decode(value, validate=True)
    if kind in ("record", "error") and isinstance(value, dict):
        fields = {f["name"]: f["type"] for f in schema["fields"]}
        return {
            k: _from_jsonable(fields[k], v, names, space) if k in fields else v
            for k, v in value.items()
        }
    if kind == "array" and isinstance(value, list):
        return [_from_jsonable(schema["items"], v, names, space) for v in value]
    if kind == "map" and isinstance(value, dict):
        return {k: _from_jsonable(schema["values"], v, names, space) for k, v in value.items()}
    if isinstance(kind, dict | list):
        return _from_jsonable(kind, value, names, space)
    return value


def _resolved(schema: Any, names: dict[str, Any], space: str) -> Any:
    """A union branch as fastavro's validator takes it (named types parsed with it)."""
    if isinstance(schema, str) and (schema in names or f"{space}.{schema}" in names):
        schema = names.get(schema) or names[f"{space}.{schema}"]
    return (
        fastavro.parse_schema(schema, named_schemas={}) if not isinstance(schema, str) else schema
    )


# --- Protobuf -----------------------------------------------------------------------------
_protoc_lock = threading.Lock()  # protoc runs in-process; one compilation at a time


@lru_cache(maxsize=512)
def _proto_file(
    schema_id: int, text: str, imports: tuple[tuple[str, str], ...] = ()
) -> tuple[descriptor_pool.DescriptorPool, descriptor_pb2.FileDescriptorProto]:
    """The .proto text compiled (protoc from grpcio-tools, with the well-known types), each
    imported file written under the path the schema imports it by."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = Path(grpc_tools.__file__).parent / "_proto"
    with _protoc_lock, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "src")
        for name, imported in imports:
            path = Path(root, name)
            if Path(name).is_absolute() or ".." in Path(name).parts or not name.endswith(".proto"):
                raise SchemaProblem(f"Protobuf schema {schema_id} imports {name!r}: not a path")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(imported)
        main = "__schema__.proto" if "schema.proto" in dict(imports) else "schema.proto"
        Path(root, main).parent.mkdir(parents=True, exist_ok=True)
        Path(root, main).write_text(text)
        out = Path(tmp, "schema.pb")
        code = protoc.main(
            [
                "protoc",
                f"-I{root}",
                f"-I{well_known}",
                f"--descriptor_set_out={out}",
                "--include_imports",
                main,
            ]
        )
        if code == 0 and out.exists():
            files = list(descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file)
        elif imports:
            raise SchemaProblem(f"Protobuf schema {schema_id} does not compile with its imports")
        else:
            files = [_serialized_descriptor(schema_id, text)]
    pool = descriptor_pool.DescriptorPool()
    for file in files:
        pool.Add(file)
    return pool, files[-1]  # imports come first; the schema itself is last


def _serialized_descriptor(schema_id: int, text: str) -> descriptor_pb2.FileDescriptorProto:
    """A schema registered in Confluent's `serialized` form: a base64 FileDescriptorProto."""
    try:
        file = descriptor_pb2.FileDescriptorProto.FromString(base64.b64decode(text, validate=True))
    except (ValueError, DecodeError):
        raise SchemaProblem(f"Protobuf schema {schema_id} does not compile") from None
    if not file.message_type or file.dependency:
        raise SchemaProblem(f"Protobuf schema {schema_id} does not compile")
    file.name = file.name or "schema.proto"
    return file


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise SchemaProblem("Protobuf message indexes are cut short")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return (result >> 1) ^ -(result & 1), pos  # zig-zag
        shift += 7


def _message_indexes(indexes: list[int]) -> bytes:
    if indexes == [0]:
        return b"\x00"
    out = bytearray()
    for n in [len(indexes), *indexes]:
        z = (n << 1) ^ (n >> 63)
        while True:
            byte = z & 0x7F
            z >>= 7
            out.append(byte | (0x80 if z else 0))
            if not z:
                break
    return bytes(out)


def split_indexes(body: bytes) -> tuple[list[int], bytes]:
    """The message-index path and the Protobuf payload after it."""
    count, pos = _read_varint(body, 0)
    if count == 0:
        return [0], body[pos:]
    if not 0 < count <= 64:
        raise SchemaProblem(f"Protobuf message indexes: a count of {count}")
    path = []
    for _ in range(count):
        index, pos = _read_varint(body, pos)
        path.append(index)
    return path, body[pos:]


def _protobuf_read(
    schema_id: int,
    compiled: tuple[descriptor_pool.DescriptorPool, descriptor_pb2.FileDescriptorProto],
    body: bytes,
) -> Any:
    pool, fd = compiled
    path, payload = split_indexes(body)
    messages, name = fd.message_type, fd.package
    for index in path:
        if not 0 <= index < len(messages):
            raise SchemaProblem(f"Protobuf message index {index} is not in schema {schema_id}")
        name = f"{name}.{messages[index].name}" if name else messages[index].name
        messages = messages[index].nested_type
    msg = GetMessageClass(pool.FindMessageTypeByName(name))()
    try:
        msg.ParseFromString(payload)
    except DecodeError as exc:
        raise SchemaProblem(f"not Protobuf message {name}: {exc}") from None
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)
