from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.api.serializers import AuditEntrySerializer, MeSerializer
from console.errors import BadInput
from console.models import AuditEntry
from console.roles import role_of

AUDIT_PAGE_LIMIT = 500


class MeView(ConsoleAPIView):
    @extend_schema(responses=MeSerializer, summary="The signed-in user and role")
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.username, "role": role_of(request.user)})


class AuditListView(ConsoleAPIView):
    read_role = "operator"

    @extend_schema(
        responses=AuditEntrySerializer(many=True),
        summary="Audit log, newest first",
        parameters=[
            OpenApiParameter("actor", str),
            OpenApiParameter("action", str),
            OpenApiParameter("cluster", str),
            OpenApiParameter("since", str, description="ISO-8601 date-time"),
            OpenApiParameter("limit", int, description=f"at most {AUDIT_PAGE_LIMIT}"),
        ],
    )
    def get(self, request: Request) -> Response:
        entries = AuditEntry.objects.all()
        for name in ("actor", "action", "cluster"):
            if value := request.query_params.get(name):
                entries = entries.filter(**{name: value})
        if since := request.query_params.get("since"):
            moment = parse_datetime(since)
            if moment is None or moment.tzinfo is None:
                raise BadInput("since", "since: give an ISO-8601 date-time with a time zone.")
            entries = entries.filter(at__gte=moment)
        try:
            limit = min(int(request.query_params.get("limit", AUDIT_PAGE_LIMIT)), AUDIT_PAGE_LIMIT)
        except ValueError:
            raise BadInput("limit", "limit: give a whole number.") from None
        return Response(AuditEntrySerializer(entries[:limit], many=True).data)
