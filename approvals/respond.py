"""What a view answers when the change it was asked for became an approval request."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response

from approvals import service
from approvals.models import ApprovalRequest
from console.audit import audited


def requested(log: audited, found: ApprovalRequest, **extra: Any) -> Response:
    """202 with the request; the view's audit entry says it was requested, not done."""
    log.outcome = "requested"
    log.details["approval"] = found.pk
    return Response({"approval": service.as_dict(found), **extra}, status=202)
