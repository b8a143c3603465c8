"""`model-performance`: how a model's past predictions turned out (realised performance),
per scored day, computed by Spark from the predictions, alarms and work-orders topics
(maintenance/jobs/pm_performance.py; docs/maintenance-loop.md). `GET spark/models/{id}/
performance` serves the newest such job's result of a model."""

from __future__ import annotations

from typing import Any

from maintenance.job_type import maintenance_job_type
from maintenance.types_features import (
    DEFAULT_ALARMS_TOPIC,
    DEFAULT_WORK_ORDERS_TOPIC,
    input_topic,
)
from maintenance.types_model import (
    DEFAULT_PREDICTIONS_TOPIC,
    MODEL_JOBS,
    SCORE,
    STEPPED,
    fill_active_model,
    job_params,
)
from sparkjobs.job_types import TOPIC_NAME, JobType, source_topic
from sparkjobs.models import SparkJob
from sparkjobs.schema_parts import COUNT, closed_object, column_table, result_object

PERFORMANCE = "model-performance"
DEFAULT_HORIZON = 7
_RATIO = {"type": ["number", "null"], "minimum": 0, "maximum": 1}


def _topic(default: str, what: str) -> dict[str, Any]:
    return {
        **TOPIC_NAME,
        "type": ["string", "null"],
        "description": f"The {what} topic (it must exist); null (the default): the model's "
        f"own, else {default}.",
        "default": None,
    }


# {param: (default, where a pipeline's params hold the model's own, where a step job's do)}
TOPICS: dict[str, tuple[str, tuple[str, str], str]] = {
    "predictions_topic": (DEFAULT_PREDICTIONS_TOPIC, ("score", "predictions_topic"), ""),
    "alarms_topic": (DEFAULT_ALARMS_TOPIC, ("features", "alarms_topic"), "features_job"),
    "work_orders_topic": (DEFAULT_WORK_ORDERS_TOPIC, ("labels", "work_orders_topic"), "labels_job"),
}


def model_topics(model_id: Any) -> dict[str, str]:
    """The topics a model was made from and scored into, where its jobs say them: a
    pipeline's own step params; for a train-model job, the features and labels jobs behind its
    training set (its predictions topic is not known)."""
    job = job_params(model_id)
    out: dict[str, str] = {}
    if job is None:
        return out
    kind, params = job
    training = job_params(params.get("training_set_job")) if kind == "train-model" else None
    for name, (_default, (key, field), step_input) in TOPICS.items():
        if kind in STEPPED:
            value = (params.get(key) or {}).get(field)
        elif training is not None and step_input:
            step = job_params(training[1].get(step_input))
            held = (
                step[1] if step and step[0] not in STEPPED else (step[1].get(key) if step else None)
            )
            value = (held or {}).get(field)
        else:
            value = None
        if isinstance(value, str):
            out[name] = value
    return out


def fill_topics(cluster: str, params: dict[str, Any]) -> None:
    """Topics left null: the model's own, else the maintenance defaults."""
    own = model_topics(params.get("model_id"))
    for name, (default, _where, _step) in TOPICS.items():
        if params.get(name) is None:
            params[name] = own.get(name, default)


def model_horizon(model_id: Any) -> int | None:
    """The label horizon (days) the model was trained with: its pipeline's labels params, or
    the training-set job behind a train-model job; None when the chain cannot be followed."""
    job = job_params(model_id)
    if job is None:
        return None
    kind, params = job
    if kind in STEPPED:
        horizon = (params.get("labels") or {}).get("horizon_days")
    else:
        training = (
            SparkJob.objects.filter(pk=params.get("training_set_job") or 0)
            .values_list("result", flat=True)
            .first()
        )
        horizon = training.get("horizon_days") if isinstance(training, dict) else None
    return horizon if isinstance(horizon, int) and not isinstance(horizon, bool) else None


def fill_horizon(cluster: str, params: dict[str, Any]) -> None:
    """A horizon left null: the model's own (a prediction is judged by what it predicted)."""
    if params.get("horizon_days") is None:
        params["horizon_days"] = model_horizon(params.get("model_id")) or DEFAULT_HORIZON


def check_performance(snap: Any, params: dict[str, Any]) -> None:
    source_topic(snap, params["predictions_topic"], "params.predictions_topic")
    for key in ("alarms_topic", "work_orders_topic"):
        input_topic(
            snap, params[key], f"params.{key}", params["alarms_topic"], params["work_orders_topic"]
        )


_DAY = result_object(
    ["day", "predictions", "known", "pending", "failures", "precision", "recall", "roc_auc"],
    {
        "day": {"type": "string", "description": "the scored day"},
        "predictions": {**COUNT, "description": "equipment scored that day"},
        "known": {**COUNT, "description": "whose horizon ended inside the data"},
        "pending": {**COUNT, "description": "whose horizon reaches past the data"},
        "failures": {**COUNT, "description": "known ones that failed within the horizon"},
        "flagged": {**COUNT, "description": "known ones at or above the threshold"},
        "precision": {**_RATIO, "description": "of the flagged, the share that failed"},
        "recall": {**_RATIO, "description": "of the failures, the share flagged"},
        "roc_auc": {**_RATIO, "description": "null without a known failure and non-failure"},
    },
)

PERFORMANCE_TYPE = maintenance_job_type(
    name=PERFORMANCE,
    title="Realised model performance",
    description="How a model's past predictions turned out: each prediction matched with a "
    "failure (FAILURE alarm or failure work order) within the horizon after its day; per "
    "scored day, precision and recall at the model's threshold, ROC AUC and the counts known "
    "and pending; calibration per probability band.",
    script="model_performance.py",
    params_schema=closed_object(
        {
            "model_id": SCORE.params_schema["properties"]["model_id"],
            "predictions_topic": _topic(DEFAULT_PREDICTIONS_TOPIC, "predictions"),
            "alarms_topic": _topic(DEFAULT_ALARMS_TOPIC, "alarms"),
            "work_orders_topic": _topic(DEFAULT_WORK_ORDERS_TOPIC, "work orders"),
            "horizon_days": {
                "description": "A prediction of day D is right about a failure in "
                "[D + 1, D + horizon]; null (the default): the horizon the model was trained "
                f"with, else {DEFAULT_HORIZON}.",
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": 90,
                "default": None,
            },
        },
        [],
    ),
    result_schema=result_object(
        ["model_id", "threshold", "horizon_days", "last_day", "days", "totals", "calibration"],
        {
            "model_id": {"type": "integer"},
            "threshold": {"type": "number"},
            "horizon_days": {"type": "integer"},
            "last_day": {"type": ["string", "null"], "description": "the alarms' last day"},
            "days": {"type": "array", "items": _DAY},
            "totals": {"type": "object"},
            "calibration": column_table(
                "band_low", "band_high", "predictions", "predicted", "observed"
            ),
        },
    ),
    fills=(fill_active_model, fill_horizon, fill_topics),
    checks=(check_performance,),
    inputs=(("model_id", MODEL_JOBS),),
)

PERFORMANCE_JOB_TYPES: tuple[JobType, ...] = (PERFORMANCE_TYPE,)
