"""Client quotas as `kafka-configs.sh --entity-type users|clients|ips` sees them: entities,
the keys each takes, and the checks the CLI and the controller make.

Pure: no Kafka, no Django. An entity in the API is `{"user"?, "client_id"?, "ip"?}`, each a name
or `{"default": true}` (Kafka's `--entity-default`); only users and client ids combine. A
default is never written as null: a null that meant "no user" would set every user's quota.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from console.errors import BadInput
from console.kafka.types import QuotaEntity

# API field -> Kafka's entity type, in Kafka's order (the order every answer uses).
ENTITY_FIELDS: dict[str, str] = {"user": "user", "client_id": "client-id", "ip": "ip"}
_FIELD_OF = {kind: field for field, kind in ENTITY_FIELDS.items()}
# kafka-configs.sh --entity-type values -> Kafka's entity type.
ENTITY_TYPES: dict[str, str] = {"users": "user", "clients": "client-id", "ips": "ip"}

# Each key and its type on the controller (QuotaConfig): LONG and INT take whole numbers.
USER_CLIENT_KEYS: dict[str, str] = {
    "producer_byte_rate": "LONG",
    "consumer_byte_rate": "LONG",
    "request_percentage": "DOUBLE",
    "controller_mutation_rate": "DOUBLE",
}
IP_KEYS: dict[str, str] = {"connection_creation_rate": "INT"}
_LIMITS = {"LONG": 2**63 - 1, "INT": 2**31 - 1, "DOUBLE": 1.7976931348623157e308}
DEFAULT = {"default": True}


def _name(value: object, field: str) -> str | None:
    if value == DEFAULT:
        return None
    if not isinstance(value, str) or not value:
        raise BadInput(field, f'{field}: give a name, or {{"default": true}} for the default.')
    return value


def entity(spec: Mapping[str, Any], field: str = "entity") -> QuotaEntity:
    """The Kafka entity an API entity names, or a 400 naming what is wrong with it."""
    unknown = sorted(set(spec) - set(ENTITY_FIELDS))
    if unknown:
        raise BadInput(f"{field}.{unknown[0]}", f"{field}: takes user, client_id and ip only.")
    if not spec:
        raise BadInput(field, f"{field}: name a user, a client_id (or both) or an ip.")
    if "ip" in spec and len(spec) > 1:
        raise BadInput(field, f"{field}: an ip cannot be combined with a user or client_id.")
    parts: list[tuple[str, str | None]] = []
    for key, kind in ENTITY_FIELDS.items():
        if key in spec:
            parts.append((kind, _name(spec[key], f"{field}.{key}")))
    if "ip" in spec and parts[0][1] is not None:
        try:
            ipaddress.ip_address(parts[0][1])
        except ValueError:
            raise BadInput(f"{field}.ip", f"{field}.ip: give an IP address.") from None
    return tuple(parts)


def entity_json(found: QuotaEntity) -> dict[str, Any]:
    return {_FIELD_OF[kind]: (dict(DEFAULT) if name is None else name) for kind, name in found}


def describe(found: QuotaEntity) -> str:
    """The entity as kafka-configs.sh names it: `user-principal 'alice', the default client-id`."""
    words = {"user": "user-principal", "client-id": "client-id", "ip": "ip"}
    return ", ".join(
        f"the default {words[kind]}" if name is None else f"{words[kind]} '{name}'"
        for kind, name in found
    )


def sort_key(found: QuotaEntity) -> tuple:
    """Kafka's type order, then the default before the names."""
    return tuple(
        (list(_FIELD_OF).index(kind), name is not None, name or "") for kind, name in found
    )


def keys_for(found: QuotaEntity) -> dict[str, str]:
    return IP_KEYS if found and found[0][0] == "ip" else USER_CLIENT_KEYS


def values_json(found: QuotaEntity, values: Mapping[str, float]) -> dict[str, int | float]:
    """Whole numbers for the LONG and INT keys (Kafka keeps every value as a double)."""
    types = keys_for(found)
    return {
        key: int(value) if types.get(key) in ("LONG", "INT") else value
        for key, value in sorted(values.items())
    }


def _value(key: str, kind: str, value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadInput(field, f"{field}: {key} takes a number, not {value!r}.")
    if not value > 0:
        raise BadInput(field, f"{field}: {key} must be greater than 0.")
    if kind != "DOUBLE" and value != int(value):
        raise BadInput(field, f"{field}: {key} takes a whole number, not {value!r}.")
    if value > _LIMITS[kind]:
        raise BadInput(field, f"{field}: {key} is at most {_LIMITS[kind]}.")
    return float(value)


def changes(
    found: QuotaEntity,
    set_values: Mapping[str, object],
    delete: Iterable[str],
    current: Mapping[str, float],
) -> tuple[dict[str, float], list[str]]:
    """The values to set and the keys to remove, checked as the CLI and the controller check
    them: a key the entity's type does not take, a value the controller would refuse, a key
    both set and deleted, or the delete of a key that is not set is a 400 naming it."""
    types = keys_for(found)
    allowed = ", ".join(types)
    out: dict[str, float] = {}
    for key, value in set_values.items():
        field = f"set.{key}"
        if key not in types:
            raise BadInput(field, f"{field}: not a quota of this entity (it takes {allowed}).")
        out[key] = _value(key, types[key], value, field)
    remove: list[str] = []
    for index, key in enumerate(delete):
        field = f"delete[{index}]"
        if key not in types:
            raise BadInput(field, f"{field}: {key!r} is not a quota (this entity takes {allowed}).")
        if key in out:
            raise BadInput(field, f"{field}: {key} is both set and deleted.")
        if key not in current:
            raise BadInput(field, f"{field}: {key} is not set on {describe(found)}.")
        if key not in remove:
            remove.append(key)
    if not out and not remove:
        raise BadInput("set", "set: give a value to set or a key to delete.")
    return out, remove
