"""The `model-performance` job type and GET spark/models/{id}/performance without services:
its params (the active model, the model's own horizon), its refusals, and what the endpoint
serves. The Spark computation against a plain-Python one: tests/integration/test_pm_model.py."""

from __future__ import annotations

from typing import Any

import pytest

from console.errors import BadInput
from maintenance.models import ModelPromotion
from maintenance.types_performance import DEFAULT_HORIZON, PERFORMANCE, model_horizon, model_topics
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import JobState
from sparkjobs.job_types import check_params, validate_params
from sparkjobs.models import SparkJob
from tests.conftest import assert_error
from tests.snapshots import topics_snapshot

pytestmark = pytest.mark.django_db

TYPE = JOB_TYPES[PERFORMANCE]
TOPICS = ("equipment-failure-predictions", "equipment-alarms", "work-orders")
TRAINED = {"model_id": 0, "model_path": "/m", "metrics": {"threshold": 0.4}}


def _job(job_type: str, params: dict[str, Any], result: Any, **kwargs: Any) -> int:
    return SparkJob.objects.create(
        job_type=job_type,
        cluster="local",
        state=kwargs.get("state", JobState.SUCCEEDED),
        params=params,
        result=result,
    ).pk


def _submit(params: dict[str, Any], *topics: str) -> dict[str, Any]:
    filled = validate_params(TYPE, params)
    for fill in TYPE.fills:
        fill("local", filled)
    check_params(TYPE, topics_snapshot(*(topics or TOPICS)), filled)
    return filled


def test_the_horizon_is_the_models_own():
    pipeline = _job(
        "maintenance-pipeline", {"labels": {"horizon_days": 5}}, {"train-model": TRAINED}
    )
    training = _job("training-set", {}, {"horizon_days": 10})
    model = _job("train-model", {"training_set_job": training}, TRAINED)
    assert model_horizon(pipeline) == 5 and model_horizon(model) == 10
    assert model_horizon(999999) is None
    ModelPromotion.objects.create(cluster="local", model_id=pipeline)
    params = _submit({})  # the active model, its horizon
    assert (params["model_id"], params["horizon_days"]) == (pipeline, 5)
    assert _submit({"model_id": model})["horizon_days"] == 10
    assert _submit({"model_id": model, "horizon_days": 2})["horizon_days"] == 2
    lone = _job("train-model", {"training_set_job": 999999}, TRAINED)
    assert _submit({"model_id": lone})["horizon_days"] == DEFAULT_HORIZON


def test_the_topics_are_the_models_own_unless_named():
    pipeline = _job(
        "maintenance-pipeline",
        {
            "features": {"alarms_topic": "plant-alarms"},
            "labels": {"alarms_topic": "plant-alarms", "work_orders_topic": "plant-orders"},
            "score": {"predictions_topic": "plant-predictions"},
        },
        {"train-model": TRAINED},
    )
    own = {
        "predictions_topic": "plant-predictions",
        "alarms_topic": "plant-alarms",
        "work_orders_topic": "plant-orders",
    }
    assert model_topics(pipeline) == own
    params = _submit({"model_id": pipeline}, *own.values())
    assert {k: params[k] for k in own} == own
    named = _submit({"model_id": pipeline, "alarms_topic": TOPICS[1]}, *own.values(), TOPICS[1])
    assert named["alarms_topic"] == TOPICS[1]
    # A train-model job: its features and labels jobs say two; the predictions topic is the
    # default.
    features = _job("window-features", {"alarms_topic": "a2"}, {})
    labels = _job("failure-labels", {"alarms_topic": "a2", "work_orders_topic": "o2"}, {})
    training = _job("training-set", {"features_job": features, "labels_job": labels}, {})
    model = _job("train-model", {"training_set_job": training}, TRAINED)
    assert model_topics(model) == {"alarms_topic": "a2", "work_orders_topic": "o2"}
    params = _submit({"model_id": model}, TOPICS[0], "a2", "o2")
    assert (params["predictions_topic"], params["alarms_topic"]) == (TOPICS[0], "a2")
    assert model_topics(999999) == {}


@pytest.mark.parametrize(
    ("params", "topics", "field"),
    [
        ({"model_id": None}, TOPICS, "params.model_id"),  # no active model
        ({"horizon_days": 0}, TOPICS, "params.horizon_days"),
        ({"horizons": 3}, TOPICS, "params.horizons"),
        ({}, TOPICS[1:], "params.predictions_topic"),
        ({}, (TOPICS[0], TOPICS[2]), "params.alarms_topic"),
        ({}, TOPICS[:2], "params.work_orders_topic"),
    ],
    ids=["no-active-model", "zero-horizon", "misspelt", "no-predictions", "no-alarms", "no-orders"],
)
def test_refusals_name_the_field(params, topics, field):
    if field != "params.model_id":
        params = {"model_id": _job("train-model", {}, TRAINED), **params}
    with pytest.raises(BadInput) as refused:
        _submit(params, *topics)
    assert refused.value.field == field


def test_the_endpoint_serves_the_newest_computation_of_the_model(viewer_client):
    model = _job("train-model", {}, TRAINED)
    url = f"/api/v1/spark/models/{model}/performance"
    answer = viewer_client.get(url).json()
    assert (answer["job_id"], answer["days"], answer["calibration"]) == (None, [], None)
    day = {
        "day": "2026-05-01",
        "predictions": 4,
        "known": 4,
        "pending": 0,
        "failures": 1,
        "flagged": 2,
        "precision": 0.5,
        "recall": 1.0,
        "roc_auc": 0.666667,
    }
    result = {
        "model_id": model,
        "threshold": 0.4,
        "horizon_days": 7,
        "last_day": "2026-05-10",
        "days": [day],
        "totals": {
            "predictions": 4,
            "known": 4,
            "pending": 0,
            "failures": 1,
            "precision": 0.5,
            "recall": 1.0,
        },
        "calibration": {
            "columns": ["band_low", "band_high", "predictions", "predicted", "observed"],
            "rows": [[0.0, 0.1, 4, 0.05, 0.25]],
        },
    }
    _job(PERFORMANCE, {"model_id": model}, {**result, "days": []})  # older
    newest = _job(PERFORMANCE, {"model_id": model}, result)
    _job(PERFORMANCE, {"model_id": model}, None, state=JobState.FAILED)
    _job(PERFORMANCE, {"model_id": model + 1000}, result)  # another model's
    answer = viewer_client.get(url).json()
    assert answer["job_id"] == newest and answer["days"] == [day]
    assert answer["calibration"] == result["calibration"] and answer["threshold"] == 0.4
    assert_error(
        viewer_client.get("/api/v1/spark/models/999999/performance"), 404, "model_not_found"
    )
