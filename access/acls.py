"""Kafka ACLs as `kafka-acls.sh` sees them: bindings, filters and the rules that match them.

Pure: no Kafka, no Django. Names are the ones the CLI prints (`TOPIC`, `LITERAL`, `READ`,
`ALLOW`, `IDEMPOTENT_WRITE`; read in any case); the API reads and answers them, so an operator
can paste what the CLI showed. What a filter selects is Kafka's own business (DescribeAcls and
DeleteAcls apply the same ResourcePatternFilter on the broker), so nothing here re-implements
it: a delete's preview is the DescribeAcls of its filter.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping

from console.errors import BadInput
from console.kafka.types import Acl as AclBinding
from console.kafka.types import AclFilter

RESOURCE_TYPES: tuple[str, ...] = (
    "TOPIC",
    "GROUP",
    "CLUSTER",
    "TRANSACTIONAL_ID",
    "DELEGATION_TOKEN",
    "USER",
)
# `match` and `any` only filter; a binding is LITERAL or PREFIXED.
PATTERN_TYPES: tuple[str, ...] = ("LITERAL", "PREFIXED", "MATCH", "ANY")
BINDING_PATTERN_TYPES: tuple[str, ...] = ("LITERAL", "PREFIXED")
PERMISSIONS: tuple[str, ...] = ("ALLOW", "DENY")
CLUSTER_NAME = "kafka-cluster"  # the one name a CLUSTER resource has
WILDCARD = "*"

# The operations each resource type supports (Kafka's AclEntry.supportedOperations), plus ALL.
SUPPORTED_OPERATIONS: dict[str, tuple[str, ...]] = {
    "TOPIC": (
        "READ",
        "WRITE",
        "CREATE",
        "DESCRIBE",
        "DELETE",
        "ALTER",
        "DESCRIBE_CONFIGS",
        "ALTER_CONFIGS",
    ),
    "GROUP": ("READ", "DESCRIBE", "DELETE", "DESCRIBE_CONFIGS", "ALTER_CONFIGS"),
    "CLUSTER": (
        "CREATE",
        "CLUSTER_ACTION",
        "DESCRIBE_CONFIGS",
        "ALTER_CONFIGS",
        "IDEMPOTENT_WRITE",
        "ALTER",
        "DESCRIBE",
    ),
    "TRANSACTIONAL_ID": ("DESCRIBE", "WRITE"),
    "DELEGATION_TOKEN": ("DESCRIBE",),
    "USER": ("CREATE_TOKENS", "DESCRIBE_TOKENS"),
}
OPERATIONS: tuple[str, ...] = (
    "ALL",
    *dict.fromkeys(op for ops in SUPPORTED_OPERATIONS.values() for op in ops),
)


# --- reading input ---------------------------------------------------------------------------
def choice(value: object, field: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value.upper() not in allowed:
        raise BadInput(field, f"{field} must be one of {', '.join(allowed)}; got {value!r}.")
    return value.upper()


def _text(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadInput(field, f"{field} must be a non-empty string.")
    return value


def principal(value: object, field: str) -> str:
    """`Type:name` (split at the first colon), as Kafka's SecurityUtils.parseKafkaPrincipal."""
    text = _text(value, field)
    kind, sep, name = text.partition(":")
    if not sep or not kind or not name:
        raise BadInput(
            field,
            f"{field} must be a principal as Type:name (for example User:alice); got {text!r}.",
        )
    return text


def host(value: object, field: str) -> str:
    """`*` or an IP address: Kafka matches a binding's host against the client's IP string."""
    text = _text(value, field)
    if text == WILDCARD:
        return text
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        raise BadInput(field, f"{field} must be * or an IP address; got {text!r}.") from None


def resource_name(kind: str, value: object, field: str) -> str:
    name = _text(value, field)
    if kind == "CLUSTER" and name != CLUSTER_NAME:
        raise BadInput(field, f"The only name of a CLUSTER resource is {CLUSTER_NAME}.")
    return name


def operation_for(kind: str, value: object, field: str) -> str:
    op = choice(value, field, OPERATIONS)
    if op != "ALL" and op not in SUPPORTED_OPERATIONS[kind]:
        raise BadInput(
            field,
            f"ResourceType {kind} only supports operations "
            f"{', '.join(('ALL', *SUPPORTED_OPERATIONS[kind]))}; got {op}.",
        )
    return op


