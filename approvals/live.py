"""Approval requests pushed to `/ws/clusters/{cluster}/approvals`: the request after each
change (asked, approved and run, failed, rejected), once the change is committed."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from console import push

APPROVAL_EVENT = "approval.changed"  # ApprovalConsumer.approval_changed handles it


def approvals_channel(cluster: str) -> str:
    return f"approvals.{cluster}"


def approval_message(found: Any) -> dict[str, Any]:
    from approvals import service
    from approvals.api.serializers import ApprovalSerializer

    return {"type": "approval", **ApprovalSerializer(service.as_dict(found)).data}


def publish(request_id: int) -> bool:
    """Send the request as it is now to its cluster's sockets; never raises."""
    from approvals.models import ApprovalRequest

    found = (
        ApprovalRequest.objects.select_related("requested_by", "decided_by")
        .filter(pk=request_id)
        .first()
    )
    if found is None:
        return False
    event = {"type": APPROVAL_EVENT, "message": approval_message(found)}
    channel = approvals_channel(found.cluster)
    return push.send_to_groups([(channel, event)], f"approval {request_id}") == 1


def changed(request_id: int) -> None:
    transaction.on_commit(partial(publish, request_id))
