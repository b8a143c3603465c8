"""A reassignment on a protected cluster waits for a second admin. The request stores the plan
with the replicas it was planned on; the approval starts it only while every moved partition
still has those replicas (else 409 `replicas_moved`), with the throttle and reason asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from approvals import service as approval_service
from approvals.actions import Action, register
from approvals.models import ApprovalRequest
from console.clusters import ClusterConfig
from console.errors import Conflict
from reassign import execution, planning, progress


def _preview(cfg: ClusterConfig, body: Mapping[str, Any]) -> dict[str, Any]:
    return planning.plan(
        cfg, {"plan": body["plan"], "throttle_bytes_per_s": body["throttle_bytes_per_s"]}
    )


def ask_execute(user: Any, cfg: ClusterConfig, body: Mapping[str, Any]) -> ApprovalRequest:
    """Checked now as an execute would check it (a plan Kafka would refuse is a 400 here, not
    at the approval), then held."""
    preview = _preview(cfg, body)
    moves = preview["moves"]
    size = preview["total_bytes"]
    throttle = body["throttle_bytes_per_s"]
    summary = (
        f"Move replicas of {len(moves)} partition(s)"
        + (f", {size:,} bytes to copy" if size is not None else "")
        + (f", throttled to {throttle:,} bytes/s per broker" if throttle else ", unthrottled")
        + (f": {body['reason']}" if body.get("reason") else ".")
    )
    plan = {**body, "current": preview["current"]}
    return approval_service.ask(user, cfg, "reassignment.execute", "reassignment", plan, summary)


def _execute(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    now = _preview(cfg, plan)["current"]
    if now != plan["current"]:
        raise Conflict(
            "The replicas of the partitions to move changed since the request: ask again.",
            code="replicas_moved",
            details={"planned_on": plan["current"], "now": now},
        )
    r = execution.execute(
        cfg, plan["plan"], plan["throttle_bytes_per_s"], plan["reason"], user.username
    )
    return progress.detail(cfg, r)


register(Action("reassignment.execute", "admin", _execute))
