"""The daily schedules of a cluster: scoring and realised performance (docs/maintenance-loop.md).

A cluster's first active model (its first promotion: a maintenance history exists and a usable
model was trained on it) creates a `maintenance-score` schedule on that cluster, daily at
`DAILY_CRON` in `DAILY_TIMEZONE`, owned by whoever promoted: every day it scores every equipment
with the cluster's active model *at that moment* (the schedule's params name no model), on the
features that model was trained on, into the predictions topic the model's own pipeline wrote
to. It is an ordinary schedule: change its time, disable or delete it with the schedules API.
The same promotion creates the daily `model-performance` schedule (at `PERFORMANCE_CRON`), which
measures how the active model's past predictions turned out. Both are created once per
cluster, ever (`DailyScoring`): a deleted one stays deleted.
"""

from __future__ import annotations

from typing import Any

from maintenance.models import DailyScoring
from maintenance.types_model import PIPELINE
from maintenance.types_performance import PERFORMANCE
from maintenance.types_scoring import SCORE_KEY, SCORING
from sparkjobs import schedules
from sparkjobs.models import Schedule, SparkJob

# After midnight UTC, when the day before is complete in the alarms topic; the performance
# after the score (it judges the days whose horizon has ended, whatever today's score).
DAILY_CRON = "30 1 * * *"
PERFORMANCE_CRON = "30 3 * * *"
DAILY_TIMEZONE = "UTC"


def _predictions_topic(model_id: int) -> str | None:
    """The predictions topic the model's own pipeline scored into, if it was a pipeline."""
    row = SparkJob.objects.filter(pk=model_id).values_list("job_type", "params").first()
    if row is None or row[0] != PIPELINE or not isinstance(row[1], dict):
        return None
    topic = (row[1].get(SCORE_KEY) or {}).get("predictions_topic")
    return topic if isinstance(topic, str) else None


def ensure_daily_scoring(cluster: str, model_id: int, actor: Any) -> Schedule | None:
    """Create the cluster's daily schedules (scoring, then realised performance) unless it
    ever had them; the new scoring schedule, or None. Called in a promotion's transaction."""
    if DailyScoring.objects.filter(cluster=cluster).exists():
        return None
    topic = _predictions_topic(model_id)
    owner = actor if getattr(actor, "pk", None) else None

    def create(job_type: str, params: dict[str, Any], cron: str) -> Schedule:
        body = {
            "job_type": job_type,
            "cluster": cluster,
            "params": params,
            "cron": cron,
            "timezone": DAILY_TIMEZONE,
            "enabled": True,
        }
        return schedules.create_schedule(schedules.checked(body), owner)

    scoring = create(
        SCORING, {SCORE_KEY: {"predictions_topic": topic}} if topic else {}, DAILY_CRON
    )
    performance = create(
        PERFORMANCE, {"predictions_topic": topic} if topic else {}, PERFORMANCE_CRON
    )
    DailyScoring.objects.create(cluster=cluster, schedule=scoring, performance_schedule=performance)
    return scoring


def daily_schedules(cluster: str) -> tuple[Schedule | None, Schedule | None]:
    """The cluster's daily (scoring, performance) schedules, each while it exists."""
    row = (
        DailyScoring.objects.filter(cluster=cluster)
        .select_related("schedule", "performance_schedule")
        .first()
    )
    return (row.schedule, row.performance_schedule) if row else (None, None)
