"""Lag alert rules, what each knows of the groups it watches, the alerts sent and every
delivery attempt (docs/alerts.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

KINDS = [("firing", "firing"), ("repeat", "repeat"), ("resolved", "resolved"), ("test", "test")]
DELIVERY_STATES = [("pending", "pending"), ("delivered", "delivered"), ("failed", "failed")]
CHANNELS = [("webhook", "webhook"), ("slack", "slack"), ("teams", "teams"), ("email", "email")]


class AlertRule(models.Model):
    name = models.CharField(max_length=200)
    cluster = models.CharField(max_length=249)
    group_pattern = models.TextField(default="*")  # a glob over group ids
    statuses = models.JSONField(default=list)  # of WARN, ERR, STOP, STALL
    lag_seconds_over = models.FloatField(null=True, blank=True)
    retention_risk = models.BooleanField(default=False)
    channel = models.CharField(max_length=16, choices=CHANNELS)
    target = models.TextField()  # a URL, or email addresses separated by commas
    repeat_interval_s = models.PositiveIntegerField(default=3600)
    silences = models.JSONField(default=list)  # [{"starts_at", "ends_at"}], ISO-8601
    enabled = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["cluster", "enabled"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.cluster})"


class AlertState(models.Model):
    """One rule's memory of one group while the rule holds for it."""

    rule = models.ForeignKey(AlertRule, on_delete=models.CASCADE, related_name="states")
    group_id = models.TextField()
    firing = models.BooleanField(default=True)
    notified = models.BooleanField(default=False)
    since = models.DateTimeField(null=True)
    last_sent_at = models.DateTimeField(null=True)
    reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rule", "group_id"], name="alert_state_rule_group")
        ]

    def __str__(self) -> str:
        return f"rule {self.rule_id} / {self.group_id}"


class AlertEvent(models.Model):
    """One alert sent (or being sent) to a rule's channel."""

    rule = models.ForeignKey(AlertRule, null=True, on_delete=models.SET_NULL, related_name="+")
    rule_name = models.CharField(max_length=200)
    cluster = models.CharField(max_length=249)
    group_id = models.TextField()
    kind = models.CharField(max_length=16, choices=KINDS)
    reason = models.TextField()
    snapshot = models.JSONField(default=dict)
    at = models.DateTimeField()
    channel = models.CharField(max_length=16, choices=CHANNELS)
    state = models.CharField(max_length=16, choices=DELIVERY_STATES, default="pending")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["cluster", "-at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.rule_name} / {self.group_id}"


class DeliveryAttempt(models.Model):
    event = models.ForeignKey(AlertEvent, on_delete=models.CASCADE, related_name="attempts")
    at = models.DateTimeField()
    ok = models.BooleanField()
    answer = models.TextField()  # e.g. "HTTP 200", "connection refused", "sent to 2"
    duration_ms = models.FloatField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'failed'}: {self.answer}"
