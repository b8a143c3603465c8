from datetime import UTC, datetime

from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView, query_int
from console.api.limits import AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, INT64_MAX
from console.api.serializers import AuditEntrySerializer, MeSerializer
from console.clusters import all_clusters
from console.errors import BadInput
from console.models import AuditEntry
from console.roles import role_of, scoped


class MeView(ConsoleAPIView):
    @extend_schema(responses=MeSerializer, summary="The signed-in user and role")
    def get(self, request: Request) -> Response:
        user = request.user
        on_each = {c.name: role_of(user, c.name) for c in all_clusters()}
        return Response(
            {
                "username": user.username,
                "role": role_of(user),
                "cluster_roles": {name: role for name, role in on_each.items() if role},
            }
        )


class AuditListView(ConsoleAPIView):
    read_role = "operator"

    @extend_schema(
        responses=AuditEntrySerializer(many=True),
        summary="Audit log, newest first",
        parameters=[
            OpenApiParameter("actor", str),
            OpenApiParameter("action", str),
            OpenApiParameter("cluster", str),
            OpenApiParameter("since", str, description="ISO-8601 date-time with a time zone"),
            OpenApiParameter(
                "limit",
                int,
                description=f"page size, 1..{AUDIT_PAGE_MAX} (default {AUDIT_PAGE_DEFAULT})",
            ),
            OpenApiParameter(
                "before_id",
                int,
                description="the next page: entries older than this id (the last id seen)",
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        # A user with roles on some clusters only sees their entries (and none without one).
        entries = scoped(AuditEntry.objects.all(), self.scope())
        for name in ("actor", "action", "cluster"):
            if value := query.get(name):
                entries = entries.filter(**{name: value})
        if since := query.get("since"):
            entries = entries.filter(at__gte=_moment(since, "since"))
        if before := query_int(query, "before_id", 0, 1, INT64_MAX):
            entries = entries.filter(id__lt=before)
        limit = query_int(query, "limit", AUDIT_PAGE_DEFAULT, 1, AUDIT_PAGE_MAX)
        return Response(AuditEntrySerializer(entries.order_by("-id")[:limit], many=True).data)


def _moment(text: str, field: str) -> datetime:
    """An aware date-time the database can compare (years 1..9999 in UTC)."""
    try:
        moment = parse_datetime(text)
        if moment is not None and moment.tzinfo is not None:
            return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # year 0, month 13, or past year 9999 in UTC
        pass
    raise BadInput(field, f"{field}: give an ISO-8601 date-time with a time zone.")