def binding(data: object, field: str) -> AclBinding:
    """One binding to create, checked as the CLI and the controller check it."""
    if not isinstance(data, dict):
        raise BadInput(field, f"{field} must be an object.")
    kind = choice(data.get("resource_type"), f"{field}.resource_type", RESOURCE_TYPES)
    pattern = choice(
        data.get("pattern_type", "LITERAL"), f"{field}.pattern_type", BINDING_PATTERN_TYPES
    )
    return AclBinding(
        resource_type=kind,
        resource_name=resource_name(kind, data.get("resource_name"), f"{field}.resource_name"),
        pattern_type=pattern,
        principal=principal(data.get("principal"), f"{field}.principal"),
        host=host(data.get("host", WILDCARD), f"{field}.host"),
        operation=operation_for(kind, data.get("operation"), f"{field}.operation"),
        permission=choice(data.get("permission", "ALLOW"), f"{field}.permission", PERMISSIONS),
    )


def acl_filter(data: Mapping[str, object], prefix: str = "") -> AclFilter:
    """A list or delete filter from query or body values (absent or empty = any); `prefix`
    names the fields in errors (`filter.` in a body)."""

    def opt(key: str) -> object:
        value = data.get(key)
        return None if value in (None, "") else value

    kind = opt("resource_type")
    kind = None if kind is None else choice(kind, f"{prefix}resource_type", RESOURCE_TYPES)
    name = opt("resource_name")
    name = None if name is None else _text(name, f"{prefix}resource_name")
    # The CLI's default is literal for a named resource, and everything without one.
    default_pattern = "LITERAL" if name is not None else "ANY"
    pattern = choice(opt("pattern_type") or default_pattern, f"{prefix}pattern_type", PATTERN_TYPES)
    op = opt("operation")
    if op is not None:
        op = (
            choice(op, f"{prefix}operation", OPERATIONS)
            if kind is None
            else operation_for(kind, op, f"{prefix}operation")
        )
    who = opt("principal")
    where = opt("host")
    permission = opt("permission")
    return AclFilter(
        resource_type=kind,
        resource_name=name,
        pattern_type=pattern,
        principal=None if who is None else principal(who, f"{prefix}principal"),
        host=None if where is None else host(where, f"{prefix}host"),
        operation=op,
        permission=None
        if permission is None
        else choice(permission, f"{prefix}permission", PERMISSIONS),
    )


# --- the CLI's convenience sets --------------------------------------------------------------
def _entries(
    kind: str, names: Iterable[str], pattern: str, ops: Iterable[str], who: str, where: str
) -> list[AclBinding]:
    return [
        AclBinding(kind, name, pattern, who, where, op, "ALLOW") for name in names for op in ops
    ]


def producer_bindings(
    who: str,
    topics: list[str],
    pattern: str = "LITERAL",
    transactional_ids: list[str] | None = None,
    idempotent: bool = False,
    where: str = WILDCARD,
) -> list[AclBinding]:
    """`kafka-acls.sh --add --producer`: WRITE, DESCRIBE and CREATE on each topic; WRITE and
    DESCRIBE on each transactional id; IDEMPOTENT_WRITE on the cluster (always literal) only
    with `--idempotent`."""
    out = _entries("TOPIC", topics, pattern, ("WRITE", "DESCRIBE", "CREATE"), who, where)
    out += _entries(
        "TRANSACTIONAL_ID", transactional_ids or [], pattern, ("WRITE", "DESCRIBE"), who, where
    )
    if idempotent:
        out += _entries("CLUSTER", [CLUSTER_NAME], "LITERAL", ("IDEMPOTENT_WRITE",), who, where)
    return sorted(set(out))


def consumer_bindings(
    who: str, topics: list[str], groups: list[str], pattern: str = "LITERAL", where: str = WILDCARD
) -> list[AclBinding]:
    """`kafka-acls.sh --add --consumer`: READ and DESCRIBE on each topic, READ on each group."""
    out = _entries("TOPIC", topics, pattern, ("READ", "DESCRIBE"), who, where)
    out += _entries("GROUP", groups, pattern, ("READ",), who, where)
    return sorted(set(out))
