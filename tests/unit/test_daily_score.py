"""The `maintenance-score` job type without services: its params (the active model, the
model's own features params, defaults), its refusals (each a 400 naming the nested field), and
its script's steps. A real run is tests/integration/test_pm_pipeline.py."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from console.errors import BadInput
from maintenance.jobs import JOBS_DIR
from maintenance.jobs.pipeline_steps import SCORE_STEPS
from maintenance.models import ModelPromotion
from maintenance.types_features import FEATURES_PARAMS
from maintenance.types_scoring import SCORING, feature_columns, model_features_params
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import JobState
from sparkjobs.job_types import check_params, validate_params
from sparkjobs.models import SparkJob
from tests.snapshots import topics_snapshot
from tests.unit.conftest import module_from_file

SCORING_TYPE = JOB_TYPES[SCORING]
TRAINED = {
    "windows": [3, 7],
    "fault_codes": ["E303-VIBRATION"],
    "sensors": ["vibration"],
    "alarms_topic": "plant-alarms",
    "start_time": "2026-01-01T00:00:00Z",
    "end_time": None,
}
COLUMNS = feature_columns(TRAINED)


def _job(job_type: str, params: dict[str, Any], result: Any = None) -> int:
    return SparkJob.objects.create(
        job_type=job_type, cluster="local", state=JobState.SUCCEEDED, params=params, result=result
    ).pk


def _pipeline_model(features: dict[str, Any] = TRAINED) -> int:
    result = {"train-model": {"model_path": "/m", "feature_columns": feature_columns(features)}}
    return _job("maintenance-pipeline", {"features": features}, result)


def _submit(params: dict[str, Any], *topics: str) -> dict[str, Any]:
    """What the platform's submit does before queueing (sparkjobs.service.submit)."""
    filled = validate_params(SCORING_TYPE, params)
    for fill in SCORING_TYPE.fills:
        fill("local", filled)
    check_params(
        SCORING_TYPE,
        topics_snapshot(*(topics or ("plant-alarms", "equipment-failure-predictions"))),
        filled,
    )
    return filled


def test_window_features_columns_are_the_spark_sides():
    spark_side = module_from_file(JOBS_DIR / "pm_features.py")
    defaults = {k: v["default"] for k, v in FEATURES_PARAMS["properties"].items()}
    for params in (TRAINED, defaults):
        assert feature_columns(params) == spark_side.feature_columns(params)


def test_the_script_runs_the_steps_in_the_lists_order():
    tree = ast.parse((JOBS_DIR / "maintenance_score.py").read_text())
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    called = [
        node.args[0].value
        for node in ast.walk(main)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "step"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert called == list(SCORE_STEPS) == list(SCORING_TYPE.steps)
    assert SCORING_TYPE.result_schema["required"] == list(SCORE_STEPS)


@pytest.mark.django_db
def test_it_scores_with_the_active_model_on_the_features_it_was_trained_on():
    model = _pipeline_model()
    ModelPromotion.objects.create(cluster="local", model_id=model)
    params = _submit({})
    assert params["model_id"] == model
    # The model's features params, without its time range (a daily score reads up to now).
    assert params["features"] == {**TRAINED, "start_time": None, "end_time": None}
    assert params["score"] == {"predictions_topic": "equipment-failure-predictions", "day": None}
    # A field the caller gives wins; one the model does not say is the default.
    params = _submit({"features": {"sensors": ["vibration", "temperature"]}})
    assert params["features"]["sensors"] == ["vibration", "temperature"]
    assert params["features"]["windows"] == [3, 7]


@pytest.mark.django_db
def test_a_train_model_jobs_features_are_found_through_its_training_set():
    features = _job("window-features", {**TRAINED, "windows": [5]})
    training = _job("training-set", {"features_job": features, "labels_job": features})
    model = _job("train-model", {"training_set_job": training})
    assert model_features_params(model) == {k: v for k, v in TRAINED.items() if "time" not in k} | {
        "windows": [5]
    }
    assert model_features_params(999999) == {}
    lost = _job("train-model", {"training_set_job": 999999})
    assert model_features_params(lost) == {}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "topics", "field"),
    [
        ({}, (), "params.model_id"),  # no active model yet
        ({"features": {"windowz": [7]}}, (), "params.features.windowz"),
        ({"features": {"windows": [7, 3]}}, (), "params.features.windows"),
        ({}, ("equipment-failure-predictions",), "params.features.alarms_topic"),
        ({}, ("plant-alarms",), "params.score.predictions_topic"),
        ({"score": {"day": "30/03/2026"}}, (), "params.score.day"),
        # The model was trained on 3- and 7-day windows: 14-day ones do not make its columns.
        ({"features": {"windows": [14]}}, (), "params.features"),
    ],
    ids=[
        "no-active-model",
        "misspelt-key",
        "windows-not-increasing",
        "no-alarms-topic",
        "no-predictions-topic",
        "bad-day",
        "columns-the-model-lacks",
    ],
)
def test_refusals_name_the_nested_field(params, topics, field):
    if field != "params.model_id":
        params = {"model_id": _pipeline_model(), **params}
    with pytest.raises(BadInput) as refused:
        _submit(params, *topics)
    assert refused.value.field == field, refused.value
    assert field in refused.value.message
