"""After each lag pass (console.lag_hooks, in the sampler process): apply the cluster's
enabled rules to the evaluations, keep the states, record the alerts to send and queue their
delivery (alerts.tasks) once committed. Reads and writes a few rows per rule; never calls out."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any

from django.db import transaction

from alerts import conditions
from alerts.models import AlertEvent, AlertRule, AlertState
from alerts.rules import as_rule
from alerts.tasks import enqueue


def _state(row: AlertState) -> conditions.State:
    return conditions.State(row.firing, row.notified, row.since, row.last_sent_at, row.reason)


def on_pass(cluster: str, evaluations: Mapping[str, dict[str, Any]], at: float) -> list[int]:
    """Returns the ids of the alerts queued."""
    rules = list(AlertRule.objects.filter(cluster=cluster, enabled=True))
    if not rules:
        return []
    now = datetime.fromtimestamp(at, UTC)
    rows: dict[int, dict[str, AlertState]] = {rule.pk: {} for rule in rules}
    for row in AlertState.objects.filter(rule__in=rules):
        rows[row.rule_id][row.group_id] = row
    queued: list[int] = []
    with transaction.atomic():
        for model in rules:
            rule = as_rule(model)
            states = {group: _state(row) for group, row in rows[model.pk].items()}
            changed, notes = conditions.evaluate(rule, states, evaluations, now)
            _keep(model, rows[model.pk], changed)
            for note in notes:
                event = AlertEvent.objects.create(
                    rule=model,
                    rule_name=model.name,
                    cluster=cluster,
                    group_id=note.group_id,
                    kind=note.kind,
                    reason=note.reason,
                    snapshot=note.snapshot,
                    at=now,
                    channel=model.channel,
                )
                queued.append(event.pk)
        for event_id in queued:
            transaction.on_commit(partial(enqueue, event_id))
    return queued


def _keep(
    rule: AlertRule,
    rows: dict[str, AlertState],
    changed: Mapping[str, conditions.State | None],
) -> None:
    gone = [rows[g].pk for g, state in changed.items() if state is None and g in rows]
    if gone:
        AlertState.objects.filter(pk__in=gone).delete()
    for group, state in changed.items():
        if state is None:
            continue
        fields = {
            "firing": state.firing,
            "notified": state.notified,
            "since": state.since,
            "last_sent_at": state.last_sent_at,
            "reason": state.reason,
        }
        if group in rows:
            AlertState.objects.filter(pk=rows[group].pk).update(**fields)
        else:
            AlertState.objects.create(rule=rule, group_id=group, **fields)
