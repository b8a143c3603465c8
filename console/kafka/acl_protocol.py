"""DescribeAcls, CreateAcls and DeleteAcls (v3, flexible) on the wire.

Spoken by the console's own wire client rather than through confluent-kafka, whose enums stop
at TRANSACTIONAL_ID and IDEMPOTENT_WRITE: ACLs on USER and DELEGATION_TOKEN resources, and the
token operations, would come back as UNKNOWN. Names here are Kafka's enum names, as
kafka-acls.sh prints them.
"""

from __future__ import annotations

import struct

from console.kafka.protocol import (
    ACL_VERSION,
    CREATE_ACLS,
    DELETE_ACLS,
    DESCRIBE_ACLS,
    NO_TAGS,
    Reader,
    compact_array,
    compact_string,
    request,
    response_body,
    uvarint,
)
from console.kafka.types import Acl, AclFilter

# org.apache.kafka.common.resource.ResourceType / PatternType, acl.AclOperation /
# AclPermissionType: the wire codes, in code order.
RESOURCE_TYPES = (
    "UNKNOWN",
    "ANY",
    "TOPIC",
    "GROUP",
    "CLUSTER",
    "TRANSACTIONAL_ID",
    "DELEGATION_TOKEN",
    "USER",
)
PATTERN_TYPES = ("UNKNOWN", "ANY", "MATCH", "LITERAL", "PREFIXED")
OPERATIONS = (
    "UNKNOWN",
    "ANY",
    "ALL",
    "READ",
    "WRITE",
    "CREATE",
    "DELETE",
    "ALTER",
    "DESCRIBE",
    "CLUSTER_ACTION",
    "DESCRIBE_CONFIGS",
    "ALTER_CONFIGS",
    "IDEMPOTENT_WRITE",
    "CREATE_TOKENS",
    "DESCRIBE_TOKENS",
    "TWO_PHASE_COMMIT",
)
PERMISSIONS = ("UNKNOWN", "ANY", "DENY", "ALLOW")


def _code(names: tuple[str, ...], name: str | None) -> bytes:
    return struct.pack(">b", names.index("ANY" if name is None else name))


def _name(names: tuple[str, ...], code: int) -> str:
    return names[code] if 0 <= code < len(names) else "UNKNOWN"


def _nullable(text: str | None) -> bytes:
    return uvarint(0) if text is None else compact_string(text)


def _filter(flt: AclFilter) -> bytes:
    return (
        _code(RESOURCE_TYPES, flt.resource_type)
        + _nullable(flt.resource_name)
        + _code(PATTERN_TYPES, flt.pattern_type)
        + _nullable(flt.principal)
        + _nullable(flt.host)
        + _code(OPERATIONS, flt.operation)
        + _code(PERMISSIONS, flt.permission)
    )


def describe_acls_request(flt: AclFilter, correlation_id: int) -> bytes:
    return request(DESCRIBE_ACLS, ACL_VERSION, correlation_id, _filter(flt) + NO_TAGS)


def _entry(reader: Reader, kind: str, name: str, pattern: str) -> Acl:
    acl = Acl(
        resource_type=kind,
        resource_name=name,
        pattern_type=pattern,
        principal=reader.compact_string() or "",
        host=reader.compact_string() or "",
        operation=_name(OPERATIONS, reader.int8()),
        permission=_name(PERMISSIONS, reader.int8()),
    )
    reader.tags()
    return acl


def parse_describe_acls(payload: bytes) -> tuple[int, str | None, list[Acl]]:
    """(error code, message, the bindings)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error, message = reader.int16(), reader.compact_string()
    out: list[Acl] = []
    for _ in range(reader.array_length()):
        kind = _name(RESOURCE_TYPES, reader.int8())
        name = reader.compact_string() or ""
        pattern = _name(PATTERN_TYPES, reader.int8())
        out.extend(_entry(reader, kind, name, pattern) for _ in range(reader.array_length()))
        reader.tags()
    return error, message, out


def create_acls_request(acls: list[Acl], correlation_id: int) -> bytes:
    creations = [
        _code(RESOURCE_TYPES, a.resource_type)
        + compact_string(a.resource_name)
        + _code(PATTERN_TYPES, a.pattern_type)
        + compact_string(a.principal)
        + compact_string(a.host)
        + _code(OPERATIONS, a.operation)
        + _code(PERMISSIONS, a.permission)
        + NO_TAGS
        for a in acls
    ]
    return request(CREATE_ACLS, ACL_VERSION, correlation_id, compact_array(creations) + NO_TAGS)


def parse_create_acls(payload: bytes) -> list[tuple[int, str | None]]:
    """(error code, message) per creation, in the request's order."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out = []
    for _ in range(reader.array_length()):
        out.append((reader.int16(), reader.compact_string()))
        reader.tags()
    return out


def delete_acls_request(filters: list[AclFilter], correlation_id: int) -> bytes:
    body = compact_array([_filter(f) + NO_TAGS for f in filters]) + NO_TAGS
    return request(DELETE_ACLS, ACL_VERSION, correlation_id, body)


def parse_delete_acls(payload: bytes) -> list[tuple[int, str | None, list[Acl]]]:
    """Per filter, in the request's order: (error code, message, the bindings deleted)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out = []
    for _ in range(reader.array_length()):
        error, message = reader.int16(), reader.compact_string()
        deleted = []
        for _ in range(reader.array_length()):
            reader.int16()  # a matching binding's own error (always 0 on KRaft)
            reader.compact_string()
            kind = _name(RESOURCE_TYPES, reader.int8())
            name = reader.compact_string() or ""
            pattern = _name(PATTERN_TYPES, reader.int8())
            deleted.append(_entry(reader, kind, name, pattern))
        reader.tags()
        out.append((error, message, deleted))
    return out
