"""Alerts sent (with their delivery attempts) older than ALERT_RETENTION_DAYS are deleted
once a day by every Celery worker (console/daily.py); the rules and what they know of the
groups stay."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from alerts.models import AlertEvent
from console.daily import delete_in_batches


def prune(days: int | None = None) -> int:
    keep = settings.ALERT_RETENTION_DAYS if days is None else days
    if keep <= 0:
        return 0
    return delete_in_batches(
        AlertEvent.objects.filter(at__lt=timezone.now() - timedelta(days=keep))
    )
