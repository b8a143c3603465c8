"""Celery tasks of Spark jobs (queue `spark`), and the reaper every worker runs."""

from __future__ import annotations

from functools import partial
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import transaction

from sparkjobs import reaper, runner


@shared_task(
    acks_late=True,
    soft_time_limit=settings.SPARK_JOB_SOFT_TIME_LIMIT,
    time_limit=settings.SPARK_JOB_HARD_TIME_LIMIT,
)
def run_spark_job(job_id: int) -> str:
    return runner.run(job_id)


def enqueue(job_id: int) -> None:
    """Queue the job's task once the row is committed (a worker must find it)."""
    transaction.on_commit(partial(run_spark_job.delay, job_id))


@worker_ready.connect
def _start_reaper(**_: Any) -> None:
    reaper.reap()  # at once: jobs of a worker that died before this one started
    reaper.start_thread()
