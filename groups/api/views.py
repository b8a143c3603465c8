from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console import kafka
from console.api.base import ConsoleAPIView
from console.audit import audited
from console.errors import NotFound
from groups import lag, resets
from groups.api import serializers as s
from groups.models import OffsetReset
from groups.strategies import export_csv


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
            desc = resets.describe_group(cfg, group)
            if not desc.exists:
                raise NotFound(f"Consumer group {group!r} does not exist.", code="group_not_found")
            resets.refuse_if_active(desc)
            kafka.delete_group(cfg.bootstrap_servers, group, cfg.client_config)
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
            reset = resets.create_reset(cfg, group, body, request.user, log)
        return Response(resets.reset_as_dict(reset), status=201)


def _get_reset(reset_id: int) -> OffsetReset:
    reset = OffsetReset.objects.select_related("created_by").filter(pk=reset_id).first()
    if reset is None:
        raise NotFound(f"There is no offset reset {reset_id}.", code="reset_not_found")
    return reset


class OffsetResetDetailView(ConsoleAPIView):
    @extend_schema(responses=s.OffsetResetSerializer, summary="One reset with plan and result")
    def get(self, request: Request, reset_id: int) -> Response:
        return Response(resets.reset_as_dict(_get_reset(reset_id)))


class OffsetResetUndoView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.UndoRequestSerializer,
        responses={201: s.OffsetResetSerializer},
        summary="Restore the offsets from before an executed reset",
    )
    def post(self, request: Request, reset_id: int) -> Response:
        body = self.validated(s.UndoRequestSerializer, request.data or {})
        undo = resets.undo_reset(reset_id, request.user, body["reason"])
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
