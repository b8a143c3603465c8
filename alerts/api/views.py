from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from alerts import service
from alerts.api import serializers as s
from console.api.base import ConsoleAPIView, query_int
from console.audit import audited
from console.roles import scoped

EVENTS_DEFAULT, EVENTS_MAX = 100, 1000


class _AlertView(ConsoleAPIView):
    """A rule carries its cluster: the role is checked on it."""

    def _rule(self, rule_id: int) -> Any:
        rule = service.get_rule(rule_id)
        self.require_role(rule.cluster)
        return rule


class RuleListView(_AlertView):
    write_role = "operator"

    @extend_schema(responses=s.RuleSerializer(many=True), summary="Lag alert rules")
    def get(self, request: Request) -> Response:
        mine = scoped(service.list_rules(), self.scope())
        return Response(s.RuleSerializer(mine, many=True).data)

    @extend_schema(
        request=s.RuleInputSerializer,
        responses={201: s.RuleSerializer},
        summary="Create a lag alert rule",
    )
    def post(self, request: Request) -> Response:
        with audited(
            request.user,
            "alert.rule.create",
            cluster=self.body_field("cluster"),
            target=self.body_field("name"),
            request=service.redacted(request.data),
        ):
            body = self.validated(s.RuleInputSerializer, request.data)
            self.require_role(body["cluster"])
            rule = service.create_rule(body, request.user)
        return Response(s.RuleSerializer(rule).data, status=201)


class RuleDetailView(_AlertView):
    write_role = "operator"

    @extend_schema(responses=s.RuleSerializer, summary="One lag alert rule")
    def get(self, request: Request, rule_id: int) -> Response:
        return Response(s.RuleSerializer(self._rule(rule_id)).data)

    @extend_schema(
        request=s.RuleInputSerializer(partial=True),
        responses=s.RuleSerializer,
        summary="Change a lag alert rule (the fields given)",
    )
    def patch(self, request: Request, rule_id: int) -> Response:
        rule = self._rule(rule_id)
        with audited(
            request.user,
            "alert.rule.update",
            cluster=rule.cluster,
            target=str(rule_id),
            request=service.redacted(request.data),
        ):
            body = self.validated(
                s.RuleInputSerializer, request.data, partial=True, context={"rule": rule}
            )
            if "cluster" in body:  # moved to another cluster: the role is needed there too
                self.require_role(body["cluster"])
            rule = service.update_rule(rule, body)
        return Response(s.RuleSerializer(rule).data)

    @extend_schema(responses={204: None}, summary="Delete a lag alert rule")
    def delete(self, request: Request, rule_id: int) -> Response:
        rule = self._rule(rule_id)
        with audited(request.user, "alert.rule.delete", cluster=rule.cluster, target=str(rule_id)):
            self.no_body()
            rule.delete()
        return Response(status=204)


class RuleTestView(_AlertView):
    write_role = "operator"

    @extend_schema(
        request=None,
        responses=s.EventSerializer,
        summary="Send a test alert through the rule's channel now (one try, recorded)",
    )
    def post(self, request: Request, rule_id: int) -> Response:
        rule = self._rule(rule_id)
        with audited(request.user, "alert.rule.test", cluster=rule.cluster, target=str(rule_id)):
            self.no_body()
            event = service.send_test(rule)
        return Response(s.EventSerializer(event).data)


class EventListView(_AlertView):
    @extend_schema(
        responses=s.EventSerializer(many=True),
        summary="Alerts sent, newest first, with every delivery attempt",
        parameters=[
            OpenApiParameter("cluster", str),
            OpenApiParameter("group", str),
            OpenApiParameter("rule", int),
            OpenApiParameter("limit", int, description=f"1..{EVENTS_MAX} ({EVENTS_DEFAULT})"),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        events = service.list_events(
            cluster=query.get("cluster") or None,
            group=query.get("group") or None,
            rule=query_int(query, "rule", 0, 0, 2**63 - 1) or None,
            limit=query_int(query, "limit", EVENTS_DEFAULT, 1, EVENTS_MAX),
            scope=self.scope(),
        )
        return Response(s.EventSerializer(events, many=True).data)
