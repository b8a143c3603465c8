"""Console roles from an identity provider's groups: the mapping in settings, read and applied.

The mapping (CONSOLE_OIDC_GROUP_ROLES, JSON) names, for each group, a role on every cluster or
roles on single clusters:

    {"kafka-admins": "admin",
     "kafka-oncall": "operator",
     "staging-team": {"staging": "operator", "prod": "viewer"}}

A user in several groups gets the highest role any of them gives, on every cluster and on each
named one; a cluster role never lowers what the user holds everywhere (groups add up, as they
do in the provider). A user in no mapped group gets no role at all. Nothing here touches the
database; `accounts.sso` stores the result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from console.role_names import ROLES

GroupRoles = Mapping[str, "str | Mapping[str, str]"]


class MappingError(ValueError):
    """The mapping in settings cannot be read; the message names the group at fault."""


def _rank(role: str | None) -> int:
    return -1 if role is None else ROLES.index(role)


def _higher(a: str | None, b: str | None) -> str | None:
    return a if _rank(a) >= _rank(b) else b


def parse_group_roles(raw: str) -> dict[str, str | dict[str, str]]:
    """The mapping from its JSON text; every group and role checked, so a typo stops the
    console at start instead of quietly giving nobody a role."""
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise MappingError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise MappingError("must be a JSON object of group name to role")
    roles = ", ".join(ROLES)
    mapping: dict[str, str | dict[str, str]] = {}
    for group, value in data.items():
        if isinstance(value, str):
            if value not in ROLES:
                raise MappingError(f"group {group!r}: {value!r} is not a role ({roles})")
            mapping[group] = value
        elif isinstance(value, dict) and value:
            for cluster, role in value.items():
                if role not in ROLES:
                    raise MappingError(
                        f"group {group!r}, cluster {cluster!r}: {role!r} is not a role ({roles})"
                    )
            mapping[group] = dict(value)
        else:
            raise MappingError(
                f"group {group!r}: give a role ({roles}) or an object of cluster name to role"
            )
    return mapping


@dataclass(frozen=True)
class MappedRoles:
    """What a user's groups give: a role on every cluster (or none) and roles on single ones."""

    everywhere: str | None = None
    clusters: dict[str, str] = field(default_factory=dict)

    @property
    def any(self) -> bool:
        return self.everywhere is not None or bool(self.clusters)


def roles_for_groups(groups: Iterable[str], mapping: GroupRoles) -> MappedRoles:
    everywhere: str | None = None
    clusters: dict[str, str] = {}
    for group in groups:
        given = mapping.get(group)
        if isinstance(given, str):
            everywhere = _higher(everywhere, given)
        elif given:
            for cluster, role in given.items():
                clusters[cluster] = _higher(clusters.get(cluster), role) or role
    # A cluster role is stored as a replacement for the all-clusters one there, so it holds
    # the higher of the two; one no higher than the all-clusters role says nothing and goes.
    clusters = {c: r for c, r in clusters.items() if _rank(r) > _rank(everywhere)}
    return MappedRoles(everywhere, dict(sorted(clusters.items())))


def groups_claim(claims: Mapping[str, Any], name: str) -> list[str]:
    """The group names in a claim: a list of strings, or one string (some providers send one
    group bare). Anything else counts as no group."""
    value = claims.get(name)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [g for g in value if isinstance(g, str)]
    return []
