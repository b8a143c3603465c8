from __future__ import annotations

from django.conf import settings
from django.db import models


class ApprovalRequest(models.Model):
    """A change asked for on a protected cluster: the exact plan, who asked, and what became
    of it. It runs once a second person with the role approves it, exactly as stored."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"  # approved, being carried out
        EXECUTED = "executed"
        FAILED = "failed"  # approved, refused when carried out (the state it was planned on moved)
        REJECTED = "rejected"
        EXPIRED = "expired"

    cluster = models.CharField(max_length=64, db_index=True)
    action = models.CharField(max_length=64)
    target = models.CharField(max_length=512)
    summary = models.TextField()
    plan = models.JSONField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "cluster"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.action} {self.target} on {self.cluster} ({self.state})"
