from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.api.serializers import AuditEntrySerializer, MeSerializer
from console.errors import BadInput
from console.models import AuditEntry
from console.roles import role_of

AUDIT_PAGE_LIMIT = 1000
AUDIT_PAGE_DEFAULT = 100


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
            OpenApiParameter(
                "limit", int, description=f"page size, 1..{AUDIT_PAGE_LIMIT} (default 100)"
            ),
            OpenApiParameter(
                "before_id", int, description="the next page: entries older than this id"
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        entries = AuditEntry.objects.all()
        for name in ("actor", "action", "cluster"):
            if value := query.get(name):
                entries = entries.filter(**{name: value})
        if since := query.get("since"):
            try:
                moment = parse_datetime(since)
            except ValueError:  # well-formed but impossible, e.g. year 0 or month 13
                moment = None
            if moment is None or moment.tzinfo is None:
                raise BadInput("since", "since: give an ISO-8601 date-time with a time zone.")
            entries = entries.filter(at__gte=moment)
        if before := query.get("before_id"):
            entries = entries.filter(id__lt=_whole(before, "before_id", 1, 2**63 - 1))
        limit = _whole(query.get("limit", str(AUDIT_PAGE_DEFAULT)), "limit", 1, AUDIT_PAGE_LIMIT)
        return Response(AuditEntrySerializer(entries.order_by("-id")[:limit], many=True).data)


def _whole(text: str, field: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise BadInput(field, f"{field}: give a whole number from {low} to {high}.")
    return int(text)
