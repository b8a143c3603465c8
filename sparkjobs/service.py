"""Submitting, listing and cancelling jobs: what the views call (no HTTP here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from console import kafka
from console.audit import audited
from console.clusters import ClusterNotFound, get_cluster
from console.errors import BadInput, Conflict, NotFound, TooMany
from console.metadata import cache
from console.roles import ClusterScope, scoped
from sparkjobs import states
from sparkjobs.catalog import get_job_type
from sparkjobs.choices import ACTIVE, JobState
from sparkjobs.job_types import check_params, validate_params
from sparkjobs.models import SparkJob
from sparkjobs.tasks import enqueue


def submit(
    job_type_name: str,
    cluster: str,
    params: Any,
    user: Any,
    log: audited | None = None,
    schedule: Any = None,
) -> SparkJob:
    """Validate everything, then save the job and queue it once the row is committed (with
    its audit entry `log` in the same transaction, when given). Any refusal raises BadInput
    naming the field, before anything is saved. A job of a `schedule` (a Schedule) is not
    counted against its owner's limit of active jobs: a schedule has one at a time."""
    job_type = get_job_type(job_type_name)
    filled = validate_params(job_type, params)
    try:
        cfg = get_cluster(cluster)
    except ClusterNotFound:
        raise BadInput("cluster", f"cluster: there is no cluster named {cluster!r}.") from None
    for fill in job_type.fills:
        fill(cfg.name, filled)
    check_params(job_type, cache.snapshot(cfg), filled)
    if job_type.data_checks:
        client = kafka.for_cluster(cfg)
        for check in job_type.data_checks:
            check(client, filled)

    def save() -> SparkJob:
        if schedule is None:
            _refuse_over_active_limit(user)
        job = SparkJob.objects.create(
            job_type=job_type.name,
            cluster=cfg.name,
            params=filled,
            created_by=user,
            schedule=schedule,
        )
        enqueue(job.pk)
        if log is not None:
            log.details["job_id"] = job.pk
        return job

    if log is not None:
        return log.commit(save)
    with transaction.atomic():
        return save()


def _refuse_over_active_limit(user: Any) -> None:
    """At most SPARK_MAX_ACTIVE_JOBS_PER_USER queued or running jobs per user. Called in the
    transaction that saves the job, after locking the user's row, so parallel submits of one
    user are counted one after the other (SQLite's IMMEDIATE transactions serialize anyway)."""
    limit = settings.SPARK_MAX_ACTIVE_JOBS_PER_USER
    if not limit or user is None or user.pk is None:
        return
    # get_user_model(), not type(user): a session's user is a lazy proxy object.
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    active = SparkJob.objects.filter(created_by=user, state__in=ACTIVE).count()
    if active >= limit:
        raise TooMany(
            f"You have {active} Spark jobs queued or running, the most one user may have "
            f"(SPARK_MAX_ACTIVE_JOBS_PER_USER={limit}); submit again once one has ended.",
            code="too_many_jobs",
            details={"active": active, "limit": limit},
        )


def get_job(job_id: int) -> SparkJob:
    try:
        return SparkJob.objects.select_related("created_by").get(pk=job_id)
    except SparkJob.DoesNotExist:
        raise NotFound(f"There is no Spark job {job_id}.", details={"job_id": job_id}) from None


def list_jobs(
    state: str | None, job_type: str | None, limit: int, scope: ClusterScope | None = None
) -> list[SparkJob]:
    """Newest first; `scope`: only the jobs of the clusters it allows."""
    jobs = SparkJob.objects.select_related("created_by")
    if scope is not None:
        jobs = scoped(jobs, scope)
    if state:
        if state not in JobState.values:
            raise BadInput("state", f"state: choose one of {', '.join(JobState.values)}.")
        jobs = jobs.filter(state=state)
    if job_type:
        jobs = jobs.filter(job_type=job_type)
    return list(jobs.order_by("-created_at", "-id")[:limit])


def cancel(job_id: int) -> SparkJob:
    """Cancel a job: at once when queued; a started one's worker ends it within seconds."""
    get_job(job_id)
    if states.request_cancel(job_id) is None:
        job = get_job(job_id)
        raise Conflict(
            f"Spark job {job_id} already ended ({job.state}).",
            code="job_finished",
            details={"state": job.state},
        )
    return get_job(job_id)


# A driver-log line longer than this is cut when the log is read line by line (filtered or
# its last lines): what is kept in memory stays bounded. The whole log, as is, is never cut.
LOG_LINE_CHARS = 8192


def driver_log(job: SparkJob) -> Iterator[str]:
    """The job's driver log, line by line as it is read (a line over LOG_LINE_CHARS characters
    cut, ending in `…`); the last lines kept with the job (`log_tail`) when the file is gone."""
    path = Path(job.log_path) if job.log_path else None
    if path is None or not path.is_file():
        yield from job.log_tail.splitlines(keepends=True)
        return
    with path.open(encoding="utf-8", errors="replace") as f:
        while line := f.readline(LOG_LINE_CHARS):
            if len(line) == LOG_LINE_CHARS and not line.endswith("\n"):
                rest = f.readline(LOG_LINE_CHARS)
                cut = rest not in ("", "\n")
                while rest and not rest.endswith("\n"):
                    rest = f.readline(LOG_LINE_CHARS)
                line += "…\n" if cut else rest
            yield line
