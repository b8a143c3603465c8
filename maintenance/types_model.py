"""Predictive-maintenance job types, the model half: training set, model, scores (see
docs/maintenance-model.md; the step functions are maintenance/jobs/pm_model.py).

Each reads earlier jobs' results (`inputs`), no platform-resolved topic range
(`reads_range=False`), so each params schema is its own. Checked at submit, after the schema
and the inputs (each a 400 naming the field): the cut-off date inside the features' days,
the predictions topic exists, the scored day inside the features' days, and the features
hold every column the model was trained on.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from console.api.limits import INT32_MAX, INT64_MAX
from console.errors import BadInput
from console.metadata import ClusterSnapshot
from maintenance.job_type import maintenance_job_type
from maintenance.models import ModelPromotion
from sparkjobs.choices import JobState
from sparkjobs.job_types import TOPIC_NAME, JobType, target_topic
from sparkjobs.models import SparkJob
from sparkjobs.schema_parts import COUNT, closed_object, result_object

PIPELINE = "maintenance-pipeline"
# The retraining (types_retrain.py): the pipeline up to the model, then the challenge.
RETRAIN = "maintenance-retrain"
# The job types whose result is {step: the step's result} and whose params hold one object per
# step, and the job types whose id is a model's id.
STEPPED = (PIPELINE, RETRAIN)
MODEL_JOBS = ("train-model", PIPELINE, RETRAIN)
DEFAULT_PREDICTIONS_TOPIC = "equipment-failure-predictions"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATE_PATTERN = _DATE.pattern


def _job_param(what: str, job_types: tuple[str, ...]) -> dict[str, Any]:
    return {
        "description": f"The id of a succeeded {' or '.join(job_types)} job: {what}.",
        "type": "integer",
        "minimum": 1,
        "maximum": INT64_MAX,
    }


_SEED = {
    "description": "Seed of the random choices (reproducible runs).",
    "type": "integer",
    "minimum": 0,
    "maximum": INT32_MAX,
    "default": 42,
}
_TABLE = result_object(
    ["columns", "rows"],
    {
        "columns": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": {"type": "array"}},
    },
)
_RATE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}


# --- inputs' results at submit ---------------------------------------------------------------
def job_params(job_id: Any) -> tuple[str, dict[str, Any]] | None:
    """(job type, params) of a job, or None when there is none (or its params are not an
    object): how the maintenance job types follow a model back to the jobs that made it."""
    row = SparkJob.objects.filter(pk=job_id).values_list("job_type", "params").first()
    return (row[0], row[1]) if row is not None and isinstance(row[1], dict) else None


def input_result(job_id: Any, step: str) -> dict[str, Any] | None:
    """The result of `step` of a succeeded input job (a pipeline's `result[step]`), or None
    when there is none: the inputs check (which runs first) says why."""
    found = (
        SparkJob.objects.filter(pk=job_id, state=JobState.SUCCEEDED)
        .values_list("job_type", "result")
        .first()
    )
    if found is None:
        return None
    kind, result = found
    if not isinstance(result, dict):
        return None
    inner = result.get(step) if kind in STEPPED else result
    return inner if isinstance(inner, dict) else None


def parse_date(value: Any, field: str) -> date:
    try:
        if isinstance(value, str) and _DATE.match(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise BadInput(field, f"{field}: {value!r} is not a date (YYYY-MM-DD).")


def _days(features: dict[str, Any]) -> tuple[date, date] | None:
    try:
        return date.fromisoformat(str(features["first_day"])), date.fromisoformat(
            str(features["last_day"])
        )
    except (KeyError, ValueError):
        return None


def _inside(day: date, features: dict[str, Any] | None, field: str) -> None:
    days = None if features is None else _days(features)
    if days is not None and not days[0] <= day <= days[1]:
        raise BadInput(
            field,
            f"{field}: {day} is not inside the data ({days[0]} to {days[1]}); "
            "choose a day in that range.",
        )


def check_training_set(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    cutoff = parse_date(params.get("cutoff_date"), "params.cutoff_date")
    features = input_result(params.get("features_job"), "window-features")
    _inside(cutoff, features, "params.cutoff_date")
    labels = input_result(params.get("labels_job"), "failure-labels")
    days = None if features is None else _days(features)
    horizon = None if labels is None else labels.get("horizon_days")
    if days is not None and isinstance(horizon, int) and (days[1] - cutoff).days < horizon:
        # Days D with D + horizon after the last day are censored: no labelled test day.
        raise BadInput(
            "params.cutoff_date",
            f"params.cutoff_date: {cutoff} leaves no labelled day to test on (the data ends "
            f"on {days[1]} and a label looks {horizon} days ahead); choose "
            f"{days[1] - timedelta(days=horizon)} or earlier.",
        )
    if days is not None and isinstance(horizon, int) and (cutoff - days[0]).days <= horizon:
        # No day D with D + horizon < cutoff: the training part would be empty.
        raise BadInput(
            "params.cutoff_date",
            f"params.cutoff_date: {cutoff} leaves no training days (the data starts on "
            f"{days[0]} and a label looks {horizon} days ahead); choose a later cut-off.",
        )


def fill_active_model(cluster: str, params: dict[str, Any]) -> None:
    """A score job that names no model scores with the cluster's active one."""
    if params.get("model_id") is not None:
        return
    active = ModelPromotion.active_id(cluster)
    if active is None:
        raise BadInput(
            "params.model_id",
            f"params.model_id: cluster {cluster!r} has no active model yet; name a model, or "
            "promote one first (POST spark/models/{id}/promote, or the models page).",
        )
    params["model_id"] = active


def check_score(snap: ClusterSnapshot, params: dict[str, Any]) -> None:
    target_topic(snap, params["predictions_topic"], "params.predictions_topic")
    features = input_result(params.get("features_job"), "window-features")
    if params.get("day") is not None:
        _inside(parse_date(params["day"], "params.day"), features, "params.day")
    model = input_result(params.get("model_id"), "train-model")
    if features is not None and model is not None:
        have = set(features.get("feature_columns") or ())
        missing = [c for c in model.get("feature_columns") or () if c not in have]
        if missing:
            raise BadInput(
                "params.features_job",
                f"params.features_job: job {params['features_job']} lacks {len(missing)} "
                f"feature column(s) model {params['model_id']} was trained on "
                f"({', '.join(missing[:5])}).",
            )


# --- the job types ----------------------------------------------------------------------------
TRAINING_SET = maintenance_job_type(
    name="training-set",
    title="Training set",
    description="Window features joined with failure labels, split at a cut-off date (train: "
    "days whose label window ends before it; test: days from it on), training negatives cut "
    "to a ratio per positive; Parquet train/ and test/.",
    script="training_set.py",
    params_schema=closed_object(
        {
            "features_job": _job_param("its features", ("window-features", PIPELINE)),
            "labels_job": _job_param("its labels", ("failure-labels", PIPELINE)),
            "cutoff_date": {
                "description": "YYYY-MM-DD inside the features' days: train = days D with "
                "D + horizon before it (no label looks past it), test = days from it on.",
                "type": "string",
                "pattern": _DATE_PATTERN,
            },
            "negative_ratio": {
                "description": "Negatives kept per positive in the training part (the test "
                "part is left as it is).",
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 1000,
                "default": 3,
            },
            "seed": _SEED,
        },
        ["features_job", "labels_job", "cutoff_date"],
    ),
    result_schema=result_object(
        [
            "train_rows",
            "train_positives",
            "train_negatives",
            "test_rows",
            "test_positives",
            "test_negatives",
            "before",
            "cutoff_date",
            "negative_ratio",
            "feature_columns",
            "output_path",
            "train_path",
            "test_path",
        ],
        {
            "train_rows": COUNT,
            "train_positives": COUNT,
            "train_negatives": COUNT,
            "test_rows": COUNT,
            "test_positives": COUNT,
            "test_negatives": COUNT,
            "before": {
                "description": "Counts before the negatives were cut; `excluded`: labelled "
                "days in neither part (their label window crosses the cut-off).",
                "type": "object",
                "additionalProperties": COUNT,
            },
            "cutoff_date": {"type": "string"},
            "horizon_days": {"type": "integer"},
            "negative_ratio": {"type": "number"},
            "seed": {"type": "integer"},
            "feature_columns": {"type": "array", "items": {"type": "string"}},
            "output_path": {"type": "string"},
            "train_path": {"type": "string"},
            "test_path": {"type": "string"},
        },
    ),
    checks=(check_training_set,),
    inputs=(
        ("features_job", ("window-features", PIPELINE)),
        ("labels_job", ("failure-labels", PIPELINE)),
    ),
)

TRAIN_MODEL = maintenance_job_type(
    name="train-model",
    title="Train a failure model",
    description="A gradient-boosted trees or random forest classifier over the feature "
    "columns, fitted on a training set and evaluated on its test part (ROC AUC, PR AUC, "
    "precision and recall at a threshold, ROC curve, feature importances); the model's id is "
    "this job's id.",
    script="train_model.py",
    params_schema=closed_object(
        {
            "training_set_job": _job_param("its training set", ("training-set", PIPELINE)),
            "algorithm": {
                "description": "gbt: gradient-boosted trees; rf: random forest.",
                "enum": ["gbt", "rf"],
                "default": "gbt",
            },
            "max_iter": {
                "description": "Boosting iterations (gbt).",
                "type": "integer",
                "minimum": 1,
                "maximum": 500,
                "default": 20,
            },
            "num_trees": {
                "description": "Trees of the forest (rf).",
                "type": "integer",
                "minimum": 1,
                "maximum": 500,
                "default": 50,
            },
            "max_depth": {
                "description": "Depth of each tree.",
                "type": "integer",
                "minimum": 1,
                "maximum": 30,
                "default": 5,
            },
            "threshold": {
                "description": "Probability from which a day counts as predicted to fail "
                "(precision and recall).",
                "type": "number",
                "minimum": 0,
                "maximum": 1,
                "default": 0.5,
            },
            "seed": _SEED,
        },
        ["training_set_job"],
    ),
    result_schema=result_object(
        ["model_id", "model_path", "algorithm", "metrics", "roc_curve", "feature_importances"],
        {
            "model_id": {"type": "integer"},
            "model_path": {"type": "string"},
            "metrics_path": {"type": "string"},
            "algorithm": {"enum": ["gbt", "rf"]},
            "params": {"type": "object"},
            "feature_columns": {"type": "array", "items": {"type": "string"}},
            "train_rows": COUNT,
            "metrics": {
                **result_object(
                    [
                        "roc_auc",
                        "pr_auc",
                        "precision",
                        "recall",
                        "threshold",
                        "test_rows",
                        "test_positives",
                    ],
                    {
                        "roc_auc": _RATE,
                        "pr_auc": _RATE,
                        "precision": _RATE,
                        "recall": _RATE,
                        "threshold": {"type": "number"},
                        "test_rows": COUNT,
                        "test_positives": COUNT,
                    },
                ),
                "description": "On the test part; null where undefined (no positive, no "
                "negative, nothing predicted positive).",
            },
            "roc_curve": {
                **_TABLE,
                "description": "[fpr, tpr] at thresholds 1.00 down to 0.00 (at most 101 "
                "points); no rows when the test part lacks a class.",
            },
            "feature_importances": {
                **_TABLE,
                "description": "[feature, importance], largest first",
            },
            "drift_reference": {
                "type": "object",
                "required": ["bins", "features", "source", "rows"],
                "description": "What the days it scores are compared with (feature drift): "
                "{bins, features: {feature: {edges, shares}}, source: test | train, rows}, the "
                "deciles of the test part (of the training part when the test part has fewer "
                "than 100 rows) and each bin's share of those rows.",
            },
        },
    ),
    inputs=(("training_set_job", ("training-set", PIPELINE)),),
)

SCORE = maintenance_job_type(
    name="score",
    title="Score equipment",
    description="One failure probability per equipment for one day of features (default the "
    "latest), written to the predictions topic: key the equipment id, value JSON "
    "{equipment_id, day, failure_probability, model_id, scored_at, drivers, recent_alarms}: "
    "drivers are the (at most 3) features on which the equipment stands above the day's fleet, "
    "weighted by the model's importance; recent alarms its alarm counts per fault code over "
    "the shortest window of the features.",
    script="score.py",
    params_schema=closed_object(
        {
            "model_id": {
                **_job_param("the model it trained", MODEL_JOBS),
                "description": "The id of a succeeded train-model or maintenance-pipeline "
                "job: the model it trained; null (the default): the cluster's active model "
                "when the job is submitted (the job keeps the id it used).",
                "type": ["integer", "null"],
                "default": None,
            },
            "features_job": _job_param("the features to score", ("window-features", PIPELINE)),
            "predictions_topic": {
                **TOPIC_NAME,
                "description": "Where the predictions go (it must exist).",
                "default": DEFAULT_PREDICTIONS_TOPIC,
            },
            "day": {
                "description": "YYYY-MM-DD inside the features' days; default the latest.",
                "type": ["string", "null"],
                "pattern": _DATE_PATTERN,
                "default": None,
            },
        },
        ["features_job"],
    ),
    result_schema=result_object(
        ["predictions", "day", "predictions_topic", "model_id", "top"],
        {
            "predictions": {**COUNT, "description": "records written, one per equipment"},
            "day": {"type": "string"},
            "predictions_topic": {"type": "string"},
            "model_id": {"type": "integer"},
            "scored_at": {"type": "string"},
            "top": {
                **_TABLE,
                "description": "[equipment_id, failure_probability], the ten highest",
            },
            "drift": {
                "type": ["object", "null"],
                "required": ["threshold", "rows", "features", "drifted", "max_psi"],
                "description": "The scored day's feature drift against the model's reference: "
                "{threshold, rows, features: [{feature, psi, bar}] largest PSI first, drifted: "
                "the features whose PSI is above their bar (the threshold, or what chance "
                "reaches one day in a thousand for `rows` machines), max_psi}; null for a "
                "model trained without a reference.",
            },
            "too_little_history": result_object(
                ["equipment", "longest_window_days", "listed"],
                {
                    "equipment": {
                        **COUNT,
                        "description": "equipment of the day not scored: its first alarm in "
                        "what was read is fewer than longest_window_days days back",
                    },
                    "longest_window_days": {"type": "integer", "minimum": 1},
                    "listed": {
                        **_TABLE,
                        "description": "[equipment_id, first_day, history_days], the first "
                        "100 by id",
                    },
                },
            ),
        },
    ),
    fills=(fill_active_model,),
    checks=(check_score,),
    inputs=(
        ("model_id", MODEL_JOBS),
        ("features_job", ("window-features", PIPELINE)),
    ),
)

MODEL_JOB_TYPES: tuple[JobType, ...] = (TRAINING_SET, TRAIN_MODEL, SCORE)
