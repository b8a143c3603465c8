from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from sparkjobs import steps as job_steps
from sparkjobs.choices import JobState


class SparkJob(models.Model):
    """One run of a job type over a cluster's topic data; changed only through `states`."""

    job_type = models.CharField(max_length=64)
    cluster = models.CharField(max_length=64)
    params = models.JSONField(default=dict)
    state = models.CharField(
        max_length=16, choices=JobState.choices, default=JobState.QUEUED, db_index=True
    )
    progress = models.FloatField(default=0.0)  # 0..1, from the driver's completed tasks
    spark_app_id = models.CharField(max_length=128, blank=True)
    spark_ui_url = models.CharField(max_length=255, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    cancel_requested = models.BooleanField(default=False)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    # A failed job's driver-log lines that explain the failure (sparkjobs/log_lines.py), set
    # once by the runner as the job fails: reading a job never parses its log.
    failure_lines = models.JSONField(default=list, blank=True)
    log_tail = models.TextField(blank=True)
    log_path = models.CharField(max_length=1024, blank=True)
    # Where the spark-submit process group runs, so a reaper on that host can end it.
    worker_host = models.CharField(max_length=255, blank=True)
    spark_pid = models.IntegerField(null=True, blank=True)
    # A multi-step job's steps (sparkjobs/steps.py), null for the others:
    # [{"name", "state", "started_at", "finished_at", "result", "error"}].
    steps = models.JSONField(null=True, blank=True)
    # Set when a schedule started the job (its run of that slot is a ScheduleRun).
    schedule = models.ForeignKey(
        "Schedule", null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["job_type", "-created_at"])]

    def __str__(self) -> str:
        return f"spark job {self.pk} {self.job_type} on {self.cluster} ({self.state})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every step is listed, pending, from the moment the job exists (not only once its
        # worker starts it), so a queued pipeline already shows what it will do.
        names = job_steps.JOB_STEPS.get(self.job_type)
        if self._state.adding and self.steps is None and names:
            self.steps = job_steps.initial(names)
        super().save(*args, **kwargs)


class Schedule(models.Model):
    """A job type with its params, run on a cron expression or every N minutes
    (sparkjobs/schedule_times.py) by the scheduler (sparkjobs/scheduler.py)."""

    job_type = models.CharField(max_length=64)
    cluster = models.CharField(max_length=64)
    params = models.JSONField(default=dict)
    # null, not "": the API's null (a schedule by every_minutes, not by cron).
    cron = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    every_minutes = models.IntegerField(null=True, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")
    enabled = models.BooleanField(default=True)
    # The slot the scheduler runs next; moved on in the transaction that starts (or skips)
    # the due one, so a slot is never run twice, also across a restart.
    next_run_at = models.DateTimeField(null=True, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        when = self.cron or f"every {self.every_minutes} min"
        return f"schedule {self.pk} {self.job_type} on {self.cluster} ({when})"


class ScheduleRun(models.Model):
    """One due slot of a schedule and what became of it."""

    class Outcome(models.TextChoices):
        STARTED = "started"  # a job was submitted (`job`)
        SKIPPED = "skipped"  # the schedule's previous job was still queued or running
        REFUSED = "refused"  # the submit's checks refused it (`reason`), as a 400 would
        FAILED = "failed"  # the checks could not be made: Kafka did not answer (`reason`)

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="runs")
    due_at = models.DateTimeField()
    ran_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    job = models.ForeignKey(
        SparkJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-due_at", "-id"]
        constraints = [
            # The guarantee "never twice", kept by the database too.
            models.UniqueConstraint(fields=["schedule", "due_at"], name="one_run_per_slot")
        ]

    def __str__(self) -> str:
        return f"schedule {self.schedule_id} slot {self.due_at:%Y-%m-%d %H:%M}: {self.outcome}"
