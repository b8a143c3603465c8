"""The workers' daily jobs (console.daily): every app's retention job runs, one failing does
not stop the others; alerts sent are kept ALERT_RETENTION_DAYS."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from alerts import retention
from alerts.models import AlertEvent, DeliveryAttempt
from console import daily

pytestmark = pytest.mark.django_db


def test_the_apps_register_their_retention_and_a_failing_job_does_not_stop_the_others(
    monkeypatch,
):
    assert {"audit retention", "alert retention"} <= set(daily._jobs)
    ran = []
    monkeypatch.setattr(daily, "_jobs", {})
    daily.register("broken", lambda: 1 // 0)
    daily.register("fine", lambda: ran.append(1) or 3)
    assert daily.run_once() == {"fine": 3} and ran == [1]


def _event(age_days: float) -> AlertEvent:
    event = AlertEvent.objects.create(
        rule_name="r", cluster="local", group_id="g", kind="firing", reason="x",
        at=timezone.now() - timedelta(days=age_days), channel="webhook",
    )  # fmt: skip
    DeliveryAttempt.objects.create(
        event=event, at=event.at, ok=True, answer="HTTP 200", duration_ms=1
    )
    return event


def test_alerts_older_than_the_retention_go_with_their_attempts(settings):
    settings.ALERT_RETENTION_DAYS = 30
    old, recent = _event(31), _event(29)
    assert retention.prune() == 2  # the event and its attempt
    assert list(AlertEvent.objects.all()) == [recent]
    assert DeliveryAttempt.objects.filter(event=old.pk).count() == 0
    assert retention.prune(days=0) == 0 and AlertEvent.objects.count() == 1
