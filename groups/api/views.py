from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework.request import Request
from rest_framework.response import Response

from approvals import service as approval_service
from approvals.api.serializers import ApprovalWrapSerializer
from approvals.respond import requested
from console.api.base import ConsoleAPIView, query_bool
from console.api.downloads import content_disposition
from console.audit import audited
from console.clusters import get_cluster
from console.errors import BadInput
from groups.api import serializers as s
from groups.lag import rest as lag
from groups.models import OffsetReset
from groups.resets import changes
from groups.resets import workflow as resets
from groups.resets.strategies import export_csv


def _storable_group_id(group: str) -> None:
    """A reset is stored with its group id, in a column of bounded length."""
    limit = getattr(OffsetReset._meta.get_field("group_id"), "max_length", None)
    if limit and len(group) > limit:
        raise BadInput(
            "group", f"group: offset resets are kept for group ids of up to {limit} characters."
        )


def _audit_reset(log: audited, reset: OffsetReset) -> None:
    """An execution that did not commit everything is audited as failed, with its id."""
    log.details.update(reset_id=reset.pk, state=reset.state)
    if reset.executed and reset.state != OffsetReset.State.SUCCEEDED:
        log.outcome = "failed"


class GroupListView(ConsoleAPIView):
    @extend_schema(
        responses=s.GroupRowSerializer(many=True),
        summary="Consumer groups with lag (from the lag sampler's latest pass while it is recent)",
        parameters=[
            OpenApiParameter(
                "fresh", bool, description="read Kafka now instead of the sampler's latest pass"
            )
        ],
    )
    def get(self, request: Request, cluster: str) -> HttpResponse:
        fresh = query_bool(request.query_params, "fresh", False)
        # The body as the sampler stored it: no decoding and encoding of every row.
        body = lag.list_groups_json(self.cluster(), fresh=fresh)
        return HttpResponse(body, content_type="application/json")


class LagHistoryView(ConsoleAPIView):
    @extend_schema(
        responses=s.LagHistorySerializer,
        summary="A group's lag over the last hour (each sample) or day (each minute)",
        parameters=[
            OpenApiParameter("topic", str, description="only this topic (default: all)"),
            OpenApiParameter(
                "window", str, enum=list(lag.HISTORY_WINDOWS), description="1h, 24h, 7d"
            ),
        ],
    )
    def get(self, request: Request, cluster: str, group: str) -> Response:
        window = request.query_params.get("window") or "1h"
        if window not in lag.HISTORY_WINDOWS:
            raise BadInput("window", "window: give 1h, 24h or 7d.")
        topic = request.query_params.get("topic") or None
        return Response(lag.lag_history(self.cluster(), group, window, topic))


class GroupDetailView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(responses=s.GroupDetailSerializer, summary="A group's members and offsets")
    def get(self, request: Request, cluster: str, group: str) -> Response:
        return Response(lag.group_detail(self.cluster(), group))

    @extend_schema(responses={204: None}, summary="Delete a group (refused while it has members)")
    def delete(self, request: Request, cluster: str, group: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "group.delete", cluster=cfg.name, target=group):
            self.no_body()
            changes.delete_group(cfg, group)
        return Response(status=204)


class OffsetResetListView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(responses=s.OffsetResetSerializer(many=True), summary="Resets, newest first")
    def get(self, request: Request, cluster: str, group: str) -> Response:
        cfg = self.cluster()
        rows = OffsetReset.objects.filter(cluster=cfg.name, group_id=group).select_related(
            "created_by"
        )[:200]
        return Response([resets.reset_as_dict(r) for r in rows])

    @extend_schema(
        request=s.ResetRequestSerializer,
        responses={201: s.OffsetResetSerializer, 202: ApprovalWrapSerializer},
        summary="Plan (dry run, the default) or execute an offset reset",
    )
    def post(self, request: Request, cluster: str, group: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user, "offsets.reset", cluster=cfg.name, target=group, request=request.data
        ) as log:
            body = self.validated(s.ResetRequestSerializer, request.data)
            _storable_group_id(group)
            dry_run = body.get("dry_run", True)
            log.action = "offsets.reset.preview" if dry_run else "offsets.reset.execute"
            if not dry_run and approval_service.protected(cfg):
                # Planned now, executed once approved: the approver runs exactly this plan.
                preview = resets.create_reset(cfg, group, {**body, "dry_run": True}, request.user)
                plan = {"reset_id": preview.pk, "reason": body.get("reason", "")}
                found = approval_service.ask(
                    request.user, cfg, "offsets.reset.execute", group, plan,
                    _execute_summary(preview), plan["reason"],
                )  # fmt: skip
                return requested(log, found, reset=resets.reset_as_dict(preview))
            reset = resets.create_reset(cfg, group, body, request.user)
            _audit_reset(log, reset)
            if dry_run:
                log.outcome = "preview"
        return Response(resets.reset_as_dict(reset), status=201)


