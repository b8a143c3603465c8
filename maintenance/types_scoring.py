"""`maintenance-score`: the daily scoring of a cluster's equipment (docs/maintenance-loop.md).

Fresh window features from the alarms topic, then a score of their latest day, in one Spark
application with the pipeline's step tracking (its steps are `pipeline_steps.SCORE_STEPS`).
It needs nothing but a model, so it is what a schedule runs every day:

- `model_id` null (the default): the cluster's active model when the job is submitted (the job
  keeps the id it used).
- `features`: each field the caller leaves out is the model's own (the features params it was
  trained on, found through the jobs that made it), else the default; never the model's
  `start_time` / `end_time` (a daily score reads the alarms up to now). The model's feature
  columns must be among those the features make (a 400 naming `params.features` otherwise).
- `score`: the predictions topic and the day, as the score job's.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from console.errors import BadInput
from console.metadata import ClusterSnapshot
from maintenance.job_type import maintenance_job_type
from maintenance.jobs.pipeline_steps import SCORE_STEPS, STEP_KEYS
from maintenance.types_features import FEATURES_PARAMS, WINDOW_FEATURES, check_features, slug
from maintenance.types_model import (
    MODEL_JOBS,
    SCORE,
    STEPPED,
    fill_active_model,
    input_result,
    job_params,
)
from maintenance.types_pipeline import pipeline_schemas
from sparkjobs.job_types import JobType, target_topic
from sparkjobs.schema_parts import closed_object

SCORING = "maintenance-score"
FEATURES_KEY, SCORE_KEY = STEP_KEYS["window-features"], STEP_KEYS["score"]
# Features params a daily score never takes from the model: it reads the alarms up to now.
NOT_INHERITED = ("start_time", "end_time")


def feature_columns(params: Mapping[str, Any]) -> list[str]:
    """The columns window-features makes from its params (pm_features.feature_columns, which
    the Spark side cannot share: tests/unit/test_daily_score.py keeps the two equal)."""
    out: list[str] = []
    for w in params["windows"]:
        out += [f"count_{slug(c)}_{w}d" for c in params["fault_codes"]]
        out.append(f"severity_sum_{w}d")
        out += [f"max_{s}_{w}d" for s in params["sensors"]]
    return out


def model_features_params(model_id: Any) -> dict[str, Any]:
    """The window-features params a model was trained on: a pipeline's own `features`, or for
    a train-model job those of the features job behind its training set; {} when the chain
    cannot be followed."""
    job = job_params(model_id)
    if job is not None and job[0] == "train-model":
        training = job_params(job[1].get("training_set_job"))
        job = job_params(training[1].get("features_job")) if training else None
    if job is None:
        return {}
    kind, params = job
    found = params.get(FEATURES_KEY) if kind in STEPPED else params
    if kind not in (*STEPPED, "window-features") or not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if k not in NOT_INHERITED}


def fill_model_features(cluster: str, params: dict[str, Any]) -> None:
    """The features fields the caller left out: the model's own, else the defaults. Runs after
    fill_active_model (the model is known)."""
    features = params.setdefault(FEATURES_KEY, {})
    inherited = model_features_params(params.get("model_id"))
    for field, prop in FEATURES_PARAMS["properties"].items():
        if field in features:
            continue
        if field in inherited:
            features[field] = copy.deepcopy(inherited[field])
        elif "default" in prop:
            features[field] = copy.deepcopy(prop["default"])
    score = params.setdefault(SCORE_KEY, {})
    for field, prop in SCORE.params_schema["properties"].items():
        if field not in score and "default" in prop and field not in dict(SCORE.inputs):
            score[field] = copy.deepcopy(prop["default"])


def _nested(key: str, check: Any, snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    """A single job type's check on one params object, its field named `params.<key>.x`."""
    try:
        check(snap, params[key])
    except BadInput as exc:
        named = exc.field.replace("params.", f"params.{key}.", 1)
        raise BadInput(named, str(exc).replace(exc.field, named, 1)) from exc


def check_scoring(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    _nested(FEATURES_KEY, check_features, snap, params)
    topic = params[SCORE_KEY]["predictions_topic"]
    target_topic(snap, topic, f"params.{SCORE_KEY}.predictions_topic")
    model = input_result(params.get("model_id"), "train-model") or {}
    trained_on = model.get("feature_columns") or []
    made = set(feature_columns(params[FEATURES_KEY]))
    missing = [c for c in trained_on if c not in made]
    if missing:
        raise BadInput(
            f"params.{FEATURES_KEY}",
            f"params.{FEATURES_KEY}: model {params['model_id']} was trained on "
            f"{len(missing)} column(s) these features would not make ({', '.join(missing[:5])});"
            " leave the fields out to use the model's own.",
        )


def maintenance_score(step_types: Mapping[str, JobType]) -> JobType:
    steps_params, steps_result = pipeline_schemas(step_types, SCORE_STEPS)
    model_id = copy.deepcopy(SCORE.params_schema["properties"]["model_id"])
    properties = {"model_id": model_id, **steps_params["properties"]}
    for key in (FEATURES_KEY, SCORE_KEY):
        properties[key].pop("required", None)
        properties[key]["default"] = {}
    properties[FEATURES_KEY]["description"] = (
        "Params of the window-features step; a field left out is the model's own (the "
        "features it was trained on, without their time range), else the default."
    )
    return maintenance_job_type(
        name=SCORING,
        title="Score with the active model",
        description="Fresh window features from the alarms topic, then one failure probability "
        "per equipment for their latest day, in one Spark application, each step tracked: the "
        "daily scoring a schedule runs. Scores with the cluster's active model unless "
        "`model_id` names another.",
        script="maintenance_score.py",
        params_schema=closed_object(properties, []),
        result_schema=steps_result,
        fills=(fill_active_model, fill_model_features),
        checks=(check_scoring,),
        inputs=(("model_id", MODEL_JOBS),),
        steps=SCORE_STEPS,
    )


SCORING_JOB_TYPES: tuple[JobType, ...] = (
    maintenance_score({WINDOW_FEATURES.name: WINDOW_FEATURES, SCORE.name: SCORE}),
)
