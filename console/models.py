from __future__ import annotations

from django.db import models


class AuditEntry(models.Model):
    """One entry per call that changes a cluster or starts a job, refused and failed ones too."""

    class Outcome(models.TextChoices):
        OK = "ok"
        REFUSED = "refused"
        FAILED = "failed"
        PREVIEW = "preview"

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.CharField(max_length=150, db_index=True)
    action = models.CharField(max_length=64, db_index=True)
    cluster = models.CharField(max_length=64, blank=True, db_index=True)
    target = models.CharField(max_length=512, blank=True)
    request = models.JSONField(default=dict, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return (
            f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action} {self.target} {self.outcome}"
        )