class OffsetResetDetailView(ConsoleAPIView):
    @extend_schema(responses=s.OffsetResetSerializer, summary="One reset with plan and result")
    def get(self, request: Request, reset_id: int) -> Response:
        reset = resets.get_reset(reset_id)
        self.require_role(reset.cluster)
        return Response(resets.reset_as_dict(reset))


def _execute_summary(reset: OffsetReset) -> str:
    count = len(reset.plan)
    return (
        f"Execute preview {reset.pk}: reset group {reset.group_id} on {count} "
        f"partition{'s' if count != 1 else ''} as planned ({reset.strategy.get('type')})."
    )


def _reset_action_schema(status: int, summary: str) -> Callable[[type], type]:
    """The schema of a POST on an existing reset: a reason in, the reset out with `status`."""
    return extend_schema_view(
        post=extend_schema(
            request=s.ReasonRequestSerializer,
            responses={status: s.OffsetResetSerializer, 202: ApprovalWrapSerializer},
            summary=summary,
        )
    )


# A POST on an existing reset (execute, undo): audited against its group, with a reason.
class _ResetActionView(ConsoleAPIView):
    write_role = "operator"
    action = ""
    request_key = ""
    status_code = 200

    def act(self, reset_id: int, user: Any, reason: str) -> OffsetReset:
        raise NotImplementedError

    def post(self, request: Request, reset_id: int) -> Response:
        existing = resets.get_reset(reset_id)
        self.require_role(existing.cluster)
        sent = request.data if isinstance(request.data, dict) else {}
        with audited(
            request.user,
            self.action,
            cluster=existing.cluster,
            target=existing.group_id,
            request={self.request_key: reset_id, **sent},
        ) as log:
            # No body is no reason; a body is an object (`null` or `[]` is a 400, not "none").
            body = self.validated(s.ReasonRequestSerializer, request.data)
            cfg = get_cluster(existing.cluster)
            if approval_service.protected(cfg):
                plan = {"reset_id": reset_id, "reason": body["reason"]}
                found = approval_service.ask(
                    request.user, cfg, self.action, existing.group_id, plan,
                    self.summary(existing), body["reason"],
                )  # fmt: skip
                return requested(log, found)
            reset = self.act(reset_id, request.user, body["reason"])
            _audit_reset(log, reset)
        return Response(resets.reset_as_dict(reset), status=self.status_code)

    def summary(self, reset: OffsetReset) -> str:
        raise NotImplementedError


@_reset_action_schema(
    200, "Execute exactly the plan of a dry-run preview (409 if it no longer holds)"
)
class OffsetResetExecuteView(_ResetActionView):
    action = "offsets.reset.execute"
    request_key = "preview"

    def act(self, reset_id: int, user: Any, reason: str) -> OffsetReset:
        return resets.execute_preview(reset_id, user, reason)

    def summary(self, reset: OffsetReset) -> str:
        return _execute_summary(reset)


@_reset_action_schema(201, "Restore the offsets from before an executed reset")
class OffsetResetUndoView(_ResetActionView):
    action = "offsets.reset.undo"
    request_key = "undo_of"
    status_code = 201

    def act(self, reset_id: int, user: Any, reason: str) -> OffsetReset:
        return resets.undo_reset(reset_id, user, reason)

    def summary(self, reset: OffsetReset) -> str:
        return f"Undo reset {reset.pk} of group {reset.group_id}: restore the offsets before it."


class OffsetsCsvView(ConsoleAPIView):
    @extend_schema(
        responses={(200, "text/csv"): OpenApiResponse(description="topic,partition,offset")},
        summary="Export committed offsets as CSV (the from_file format)",
    )
    def get(self, request: Request, cluster: str, group: str) -> HttpResponse:
        offsets = lag.committed_for_export(self.cluster(), group)
        response = HttpResponse(export_csv(offsets), content_type="text/csv")
        # A file name, not the whole id: a group id may be 32,767 bytes long.
        response["Content-Disposition"] = content_disposition(f"{group[:200]}-offsets.csv")
        return response
