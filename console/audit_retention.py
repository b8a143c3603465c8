"""Audit retention: entries older than AUDIT_RETENTION_DAYS are deleted, by
`manage.py pruneaudit` and once a day by every Celery worker (console/daily.py; deleting is
idempotent, so several workers doing it is harmless)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from console.daily import delete_in_batches
from console.models import AuditEntry

BATCH = 5_000  # rows per DELETE: a long delete would hold SQLite's write lock for seconds


def prune(days: int | None = None) -> int:
    """Delete entries older than `days` (default the setting; 0 keeps everything); how many."""
    keep = settings.AUDIT_RETENTION_DAYS if days is None else days
    if keep <= 0:
        return 0
    cutoff = timezone.now() - timedelta(days=keep)
    return delete_in_batches(AuditEntry.objects.filter(at__lt=cutoff), BATCH)
