"""What the alerts API does, without HTTP."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from alerts import delivery, rules
from alerts.models import AlertEvent, AlertRule
from console.errors import NotFound
from console.roles import ClusterScope, scoped


def list_rules() -> QuerySet[AlertRule]:
    return AlertRule.objects.select_related("created_by").prefetch_related("states")


def get_rule(rule_id: int) -> AlertRule:
    rule = list_rules().filter(pk=rule_id).first()
    if rule is None:
        raise NotFound(f"Alert rule {rule_id} does not exist.", code="alert_rule_not_found")
    return rule


def redacted(data: Any) -> Any:
    """A rule body as the audit log keeps it: the target URL is a secret (Slack, Teams)."""
    if isinstance(data, dict) and isinstance(data.get("target"), str):
        channel = (
            data.get("channel") if data.get("channel") in ("webhook", "slack", "teams") else None
        )
        if channel or "://" in data["target"]:
            return {**data, "target": rules.shown_target(channel or "webhook", data["target"])}
    return data


def create_rule(body: dict[str, Any], user: Any) -> AlertRule:
    rule = AlertRule.objects.create(created_by=user, **body)
    return get_rule(rule.pk)


def update_rule(rule: AlertRule, body: dict[str, Any]) -> AlertRule:
    watched = (rule.cluster, rule.group_pattern)
    for key, value in body.items():
        setattr(rule, key, value)
    rule.save()
    if (rule.cluster, rule.group_pattern) != watched:
        # What it remembered of groups it no longer watches would resolve them by surprise.
        rule.states.all().delete()
    return get_rule(rule.pk)


def send_test(rule: AlertRule) -> AlertEvent:
    event = AlertEvent.objects.create(
        rule=rule,
        rule_name=rule.name,
        cluster=rule.cluster,
        group_id="(test)",
        kind="test",
        reason="a test alert sent from the console: the channel works",
        snapshot={},
        at=timezone.now(),
        channel=rule.channel,
    )
    ok = delivery.attempt(event, rule)
    event.state = "delivered" if ok else "failed"
    event.save(update_fields=["state"])
    return AlertEvent.objects.prefetch_related("attempts").get(pk=event.pk)


def list_events(
    cluster: str | None,
    group: str | None,
    rule: int | None,
    limit: int,
    scope: ClusterScope | None = None,
) -> QuerySet[AlertEvent]:
    events = AlertEvent.objects.prefetch_related("attempts")
    if scope is not None:
        events = scoped(events, scope)
    if cluster:
        events = events.filter(cluster=cluster)
    if group:
        events = events.filter(group_id=group)
    if rule:
        events = events.filter(rule_id=rule)
    return events[:limit]
