"""A reassignment the console started: its plan, rollback, throttle and what it throttled."""

from __future__ import annotations

from django.db import models


class Reassignment(models.Model):
    class State(models.TextChoices):
        RUNNING = "running"
        COMPLETED = "completed"
        CANCELLED = "cancelled"
        FAILED = "failed"

    cluster = models.CharField(max_length=200)
    state = models.CharField(max_length=16, choices=State.choices, default=State.RUNNING)
    throttle_bytes_per_s = models.BigIntegerField(null=True)
    plan = models.JSONField()  # kafka-reassign-partitions.sh's JSON, as executed
    rollback = models.JSONField()  # the replicas before, in the same format
    # The bytes each partition's new replicas had to copy when it started ("topic-p" -> bytes).
    bytes_total = models.JSONField(default=dict)
    # What this reassignment throttled, so that exactly these are cleared when it ends.
    throttled_topics = models.JSONField(default=list)
    throttled_brokers = models.JSONField(default=list)
    reason = models.TextField(blank=True)
    error = models.TextField(blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["cluster", "state"])]

    def __str__(self) -> str:
        return f"reassignment {self.pk} on {self.cluster} ({self.state})"
