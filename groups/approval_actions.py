"""Offset resets on a protected cluster: executing a preview and undoing a reset wait for a
second operator. The preview's stored plan is what runs, and `execute_preview` refuses it
(409 plan_stale) when a committed offset moved since it was planned."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from approvals.actions import Action, register
from console.clusters import ClusterConfig
from groups.resets import workflow as resets


def _execute(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    return resets.reset_as_dict(resets.execute_preview(plan["reset_id"], user, plan["reason"]))


def _undo(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    return resets.reset_as_dict(resets.undo_reset(plan["reset_id"], user, plan["reason"]))


register(Action("offsets.reset.execute", "operator", _execute))
register(Action("offsets.reset.undo", "operator", _undo))
