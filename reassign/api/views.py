from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from approvals import service as approval_service
from approvals.api.serializers import ApprovalWrapSerializer
from approvals.respond import requested
from console import kafka
from console.api.base import ConsoleAPIView
from console.audit import audited
from reassign import approval_actions as held
from reassign import execution, live, planning, progress
from reassign.api import serializers as s
from reassign.models import Reassignment


class PlanView(ConsoleAPIView):
    # A POST, so admins only (console.api.base): a preview changes nothing, but it is the
    # first step of a move.
    @extend_schema(
        request=s.PlanRequestSerializer,
        responses=s.PlanSerializer,
        summary="Plan a reassignment and preview it (moves, bytes, time); nothing changes",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        # Audited like every write: who looked at moving what, and what was refused.
        with audited(request.user, "reassignment.plan", cluster=cfg.name, request=request.data):
            body = self.validated(s.PlanRequestSerializer, request.data)
            answer = planning.plan(cfg, body)
        return Response(answer)


class ReassignmentListView(ConsoleAPIView):
    read_role = "admin"

    @extend_schema(
        operation_id="clusters_reassignments_list",
        responses=s.ReassignmentListSerializer,
        summary="The console's reassignments of a cluster and every partition Kafka moves now",
    )
    def get(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        rows = Reassignment.objects.filter(cluster=cfg.name)[:200]
        moving = kafka.for_cluster(cfg).list_reassignments()
        return Response(
            {
                "reassignments": [progress.summary(r) for r in rows],
                "in_kafka": [
                    {"topic": t, "partition": p, **vars(m)} for (t, p), m in sorted(moving.items())
                ],
            }
        )

    @extend_schema(
        request=s.ExecuteRequestSerializer,
        responses={201: s.ReassignmentSerializer, 202: ApprovalWrapSerializer},
        summary="Execute a plan with a throttle (kafka-reassign-partitions.sh --execute)",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user, "reassignment.execute", cluster=cfg.name, request=request.data
        ) as audit:
            body = self.validated(s.ExecuteRequestSerializer, request.data)
            if approval_service.protected(cfg):
                return requested(audit, held.ask_execute(request.user, cfg, body))
            r = execution.execute(
                cfg,
                body["plan"],
                body["throttle_bytes_per_s"],
                body["reason"],
                request.user.username,
            )
            audit.target = f"reassignment {r.pk}"
        return Response(progress.detail(cfg, r), status=201)


class ReassignmentDetailView(ConsoleAPIView):
    read_role = "admin"

    def _get(self, reassignment_id: int) -> Reassignment:
        return get_object_or_404(Reassignment, pk=reassignment_id, cluster=self.cluster().name)

    @extend_schema(responses=s.ReassignmentSerializer, summary="A reassignment's live progress")
    def get(self, request: Request, cluster: str, reassignment_id: int) -> Response:
        cfg = self.cluster()
        r = execution.settle(cfg, self._get(reassignment_id))
        return Response(progress.detail(cfg, r))

    @extend_schema(
        request=s.ThrottlePatchSerializer,
        responses=s.ReassignmentSerializer,
        summary="Change the throttle of a running reassignment",
    )
    def patch(self, request: Request, cluster: str, reassignment_id: int) -> Response:
        cfg = self.cluster()
        with audited(
            request.user,
            "reassignment.throttle",
            cluster=cfg.name,
            target=f"reassignment {reassignment_id}",
            request=request.data,
        ):
            body = self.validated(s.ThrottlePatchSerializer, request.data)
            r = execution.change_throttle(
                cfg, self._get(reassignment_id), body["throttle_bytes_per_s"]
            )
        return self._answer(progress.detail(cfg, r))

    @staticmethod
    def _answer(detail: dict) -> Response:
        live.publish(detail)  # other pages watching it see the change now, not next pass
        return Response(detail)


class ReassignmentCancelView(ConsoleAPIView):
    @extend_schema(
        request=None,
        responses=s.ReassignmentSerializer,
        summary="Cancel a running reassignment: its partitions keep their old replicas",
    )
    def post(self, request: Request, cluster: str, reassignment_id: int) -> Response:
        cfg = self.cluster()
        with audited(
            request.user,
            "reassignment.cancel",
            cluster=cfg.name,
            target=f"reassignment {reassignment_id}",
        ):
            self.no_body()
            r = get_object_or_404(Reassignment, pk=reassignment_id, cluster=cfg.name)
            r = execution.cancel(cfg, r)
        return ReassignmentDetailView._answer(progress.detail(cfg, r))
