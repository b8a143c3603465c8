from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.audit import audited
from reassign import planning
from reassign.api import serializers as s


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
