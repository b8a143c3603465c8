"""The daily schedules of a cluster: scoring and realised performance (docs/maintenance-loop.md).

A cluster's first active model (its first promotion: a maintenance history exists and a usable
model was trained on it) creates a `maintenance-score` schedule on that cluster, daily at
`DAILY_CRON` in `DAILY_TIMEZONE`, owned by whoever promoted: every day it scores every equipment
with the cluster's active model *at that moment* (the schedule's params name no model), on the
features that model was trained on, into the predictions topic the model's own pipeline wrote
to. It is an ordinary schedule: change its time, disable or delete it with the schedules API.
The same promotion creates the daily `model-performance` schedule (at `PERFORMANCE_CRON`), which
measures how the active model's past predictions turned out, and, when the model came from a
pipeline or a retraining (its params say how to train again), the weekly `maintenance-retrain`
schedule (at `RETRAIN_CRON`): the same features, labels and model params, the cut-off rolled
to the newest `DEFAULT_TEST_DAYS` labelled days, the challenger promoted only if it beats the
active model of that moment (maintenance/challenge.py). All are created once per cluster,
ever (`DailyScoring`): a deleted one stays deleted.
"""

from __future__ import annotations

from typing import Any

from maintenance.jobs.pipeline_steps import RETRAIN_KEYS
from maintenance.models import DailyScoring
from maintenance.types_model import PIPELINE, RETRAIN, STEPPED, job_params
from maintenance.types_performance import PERFORMANCE
from maintenance.types_scoring import NOT_INHERITED, SCORE_KEY, SCORING
from sparkjobs import schedules
from sparkjobs.models import Schedule, SparkJob

# After midnight UTC, when the day before is complete in the alarms topic; the performance
# after the score (it judges the days whose horizon has ended, whatever today's score).
DAILY_CRON = "30 1 * * *"
PERFORMANCE_CRON = "30 3 * * *"
# Weekly, Sundays, after the day's score: a week of new labels is worth a new challenger, and
# a daily retraining would mostly measure noise between near-identical models.
RETRAIN_CRON = "30 2 * * 0"
DAILY_TIMEZONE = "UTC"
DEFAULT_TEST_DAYS = 14  # the retraining's test part: two weeks of labelled days
TRAINING_KEY = RETRAIN_KEYS["training-set"]


def _predictions_topic(model_id: int) -> str | None:
    """The predictions topic the model's own pipeline scored into, if it was a pipeline."""
    row = SparkJob.objects.filter(pk=model_id).values_list("job_type", "params").first()
    if row is None or row[0] != PIPELINE or not isinstance(row[1], dict):
        return None
    topic = (row[1].get(SCORE_KEY) or {}).get("predictions_topic")
    return topic if isinstance(topic, str) else None


def retrain_params(model_id: int) -> dict[str, Any] | None:
    """The params of a retraining like the one that made the model: its features (without
    their time range), labels, model params and training-set ratio and seed, the cut-off
    rolled; None when the model was not made by a pipeline or a retraining."""
    found = job_params(model_id)
    if found is None or found[0] not in STEPPED:
        return None
    params = found[1]

    def part(key: str, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
        value = params.get(key)
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if k not in leave_out}

    training = part(TRAINING_KEY, ("cutoff_date",))
    training.setdefault("test_days", DEFAULT_TEST_DAYS)
    return {
        "features": part("features", NOT_INHERITED),
        "labels": part("labels"),
        "training": training,
        "model": part("model"),
    }


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
    retraining = retrain_params(model_id)
    retrain = create(RETRAIN, retraining, RETRAIN_CRON) if retraining is not None else None
    DailyScoring.objects.create(
        cluster=cluster,
        schedule=scoring,
        performance_schedule=performance,
        retrain_schedule=retrain,
    )
    return scoring


def daily_schedules(cluster: str) -> tuple[Schedule | None, Schedule | None, Schedule | None]:
    """The cluster's (scoring, performance, retraining) schedules, each while it exists."""
    row = (
        DailyScoring.objects.filter(cluster=cluster)
        .select_related("schedule", "performance_schedule", "retrain_schedule")
        .first()
    )
    if row is None:
        return None, None, None
    return row.schedule, row.performance_schedule, row.retrain_schedule
