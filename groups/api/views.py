from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.audit import audited
from groups import changes, lag, resets
from groups.api import serializers as s
from groups.models import OffsetReset
from groups.strategies import export_csv


def _audit_reset(log: audited, reset: OffsetReset) -> None:
    """An execution that did not commit everything is audited as failed, with its id."""
    log.details.update(reset_id=reset.pk, state=reset.state)
    if reset.executed and reset.state != OffsetReset.State.SUCCEEDED:
        log.outcome = "failed"


class GroupListView(ConsoleAPIView):
    @extend_schema(responses=s.GroupRowSerializer(many=True), summary="Consumer groups with lag")
    def get(self, request: Request, cluster: str) -> Response:
        return Response(lag.list_groups(self.cluster()))


class GroupDetailView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(responses=s.GroupDetailSerializer, summary="A group's members and offsets")
    def get(self, request: Request, cluster: str, group: str) -> Response:
        return Response(lag.group_detail(self.cluster(), group))

    @extend_schema(responses={204: None}, summary="Delete a group (refused while it has members)")
    def delete(self, request: Request, cluster: str, group: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "group.delete", cluster=cfg.name, target=group):
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
        responses={201: s.OffsetResetSerializer},
        summary="Plan (dry run, the default) or execute an offset reset",
    )
    def post(self, request: Request, cluster: str, group: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user, "offsets.reset", cluster=cfg.name, target=group, request=request.data
        ) as log:
            body = self.validated(s.ResetRequestSerializer, request.data)
            dry_run = body.get("dry_run", True)
            log.action = "offsets.reset.preview" if dry_run else "offsets.reset.execute"
            reset = resets.create_reset(cfg, group, body, request.user)
            _audit_reset(log, reset)
            if dry_run:
                log.outcome = "preview"
        return Response(resets.reset_as_dict(reset), status=201)


class OffsetResetDetailView(ConsoleAPIView):
    @extend_schema(responses=s.OffsetResetSerializer, summary="One reset with plan and result")
    def get(self, request: Request, reset_id: int) -> Response:
        return Response(resets.reset_as_dict(resets.get_reset(reset_id)))


class OffsetResetExecuteView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.ReasonRequestSerializer,
        responses={200: s.OffsetResetSerializer},
        summary="Execute exactly the plan of a dry-run preview (409 if it no longer holds)",
    )
    def post(self, request: Request, reset_id: int) -> Response:
        preview = resets.get_reset(reset_id)
        with audited(
            request.user,
            "offsets.reset.execute",
            cluster=preview.cluster,
            target=preview.group_id,
            request={
                "preview": reset_id,
                **(request.data if isinstance(request.data, dict) else {}),
            },
        ) as log:
            body = self.validated(s.ReasonRequestSerializer, request.data or {})
            reset = resets.execute_preview(reset_id, request.user, body["reason"])
            _audit_reset(log, reset)
        return Response(resets.reset_as_dict(reset))


class OffsetResetUndoView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.ReasonRequestSerializer,
        responses={201: s.OffsetResetSerializer},
        summary="Restore the offsets from before an executed reset",
    )
    def post(self, request: Request, reset_id: int) -> Response:
        original = resets.get_reset(reset_id)
        with audited(
            request.user,
            "offsets.reset.undo",
            cluster=original.cluster,
            target=original.group_id,
            request={
                "undo_of": reset_id,
                **(request.data if isinstance(request.data, dict) else {}),
            },
        ) as log:
            body = self.validated(s.ReasonRequestSerializer, request.data or {})
            undo = resets.undo_reset(reset_id, request.user, body["reason"])
            _audit_reset(log, undo)
        return Response(resets.reset_as_dict(undo), status=201)


class OffsetsCsvView(ConsoleAPIView):
    @extend_schema(
        responses={(200, "text/csv"): OpenApiResponse(description="topic,partition,offset")},
        summary="Export committed offsets as CSV (the from_file format)",
    )
    def get(self, request: Request, cluster: str, group: str) -> HttpResponse:
        offsets = lag.committed_for_export(self.cluster(), group)
        response = HttpResponse(export_csv(offsets), content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="{group}-offsets.csv"'
        return response
