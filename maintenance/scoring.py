"""The daily scoring schedule of a cluster (docs/maintenance-loop.md).

A cluster's first active model (its first promotion: a maintenance history exists and a usable
model was trained on it) creates a `maintenance-score` schedule on that cluster, daily at
`DAILY_CRON` in `DAILY_TIMEZONE`, owned by whoever promoted: every day it scores every equipment
with the cluster's active model *at that moment* (the schedule's params name no model), on the
features that model was trained on, into the predictions topic the model's own pipeline wrote
to. It is an ordinary schedule: change its time, disable or delete it with the schedules API.
It is created once per cluster, ever (`DailyScoring`): a deleted one stays deleted.
"""

from __future__ import annotations

from typing import Any

from maintenance.models import DailyScoring
from maintenance.types_model import PIPELINE
from maintenance.types_scoring import SCORE_KEY, SCORING
from sparkjobs import schedules
from sparkjobs.models import Schedule, SparkJob

# After midnight UTC, when the day before is complete in the alarms topic.
DAILY_CRON = "30 1 * * *"
DAILY_TIMEZONE = "UTC"


def _predictions_topic(model_id: int) -> str | None:
    """The predictions topic the model's own pipeline scored into, if it was a pipeline."""
    row = SparkJob.objects.filter(pk=model_id).values_list("job_type", "params").first()
    if row is None or row[0] != PIPELINE or not isinstance(row[1], dict):
        return None
    topic = (row[1].get(SCORE_KEY) or {}).get("predictions_topic")
    return topic if isinstance(topic, str) else None


def ensure_daily_scoring(cluster: str, model_id: int, actor: Any) -> Schedule | None:
    """Create the cluster's daily scoring schedule unless it ever had one; the new schedule,
    or None. Called in the transaction of a promotion."""
    if DailyScoring.objects.filter(cluster=cluster).exists():
        return None
    topic = _predictions_topic(model_id)
    body = schedules.checked(
        {
            "job_type": SCORING,
            "cluster": cluster,
            "params": {SCORE_KEY: {"predictions_topic": topic}} if topic else {},
            "cron": DAILY_CRON,
            "timezone": DAILY_TIMEZONE,
            "enabled": True,
        }
    )
    schedule = schedules.create_schedule(body, actor if getattr(actor, "pk", None) else None)
    DailyScoring.objects.create(cluster=cluster, schedule=schedule)
    return schedule


def daily_scoring(cluster: str) -> Schedule | None:
    """The cluster's daily scoring schedule while it exists."""
    row = DailyScoring.objects.filter(cluster=cluster).select_related("schedule").first()
    return row.schedule if row else None
