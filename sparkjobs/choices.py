"""States of a Spark job, with the named subsets the rest of the app asks about."""

from __future__ import annotations

from django.db import models


class JobState(models.TextChoices):
    QUEUED = "queued"  # saved; its Celery task is on the `spark` queue
    SUBMITTED = "submitted"  # a worker took it and started spark-submit
    RUNNING = "running"  # the Spark application is up (its id is known)
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"
    LOST = "lost"  # its worker stopped sending heartbeats (the reaper decided)


# A job in ACTIVE may still change; one in TERMINAL never does.
ACTIVE: frozenset[str] = frozenset({JobState.QUEUED, JobState.SUBMITTED, JobState.RUNNING})
# Active with a spark-submit process somewhere: these carry heartbeats.
STARTED: frozenset[str] = frozenset({JobState.SUBMITTED, JobState.RUNNING})
TERMINAL: frozenset[str] = frozenset(
    {JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED, JobState.LOST}
)
