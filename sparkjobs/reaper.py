"""The reaper: started jobs whose heartbeat stopped are `lost`; their Spark processes end.

A worker writes a job's heartbeat every second while it watches spark-submit. When the worker
dies (killed, out of memory, its machine gone) nothing moves the job on, so every worker runs
this check every SPARK_REAPER_INTERVAL seconds (and `manage.py sparkreaper` runs it by hand).
Reaping belongs to the workers, not to API reads: a read should not change anything, and a
job is only lost when no worker could be running it.
A lost job's process group is killed by a reaper on the host that ran it (`worker_host`),
once it has checked that the pid still is that job's spark-submit (pids are reused).
"""

from __future__ import annotations

import logging
import socket
import threading
from datetime import datetime, timedelta

import psutil
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from sparkjobs import states
from sparkjobs import steps as job_steps
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob
from sparkjobs.runner import STARTED, kill_group, spec_path

log = logging.getLogger(__name__)


def is_job_process(pid: int, job_id: int) -> bool:
    """Whether `pid` is the spark-submit of job `job_id` (its command names the job's spec)."""
    try:
        return str(spec_path(job_id)) in psutil.Process(pid).cmdline()
    except psutil.Error:
        return False


def reap(now: datetime | None = None) -> list[int]:
    """Mark stale started jobs lost and end this host's leftovers; returns the lost ids."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SPARK_HEARTBEAT_TIMEOUT)
    lost = []
    for job in SparkJob.objects.filter(state__in=STARTED, heartbeat_at__lt=cutoff):
        error = (
            f"No heartbeat from its worker on {job.worker_host or 'an unknown host'} for "
            f"{settings.SPARK_HEARTBEAT_TIMEOUT}s: the worker stopped; the job did not finish."
        )
        # A pipeline's running step fails with the job, the ones not started are skipped.
        extra = (
            {}
            if job.steps is None
            else {"steps": job_steps.finalize(job.steps, JobState.LOST, error, now.isoformat())}
        )
        if states.transition(job.pk, STARTED, JobState.LOST, error=error, **extra):
            lost.append(job.pk)
            log.warning("spark job %s is lost (last heartbeat %s)", job.pk, job.heartbeat_at)
    host = socket.gethostname()
    leftovers = SparkJob.objects.filter(
        state=JobState.LOST, worker_host=host, spark_pid__isnull=False
    )
    for job in leftovers:
        assert job.spark_pid is not None
        if is_job_process(job.spark_pid, job.pk):
            log.warning("ending the Spark processes of lost job %s", job.pk)
            kill_group(job.spark_pid)
        SparkJob.objects.filter(pk=job.pk).update(spark_pid=None)
        spec_path(job.pk).unlink(missing_ok=True)
    return lost


def _loop(stop: threading.Event) -> None:
    while not stop.wait(settings.SPARK_REAPER_INTERVAL):
        try:
            close_old_connections()
            reap()
        except Exception:  # a database hiccup must not end the reaper for good
            log.exception("spark job reaper pass failed")


def start_thread() -> threading.Event:
    """Run the reaper every SPARK_REAPER_INTERVAL seconds in a daemon thread; set the
    returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=_loop, args=(stop,), name="spark-reaper", daemon=True).start()
    return stop
