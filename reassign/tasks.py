"""The reassignment watcher starts with each Celery worker (Celery imports `tasks` modules)."""

from typing import Any

from celery.signals import worker_ready


@worker_ready.connect
def start_watcher(**_: Any) -> None:
    from reassign import watcher

    watcher.start_thread()
