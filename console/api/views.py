from datetime import UTC, datetime

from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from console import audit_csv
from console.api.base import ConsoleAPIView, query_int
from console.api.downloads import content_disposition
from console.api.limits import AUDIT_EXPORT_MAX, AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, INT64_MAX
from console.api.serializers import AuditEntrySerializer, MeSerializer
from console.clusters import all_clusters
from console.errors import BadInput
from console.models import AuditEntry
from console.roles import role_of, scoped


class MeView(ConsoleAPIView):
    # Any signed-in user: one with no role learns that it has none, rather than a 403.
    permission_classes = [IsAuthenticated]

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


_AUDIT_FILTERS = [
    OpenApiParameter("actor", str, description="exactly this user"),
    OpenApiParameter("action", str, description="exactly, or a prefix ending in a dot: offsets."),
    OpenApiParameter("cluster", str),
    OpenApiParameter("target", str, description="contains this text (any case)"),
    OpenApiParameter("outcome", str, enum=list(AuditEntry.Outcome.values)),
    OpenApiParameter("since", str, description="ISO-8601 date-time with a time zone"),
    OpenApiParameter("until", str, description="ISO-8601 date-time with a time zone (before it)"),
]


class _AuditView(ConsoleAPIView):
    read_role = "operator"

    def entries(self, request: Request) -> QuerySet[AuditEntry]:
        """The entries the query's filters select, on the clusters this user may read."""
        query = request.query_params
        # A user with roles on some clusters only sees their entries (and none without one).
        entries = scoped(AuditEntry.objects.all(), self.scope())
        for name in ("actor", "cluster"):
            if value := query.get(name):
                entries = entries.filter(**{name: value})
        if action := query.get("action"):
            exact = not action.endswith(".")
            entries = (
                entries.filter(action=action)
                if exact
                else entries.filter(action__startswith=action)
            )
        if target := query.get("target"):
            entries = entries.filter(target__icontains=target)
        if outcome := query.get("outcome"):
            if outcome not in AuditEntry.Outcome.values:
                choices = ", ".join(AuditEntry.Outcome.values)
                raise BadInput("outcome", f"outcome: one of {choices}.")
            entries = entries.filter(outcome=outcome)
        if since := query.get("since"):
            entries = entries.filter(at__gte=_moment(since, "since"))
        if until := query.get("until"):
            entries = entries.filter(at__lt=_moment(until, "until"))
        return entries.order_by("-id")


class AuditListView(_AuditView):
    @extend_schema(
        responses=AuditEntrySerializer(many=True),
        summary="Audit log, newest first",
        parameters=[
            *_AUDIT_FILTERS,
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
        entries = self.entries(request)
        if before := query_int(query, "before_id", 0, 1, INT64_MAX):
            entries = entries.filter(id__lt=before)
        limit = query_int(query, "limit", AUDIT_PAGE_DEFAULT, 1, AUDIT_PAGE_MAX)
        return Response(AuditEntrySerializer(entries[:limit], many=True).data)


class AuditExportView(_AuditView):
    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(
                description="id,at,actor,action,cluster,target,outcome,request,details (the "
                f"last two as JSON), newest first, at most {AUDIT_EXPORT_MAX} rows"
            )
        },
        summary="The audit log's filtered entries as CSV",
        parameters=_AUDIT_FILTERS,
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        rows = audit_csv.rows(self.entries(request)[:AUDIT_EXPORT_MAX])
        response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition("audit.csv")
        return response


def _moment(text: str, field: str) -> datetime:
    """An aware date-time the database can compare (years 1..9999 in UTC)."""
    try:
        moment = parse_datetime(text)
        if moment is not None and moment.tzinfo is not None:
            return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # year 0, month 13, or past year 9999 in UTC
        pass
    raise BadInput(field, f"{field}: give an ISO-8601 date-time with a time zone.")
