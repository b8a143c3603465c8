from typing import Any

from celery import shared_task
from celery.signals import worker_ready


@worker_ready.connect
def _start_audit_retention(**_: Any) -> None:
    from console import audit_retention

    audit_retention.start_daily_thread()


@shared_task
def ping() -> str:
    """A round trip through Redis and a worker: used by health checks and the test suite."""
    return "pong"
