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
