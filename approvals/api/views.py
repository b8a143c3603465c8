"""Approval requests: listed for the clusters a user may read, approved or rejected by
someone other than the requester who holds the change's role on its cluster."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from approvals import service
from approvals.api import serializers as s
from approvals.models import ApprovalRequest
from console.api.base import ConsoleAPIView
from console.audit import audited
from console.errors import BadInput


class ApprovalListView(ConsoleAPIView):
    @extend_schema(
        responses=s.ApprovalSerializer(many=True),
        summary="Approval requests, newest first (protected clusters)",
        parameters=[OpenApiParameter("state", str, enum=list(ApprovalRequest.State.values))],
    )
    def get(self, request: Request) -> Response:
        state = request.query_params.get("state") or None
        if state is not None and state not in ApprovalRequest.State.values:
            choices = ", ".join(ApprovalRequest.State.values)
            raise BadInput("state", f"state: one of {choices}.")
        found = service.list_requests(self.scope(), state)
        return Response(s.ApprovalSerializer([service.as_dict(f) for f in found], many=True).data)


class ApprovalDetailView(ConsoleAPIView):
    @extend_schema(responses=s.ApprovalSerializer, summary="One approval request")
    def get(self, request: Request, approval_id: int) -> Response:
        found = service.get_request(approval_id)
        self.require_role(found.cluster)
        return Response(s.ApprovalSerializer(service.as_dict(found)).data)


class _DecisionView(ConsoleAPIView):
    # The role the change needs on its cluster is checked by the service; this gate only
    # asks for one anywhere.
    write_role = "viewer"


class ApprovalApproveView(_DecisionView):
    @extend_schema(
        request=s.DecisionSerializer,
        responses=s.ApprovalSerializer,
        summary="Approve a request: its plan runs now, exactly as stored (not by the requester)",
    )
    def post(self, request: Request, approval_id: int) -> Response:
        found = service.get_request(approval_id)
        with audited(
            request.user, found.action, cluster=found.cluster, target=found.target,
            request=found.plan,
        ) as log:  # fmt: skip
            body = self.validated(s.DecisionSerializer, request.data)
            log.details.update(approval=found.pk, requested_by=found.requested_by.username)
            done = service.approve(approval_id, request.user, body["reason"])
            log.details["result"] = done.result
        return Response(s.ApprovalSerializer(service.as_dict(done)).data)


class ApprovalRejectView(_DecisionView):
    @extend_schema(
        request=s.DecisionSerializer,
        responses=s.ApprovalSerializer,
        summary="Reject a request: it never runs (not by the requester)",
    )
    def post(self, request: Request, approval_id: int) -> Response:
        found = service.get_request(approval_id)
        with audited(
            request.user, "approval.reject", cluster=found.cluster, target=found.target,
            request=request.data,
        ) as log:  # fmt: skip
            body = self.validated(s.DecisionSerializer, request.data)
            log.details.update(approval=found.pk, action=found.action)
            done = service.reject(approval_id, request.user, body["reason"])
        return Response(s.ApprovalSerializer(service.as_dict(done)).data)
