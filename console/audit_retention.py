"""Audit retention: entries older than AUDIT_RETENTION_DAYS are deleted, by
`manage.py pruneaudit` and once a day by every Celery worker (deleting is idempotent, so
several workers doing it is harmless)."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from console.models import AuditEntry

log = logging.getLogger(__name__)

DAY_S = 86_400
BATCH = 5_000  # rows per DELETE: a long delete would hold SQLite's write lock for seconds


def prune(days: int | None = None) -> int:
    """Delete entries older than `days` (default the setting; 0 keeps everything); how many."""
    keep = settings.AUDIT_RETENTION_DAYS if days is None else days
    if keep <= 0:
        return 0
    cutoff = timezone.now() - timedelta(days=keep)
    deleted = 0
    while True:
        ids = list(AuditEntry.objects.filter(at__lt=cutoff).values_list("id", flat=True)[:BATCH])
        if not ids:
            return deleted
        deleted += AuditEntry.objects.filter(id__in=ids).delete()[0]


def _loop(stop: threading.Event) -> None:
    while True:
        try:
            if count := prune():
                log.info("audit retention: deleted %d entries", count)
        except Exception:  # a database hiccup must not end the thread for good
            log.exception("audit retention failed; trying again in a day")
        if stop.wait(DAY_S):
            return


def start_daily_thread() -> threading.Event:
    """Prune now and then once a day in a daemon thread; set the returned event to stop."""
    stop = threading.Event()
    threading.Thread(target=_loop, args=(stop,), name="audit-retention", daemon=True).start()
    return stop
