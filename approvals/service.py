"""Two-person approval: a change on a protected cluster is stored as a request with its exact
plan; another user with the role approves it (never the requester) and only then it runs,
exactly as stored, or it is refused if what it was planned on has moved. Requests expire.
No HTTP here."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from rest_framework import exceptions

from approvals import actions, live
from approvals.models import ApprovalRequest
from console.clusters import ClusterConfig, get_cluster
from console.errors import Conflict, ConsoleError, NotFound
from console.kafka import KafkaAdapterError
from console.roles import ClusterScope, has_role, scoped

State = ApprovalRequest.State


def ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "APPROVAL_TTL_SECONDS", 3600))


def protected(cfg: ClusterConfig) -> bool:
    return bool(getattr(cfg, "protected", False))


def ask(
    user: Any,
    cfg: ClusterConfig,
    action: str,
    target: str,
    plan: Mapping[str, Any],
    summary: str,
    reason: str = "",
) -> ApprovalRequest:
    """Store the request; nothing runs until someone else approves it."""
    actions.get(action)  # a change that cannot be approved is a bug, not a request
    found = ApprovalRequest.objects.create(
        cluster=cfg.name,
        action=action,
        target=target,
        summary=summary,
        plan=dict(plan),
        requested_by=user,
        reason=reason,
        expires_at=timezone.now() + ttl(),
    )
    live.changed(found.pk)
    return found


# An approved change runs within the request that approved it, in seconds (each Kafka call
# is bounded by KAFKA_TIMEOUT_SECONDS). One still `running` after this long was cut off (the
# web process stopped or crashed mid-way) and would otherwise stay `running` forever.
RUNNING_STALE = timedelta(minutes=15)
INTERRUPTED = {
    "code": "interrupted",
    "message": (
        "The console stopped while this change ran, so whether it took effect is not known: "
        "check the cluster's state, and ask again if it is still needed."
    ),
    "details": {},
}


def _expire_due() -> None:
    """Pending requests past their expiry become expired, and running ones that were cut off
    fail (checked whenever requests are read)."""
    now = timezone.now()
    ApprovalRequest.objects.filter(state=State.PENDING, expires_at__lte=now).update(
        state=State.EXPIRED
    )
    ApprovalRequest.objects.filter(state=State.RUNNING, decided_at__lte=now - RUNNING_STALE).update(
        state=State.FAILED, error=INTERRUPTED
    )


def list_requests(scope: ClusterScope, state: str | None) -> list[ApprovalRequest]:
    _expire_due()
    found = scoped(ApprovalRequest.objects.select_related("requested_by", "decided_by"), scope)
    if state:
        found = found.filter(state=state)
    return list(found[:500])


def get_request(request_id: int) -> ApprovalRequest:
    _expire_due()
    found = (
        ApprovalRequest.objects.select_related("requested_by", "decided_by")
        .filter(pk=request_id)
        .first()
    )
    if found is None:
        raise NotFound(f"There is no approval request {request_id}.", code="approval_not_found")
    return found


def _check_decider(found: ApprovalRequest, user: Any) -> None:
    if found.requested_by_id == user.pk:
        raise exceptions.PermissionDenied(
            "A request is approved or rejected by someone other than its requester."
        )
    role = actions.get(found.action).role
    if not has_role(user, role, found.cluster):
        raise exceptions.PermissionDenied(
            f"Deciding this request needs the {role} role on cluster {found.cluster}."
        )


def _take(found: ApprovalRequest, to: str, user: Any, reason: str) -> None:
    """Move a pending request on, once, recording who decided: a second approval (or a
    reject racing it) finds it no longer pending. An expired one is refused."""
    if found.state == State.PENDING and found.expires_at <= timezone.now():
        ApprovalRequest.objects.filter(pk=found.pk, state=State.PENDING).update(state=State.EXPIRED)
        found.state = State.EXPIRED
    if found.state == State.EXPIRED:
        raise Conflict(
            f"Request {found.pk} expired at {found.expires_at:%Y-%m-%d %H:%M:%S %Z}; ask again.",
            code="approval_expired",
        )
    now = timezone.now()
    moved = ApprovalRequest.objects.filter(pk=found.pk, state=State.PENDING).update(
        state=to, decided_by=user, decided_at=now, decision_reason=reason
    )
    if not moved:
        found.refresh_from_db()
        raise Conflict(
            f"Request {found.pk} is {found.state}, not pending.", code="approval_not_pending"
        )
    found.state, found.decided_by, found.decided_at, found.decision_reason = to, user, now, reason


def approve(request_id: int, user: Any, reason: str = "") -> ApprovalRequest:
    """Run the request's plan exactly as stored, as the approver; the request records the
    answer, or the refusal when the state the plan was made on has moved."""
    found = get_request(request_id)
    _check_decider(found, user)
    _take(found, State.RUNNING, user, reason)
    live.changed(found.pk)
    try:
        answer = actions.get(found.action).run(get_cluster(found.cluster), found.plan, user)
        # Stored as JSON: dates and times as ISO text, as the API answers them.
        found.result = json.loads(json.dumps(answer, cls=DjangoJSONEncoder))
        found.state = State.EXECUTED
    except (ConsoleError, KafkaAdapterError) as exc:
        found.state = State.FAILED
        found.error = {"code": exc.code, "message": exc.message, "details": exc.details}
        found.save()
        live.changed(found.pk)
        raise
    except BaseException:
        found.state = State.FAILED
        found.error = {"code": "failed", "message": "The change failed; see the server log."}
        found.save()
        live.changed(found.pk)
        raise
    found.save()
    live.changed(found.pk)
    return found


def reject(request_id: int, user: Any, reason: str = "") -> ApprovalRequest:
    found = get_request(request_id)
    _check_decider(found, user)
    with transaction.atomic():
        _take(found, State.REJECTED, user, reason)
        live.changed(found.pk)
    return found


def as_dict(found: ApprovalRequest) -> dict[str, Any]:
    return {
        "id": found.pk,
        "cluster": found.cluster,
        "action": found.action,
        "target": found.target,
        "summary": found.summary,
        "plan": found.plan,
        "state": found.state,
        "requested_by": found.requested_by.username,
        "reason": found.reason,
        "created_at": found.created_at,
        "expires_at": found.expires_at,
        "decided_by": found.decided_by.username if found.decided_by else None,
        "decided_at": found.decided_at,
        "decision_reason": found.decision_reason,
        "result": found.result,
        "error": found.error,
    }
