"""A topic delete on a protected cluster waits for a second admin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from approvals.actions import Action, register
from console.clusters import ClusterConfig
from topics import changes


def _delete(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    changes.delete_topic(cfg, plan["topic"])
    return {"deleted": plan["topic"]}


register(Action("topic.delete", "admin", _delete))
