from __future__ import annotations

from django.conf import settings
from django.db import models


class ModelPromotion(models.Model):
    """One change of a cluster's active failure model. The newest row of a cluster names its
    active model (maintenance/lifecycle.py); the rows before it are its history, kept so a
    roll-back (promoting an earlier model again) and every "why" stay visible."""

    class How(models.TextChoices):
        MANUAL = "manual"  # an operator promoted it (POST spark/models/{id}/promote)
        # A retraining's model that beat the active one (maintenance/challenge.py); promoted_by
        # is whoever submitted the retraining (a schedule's owner).
        AUTO = "auto"

    cluster = models.CharField(max_length=64)
    # The model is the job that trained it (a train-model or maintenance-pipeline job): its
    # id is the model's id. Jobs are never deleted, so PROTECT only guards the history.
    model = models.ForeignKey("sparkjobs.SparkJob", on_delete=models.PROTECT, related_name="+")
    how = models.CharField(max_length=16, choices=How.choices, default=How.MANUAL)
    reason = models.TextField(blank=True)
    promoted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    promoted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-promoted_at", "-id"]
        indexes = [models.Index(fields=["cluster", "-promoted_at", "-id"])]

    def __str__(self) -> str:
        return f"model {self.model_id} active on {self.cluster} ({self.how})"

    @classmethod
    def active_id(cls, cluster: str) -> int | None:
        """The id of `cluster`'s active model: its newest promotion's, or None before any."""
        return cls.objects.filter(cluster=cluster).values_list("model_id", flat=True).first()


class WorklistMark(models.Model):
    """What a crew said about one equipment on the worklist (acknowledged, inspected,
    dismissed, or open again), with a note. Every mark is kept; the newest of an equipment is
    its status (maintenance/worklist.py), whatever day's score it answered (`day`): a crew's
    decision holds until a crew changes it."""

    class Status(models.TextChoices):
        OPEN = "open"
        ACKNOWLEDGED = "acknowledged"
        INSPECTED = "inspected"
        DISMISSED = "dismissed"

    cluster = models.CharField(max_length=64)
    equipment_id = models.CharField(max_length=200)
    day = models.DateField(null=True, help_text="the scored day of the prediction it answered")
    failure_probability = models.FloatField(null=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    note = models.TextField(blank=True)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-marked_at", "-id"]
        indexes = [models.Index(fields=["cluster", "equipment_id", "-marked_at", "-id"])]

    def __str__(self) -> str:
        return f"{self.equipment_id} on {self.cluster}: {self.status}"


class DailyScoring(models.Model):
    """The schedules the console created for a cluster (maintenance/scoring.py): the scoring
    and the realised performance of its active model, and its retraining. One row per
    cluster, ever, so a schedule an operator deleted is not created again."""

    cluster = models.CharField(max_length=64, unique=True)
    schedule = models.ForeignKey(
        "sparkjobs.Schedule", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    performance_schedule = models.ForeignKey(
        "sparkjobs.Schedule", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    retrain_schedule = models.ForeignKey(
        "sparkjobs.Schedule", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"daily scoring of {self.cluster} (schedule {self.schedule_id})"
