"""Delivering alerts in the Celery worker, with retries: a receiver that is down is tried
again after 2, 4, 8, 16 ... s (ALERT_RETRY_BASE_SECONDS, doubling, at most 5 minutes apart),
ALERT_DELIVERY_ATTEMPTS tries in all; then the alert is `failed`. Never in the sampler."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from alerts import delivery
from alerts.models import AlertEvent, AlertRule


def backoff(tries_done: int) -> float:
    return min(settings.ALERT_RETRY_BASE_SECONDS * 2 ** (tries_done - 1), 300.0)


@shared_task(bind=True, acks_late=True, max_retries=None)
def deliver(self: Any, event_id: int) -> str:
    event = AlertEvent.objects.filter(pk=event_id).first()
    if event is None or event.state != "pending":
        return "skipped"
    rule = AlertRule.objects.filter(pk=event.rule_id).first() if event.rule_id else None
    if delivery.attempt(event, rule):
        AlertEvent.objects.filter(pk=event_id).update(state="delivered")
        return "delivered"
    tries = event.attempts.count()
    if rule is None or tries >= settings.ALERT_DELIVERY_ATTEMPTS:
        AlertEvent.objects.filter(pk=event_id).update(state="failed")
        return "failed"
    raise self.retry(countdown=backoff(tries))


def enqueue(event_id: int) -> None:
    deliver.delay(event_id)
