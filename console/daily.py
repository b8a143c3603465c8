"""Work every Celery worker does once a day (retention of the audit log and of the alerts
sent): each app registers its jobs when it loads; the worker runs them all on one daemon
thread, at its start and then every day. Every job must be idempotent: several workers run
them too."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

DAY_S = 86_400
BATCH = 5_000  # rows per DELETE: a long delete would hold SQLite's write lock for seconds

_jobs: dict[str, Callable[[], int]] = {}


def register(name: str, job: Callable[[], int]) -> None:
    """`job` returns how many rows it deleted (or changed), for the log."""
    _jobs[name] = job


def run_once() -> dict[str, int]:
    done = {}
    for name, job in list(_jobs.items()):
        try:
            done[name] = job()
            if done[name]:
                log.info("%s: %d rows", name, done[name])
        except Exception:  # a database hiccup must not end the thread for good
            log.exception("%s failed; trying again in a day", name)
    return done


def _loop(stop: threading.Event) -> None:
    while True:
        run_once()
        if stop.wait(DAY_S):
            return


def start_thread() -> threading.Event:
    """Run the jobs now and then once a day in a daemon thread; set the event to stop."""
    stop = threading.Event()
    threading.Thread(target=_loop, args=(stop,), name="daily-jobs", daemon=True).start()
    return stop


def delete_in_batches(rows: Any, batch: int | None = None) -> int:
    """Delete what the queryset `rows` selects, `batch` rows per statement; how many."""
    deleted = 0
    while True:
        ids = list(rows.values_list("pk", flat=True)[: batch or BATCH])
        if not ids:
            return deleted
        deleted += rows.model.objects.filter(pk__in=ids).delete()[0]
