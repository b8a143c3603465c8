from typing import Any

from celery import shared_task
from celery.signals import worker_ready


@worker_ready.connect
def _start_daily_jobs(**_: Any) -> None:
    from console import daily

    daily.start_thread()


@shared_task
def ping() -> str:
    """A round trip through Redis and a worker: used by health checks and the test suite."""
    return "pong"
