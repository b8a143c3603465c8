"""The retraining (`maintenance-retrain`; docs/maintenance-loop.md, "Retraining and
promotion").

The pipeline's steps up to the model (their params objects exactly the pipeline's, derived
from the same job types), except that the training set's cut-off is rolled: `training.
test_days` says how many of the newest labelled days are the test part, and the job computes
the cut-off from the features' last day (maintenance/jobs/rolling.py). Then the challenge step
measures the new model and the champion (`champion_id`: the cluster's active model when the
job is submitted, unless named) on those same days; when the job has succeeded,
maintenance/challenge.py promotes the new model if it beat the champion by `challenge.margin`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import date
from typing import Any

from console.api.limits import INT64_MAX
from console.kafka import ClusterClient
from maintenance import challenge, lifecycle
from maintenance.job_type import maintenance_job_type
from maintenance.jobs.pipeline_steps import CHALLENGE_STEP, RETRAIN_KEYS, RETRAIN_STEPS
from maintenance.jobs.rolling import rolling_cutoff
from maintenance.models import ModelPromotion
from maintenance.types_features import FEATURE_JOB_TYPES
from maintenance.types_model import MODEL_JOB_TYPES, PIPELINE, RETRAIN
from maintenance.types_pipeline import (
    check_pipeline,
    check_training_days,
    label_horizon,
    last_event_day,
    pipeline_schemas,
)
from sparkjobs.job_types import JobType
from sparkjobs.schema_parts import closed_object, result_object

DEFAULT_TEST_DAYS = 14
MODEL_STEPS = RETRAIN_STEPS[: RETRAIN_STEPS.index(CHALLENGE_STEP)]
TRAINING_KEY = RETRAIN_KEYS["training-set"]

TEST_DAYS = {
    "description": "How many of the newest labelled days are the test part (the days both "
    "models are measured on); the cut-off is rolled to the first of them: the features' last "
    "day minus the label horizon minus (test_days - 1).",
    "type": "integer",
    "minimum": 1,
    "maximum": 366,
    "default": DEFAULT_TEST_DAYS,
}
CHAMPION = {
    "description": "The model the new one must beat (the id of a succeeded train-model, "
    "maintenance-pipeline or maintenance-retrain job); null or left out: the cluster's "
    "active model when the job is submitted (none: the new model has nothing to beat).",
    "type": ["integer", "null"],
    "minimum": 1,
    "maximum": INT64_MAX,
    "default": None,
}
MARGIN = {
    "description": "How much higher the new model's ROC AUC must be than the champion's, on "
    "the same days, for it to become the active model.",
    "type": "number",
    "minimum": 0,
    "maximum": challenge.MAX_MARGIN,
    "default": challenge.DEFAULT_MARGIN,
}
_AUC = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
_MEASURED = result_object(
    ["roc_auc", "precision", "recall", "threshold"],
    {
        "roc_auc": _AUC,
        "pr_auc": _AUC,
        "precision": _AUC,
        "recall": _AUC,
        "threshold": {"type": "number"},
    },
)
CHALLENGE_RESULT = result_object(
    ["cutoff_date", "rows", "positives", "challenger", "champion_id", "champion"],
    {
        "cutoff_date": {"type": "string"},
        "rows": {"type": "integer", "minimum": 0},
        "positives": {"type": "integer", "minimum": 0},
        "challenger": _MEASURED,
        "champion_id": {"type": ["integer", "null"]},
        "champion": {"oneOf": [{"type": "null"}, _MEASURED]},
        "champion_unscored": {"type": ["string", "null"]},
    },
)


def retrain_schemas(step_types: Mapping[str, JobType]) -> tuple[dict, dict]:
    params, result = pipeline_schemas(step_types, MODEL_STEPS)
    properties = params["properties"]
    training = properties[TRAINING_KEY]
    training["properties"].pop("cutoff_date")
    training["properties"] = {"test_days": TEST_DAYS, **training["properties"]}
    training["required"] = [k for k in training["required"] if k != "cutoff_date"]
    training["default"] = {}
    training["description"] = (
        "Params of the training-set step, its cut-off rolled from test_days (the newest "
        "labelled days are the test part)."
    )
    challenge_params = closed_object({"margin": MARGIN}, [])
    challenge_params["default"] = {}
    challenge_params["description"] = "How the new model is judged against the champion."
    schema = closed_object(
        {"champion_id": CHAMPION, **properties, RETRAIN_KEYS[CHALLENGE_STEP]: challenge_params},
        [key for key, prop in properties.items() if prop.get("required")],
    )
    result["required"] = [*result["required"], CHALLENGE_STEP]
    result["properties"][CHALLENGE_STEP] = CHALLENGE_RESULT
    return schema, result


def fill_defaults(schema: dict[str, Any]) -> Any:
    """A fill that puts each params object's defaults in (validation fills the top level
    only), so the saved params say exactly what runs."""

    def fill(cluster: str, params: dict[str, Any]) -> None:
        for key, prop in schema["properties"].items():
            inner = prop.get("properties")
            if inner is None or not isinstance(params.get(key, {}), dict):
                continue
            given = params.setdefault(key, {})
            for field, field_prop in inner.items():
                if field not in given and "default" in field_prop:
                    given[field] = copy.deepcopy(field_prop["default"])

    return fill


def fill_champion(cluster: str, params: dict[str, Any]) -> None:
    """No champion named: the cluster's active model (None before the first)."""
    if params.get("champion_id") is None:
        params["champion_id"] = ModelPromotion.active_id(cluster)


