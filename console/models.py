from __future__ import annotations

from django.db import models


class AuditEntry(models.Model):
    """One entry per call that changes a cluster or starts a job, refused and failed ones too."""

    class Outcome(models.TextChoices):
        OK = "ok"
        REFUSED = "refused"
        FAILED = "failed"
        PREVIEW = "preview"
        REQUESTED = "requested"  # on a protected cluster: waiting for a second person

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


class ClusterRole(models.Model):
    """A user's role on one cluster. On that cluster it replaces the role the user holds on
    every cluster (the Django group): higher or lower, e.g. admin on staging, viewer on prod."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="cluster_roles")
    cluster = models.CharField(max_length=64)
    role = models.CharField(
        max_length=16, choices=[(r, r) for r in ("viewer", "operator", "admin")]
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "cluster"], name="one_role_per_cluster")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} on {self.cluster}"


class ApiToken(models.Model):
    """A named API token with an expiry. Only its SHA-256 is stored: the key is shown once,
    when it is made; `prefix` (its first characters) tells tokens apart in lists."""

    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.name} ({self.prefix}…)"
