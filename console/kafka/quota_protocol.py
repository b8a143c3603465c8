"""DescribeClientQuotas and AlterClientQuotas (v1, flexible) on the wire.

librdkafka has neither, so the console's own wire client speaks them. An entity is Kafka's:
its components in the fixed order user, client-id, ip, each (entity type, name), where a
None name is the default entity of that type (`--entity-default`).
"""

from __future__ import annotations

import struct

from console.kafka.protocol import (
    ALTER_CLIENT_QUOTAS,
    DESCRIBE_CLIENT_QUOTAS,
    NO_TAGS,
    QUOTA_VERSION,
    Reader,
    compact_array,
    compact_string,
    request,
    response_body,
    uvarint,
)
from console.kafka.types import QuotaEntity

# DescribeClientQuotas' match types: a name, the default, or any name of the type (which
# matches the default too, as `--describe --entity-type users` lists both).
MATCH_EXACT, MATCH_DEFAULT, MATCH_SPECIFIED = 0, 1, 2
ENTITY_ORDER = ("user", "client-id", "ip")


def _nullable(text: str | None) -> bytes:
    return uvarint(0) if text is None else compact_string(text)


def ordered(entity: QuotaEntity) -> QuotaEntity:
    """The components in Kafka's order (user, client-id, ip), as every answer here gives them."""
    return tuple(sorted(entity, key=lambda part: ENTITY_ORDER.index(part[0])))


def describe_client_quotas_request(
    components: list[tuple[str, int, str | None]], strict: bool, correlation_id: int
) -> bytes:
    """components: (entity type, match type, name or None); none and not strict is every
    entity (`ClientQuotaFilter.all()`)."""
    parts = [
        compact_string(kind) + struct.pack(">b", match) + _nullable(name) + NO_TAGS
        for kind, match, name in components
    ]
    body = compact_array(parts) + struct.pack(">?", strict) + NO_TAGS
    return request(DESCRIBE_CLIENT_QUOTAS, QUOTA_VERSION, correlation_id, body)


def _entity(reader: Reader) -> QuotaEntity:
    parts = []
    for _ in range(reader.array_length()):
        kind, name = reader.compact_string() or "", reader.compact_string()
        reader.tags()
        parts.append((kind, name))
    return ordered(tuple(parts))


def parse_describe_client_quotas(
    payload: bytes,
) -> tuple[int, str | None, dict[QuotaEntity, dict[str, float]]]:
    """(error code, message, {entity: {key: value}})."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error, message = reader.int16(), reader.compact_string()
    out: dict[QuotaEntity, dict[str, float]] = {}
    for _ in range(reader.array_length()):
        entity = _entity(reader)
        values = {}
        for _ in range(reader.array_length()):
            key = reader.compact_string() or ""
            (values[key],) = struct.unpack_from(">d", reader.data, reader.pos)
            reader.pos += 8
            reader.tags()
        reader.tags()
        out[entity] = values
    reader.tags()
    return error, message, out


def alter_client_quotas_request(
    entity: QuotaEntity,
    set_values: dict[str, float],
    remove: list[str],
    validate_only: bool,
    correlation_id: int,
) -> bytes:
    """One entity's changes, as kafka-configs.sh sends them: a value set, or a key removed."""
    parts = [compact_string(kind) + _nullable(name) + NO_TAGS for kind, name in entity]
    ops = [
        compact_string(k) + struct.pack(">d?", float(v), False) + NO_TAGS
        for k, v in set_values.items()
    ]
    ops += [compact_string(k) + struct.pack(">d?", 0.0, True) + NO_TAGS for k in remove]
    entry = compact_array(parts) + compact_array(ops) + NO_TAGS
    body = compact_array([entry]) + struct.pack(">?", validate_only) + NO_TAGS
    return request(ALTER_CLIENT_QUOTAS, QUOTA_VERSION, correlation_id, body)


def parse_alter_client_quotas(payload: bytes) -> list[tuple[int, str | None, QuotaEntity]]:
    """(error code, message, entity) per entity, in the request's order."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out = []
    for _ in range(reader.array_length()):
        error, message = reader.int16(), reader.compact_string()
        out.append((error, message, _entity(reader)))
        reader.tags()
    reader.tags()
    return out