def check_rolling_cutoff(client: ClusterClient, params: dict[str, Any]) -> None:
    """The rolled cut-off must leave training days, checked against the alarms topic (the
    test days exist by construction when the topic has events: the job keeps the labelled
    ones)."""
    topic = params.get("features", {}).get("alarms_topic")
    test_days = params.get(TRAINING_KEY, {}).get("test_days")
    found = last_event_day(client, topic) if isinstance(topic, str) else None
    if not isinstance(test_days, int) or found is None:
        return
    last_day, partitions = found
    horizon = label_horizon(params)
    cutoff: date = rolling_cutoff(last_day, horizon, test_days)
    check_training_days(
        client,
        topic,
        partitions,
        cutoff,
        horizon,
        f"params.{TRAINING_KEY}.test_days",
        f"{test_days} test days (the last event in {topic} is on {last_day}, so the cut-off "
        f"rolls to {cutoff})",
        "choose fewer test days",
    )


def maintenance_retrain(step_types: Mapping[str, JobType]) -> JobType:
    params_schema, result_schema = retrain_schemas(step_types)
    return maintenance_job_type(
        name=RETRAIN,
        title="Retrain and challenge the active model",
        description="The pipeline's steps up to a new model, the cut-off rolled to the newest "
        "labelled days, then the new model and the active one measured on those same days; "
        "the new one becomes active only if it beats the active one by the margin (else it "
        "is kept as a candidate, with the reason). The retraining a schedule runs.",
        script="maintenance_retrain.py",
        params_schema=params_schema,
        result_schema=result_schema,
        fills=(fill_defaults(params_schema), fill_champion),
        checks=(check_pipeline,),
        data_checks=(check_rolling_cutoff,),
        inputs=(("champion_id", ("train-model", PIPELINE, RETRAIN)),),
        steps=RETRAIN_STEPS,
        on_success=lifecycle.settle,
    )


def _retrain_types() -> tuple[JobType, ...]:
    step_types = {jt.name: jt for jt in (*FEATURE_JOB_TYPES, *MODEL_JOB_TYPES)}
    if not all(name in step_types for name in MODEL_STEPS):
        return ()
    return (maintenance_retrain(step_types),)


RETRAIN_JOB_TYPES: tuple[JobType, ...] = _retrain_types()
