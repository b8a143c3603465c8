from __future__ import annotations

from django.conf import settings
from django.db import models


class OffsetReset(models.Model):
    """One offset-reset request: its plan, and once executed, the outcome per partition."""

    class State(models.TextChoices):
        PLANNED = "planned"  # a dry run: nothing changed
        SUCCEEDED = "succeeded"
        PARTIAL = "partially_failed"
        FAILED = "failed"

    cluster = models.CharField(max_length=64)
    group_id = models.CharField(max_length=255)
    strategy = models.JSONField()
    scope = models.JSONField(default=dict)
    dry_run = models.BooleanField(default=True)
    executed = models.BooleanField(default=False)
    state = models.CharField(max_length=20, choices=State.choices, default=State.PLANNED)
    reason = models.TextField(blank=True)
    plan = models.JSONField(default=list)
    result = models.JSONField(null=True, blank=True)
    undo_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    executed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["cluster", "group_id", "-created_at"])]

    def __str__(self) -> str:
        return f"reset {self.pk} of {self.cluster}/{self.group_id} ({self.state})"


class GroupResetLock(models.Model):
    """Held while a reset executes on a group, so a second one at once gets 409."""

    cluster = models.CharField(max_length=64)
    group_id = models.CharField(max_length=255)
    acquired_at = models.DateTimeField(auto_now_add=True)
    holder = models.CharField(max_length=150)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["cluster", "group_id"], name="one_reset_per_group")
        ]

    def __str__(self) -> str:
        return f"reset lock on {self.cluster}/{self.group_id} held by {self.holder}"
