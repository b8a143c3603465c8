"""An ACL delete on a protected cluster waits for a second admin. It runs only while the
filter still selects exactly the bindings the requester previewed (else 409 acl_moved)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from access import acl_changes
from approvals.actions import Action, register
from console.clusters import ClusterConfig
from console.errors import Conflict
from console.kafka.types import AclFilter


def _key(rows: list[dict[str, str]]) -> set[tuple]:
    return {tuple(sorted(row.items())) for row in rows}


def _delete(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    flt = AclFilter(**plan["filter"])
    now = acl_changes.list_acls(cfg, flt)
    if _key(now) != _key(plan["bindings"]):
        raise Conflict(
            f"The filter selects {len(now)} binding(s) now, not the {len(plan['bindings'])} "
            "previewed: ask again.",
            code="acl_moved",
            details={"previewed": plan["bindings"], "now": now},
        )
    return acl_changes.delete_acls(cfg, flt, dry_run=False)


register(Action("acl.delete", "admin", _delete))
