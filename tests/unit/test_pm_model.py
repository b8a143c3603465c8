"""The model half of predictive maintenance without services: the pure parts of the step
functions (maintenance/jobs/pm_model.py), the submit checks of training-set, train-model and
score (maintenance/types_model.py), the models list from job rows and the latest prediction
per equipment (maintenance/service.py), and the two GET endpoints' refusals before Kafka."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from console.errors import BadInput
from maintenance import service
from maintenance.jobs import JOBS_DIR
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import JobState
from sparkjobs.job_types import check_params, result_problem, validate_params
from sparkjobs.models import SparkJob
from tests.conftest import assert_error
from tests.snapshots import topics_snapshot
from tests.unit.conftest import module_from_file

TRAINING, MODEL, SCORE = (JOB_TYPES[n] for n in ("training-set", "train-model", "score"))
COLUMNS = ["count_e101_overheat_7d", "max_temperature_7d"]
FEATURES = {
    "rows": 120,
    "equipment": 4,
    "feature_columns": COLUMNS,
    "first_day": "2026-03-01",
    "last_day": "2026-03-30",
    "output_path": "/x/features",
}
LABELS = {"rows": 92, "positives": 9, "negatives": 83, "horizon_days": 7, "output_path": "/y"}
CURVE = {"columns": ["fpr", "tpr"], "rows": [[0.0, 0.0], [0.2, 0.9], [1.0, 1.0]]}
# A model's scores: what the models list shows of its metrics (not the test part's counts).
SCORES = {"roc_auc": 0.93, "pr_auc": 0.71, "precision": 0.6, "recall": 0.75, "threshold": 0.5}
TRAINED = {
    "model_id": 0,  # set per row
    "model_path": "/out/models/0/model",
    "algorithm": "gbt",
    "metrics": {**SCORES, "test_rows": 40, "test_positives": 4},
    "roc_curve": CURVE,
    "feature_importances": {"columns": ["feature", "importance"], "rows": [["a", 1.0]]},
    "feature_columns": COLUMNS,
}


pm = module_from_file(JOBS_DIR / "pm_model.py")  # the Spark script module


def _job(job_type: str, result: Any, state: str = JobState.SUCCEEDED, **params: Any) -> int:
    job = SparkJob.objects.create(
        job_type=job_type, cluster="local", state=state, result=result, params=params
    )
    return job.pk


def _field(excinfo: pytest.ExceptionInfo) -> str:
    return excinfo.value.details["field"]


# --- pure parts of the step functions ---------------------------------------------------------
def test_step_result_takes_a_pipelines_step_or_the_result_itself():
    assert pm.step_result(FEATURES, "window-features") is FEATURES
    pipeline = {"window-features": FEATURES, "failure-labels": LABELS}
    assert pm.step_result(pipeline, "window-features") is FEATURES
    assert pm.step_result(pipeline, "failure-labels") is LABELS


@pytest.mark.parametrize(
    ("positives", "negatives", "ratio", "kept"),
    [(10, 100, 3, 30), (10, 20, 3, 20), (7, 100, 0.5, 4), (3, 100, 1.5, 5), (0, 50, 3, 0)],
)
def test_kept_negatives_is_the_ratio_rounded_and_at_most_all(positives, negatives, ratio, kept):
    assert pm.kept_negatives(positives, negatives, ratio) == kept


def test_cutoff_may_be_any_day_of_the_features():
    pm.check_cutoff("2026-03-01", FEATURES)
    pm.check_cutoff("2026-03-30", FEATURES)
    pm.check_cutoff("1999-01-01", {})  # days unknown: nothing to check


@pytest.mark.parametrize("outside", ["2026-02-28", "2026-03-31"], ids=["before", "after"])
def test_cutoff_must_fall_inside_the_features_days(outside):
    with pytest.raises(ValueError, match=r"^params\.cutoff_date: .* not inside the data"):
        pm.check_cutoff(outside, FEATURES)


def test_the_pipeline_names_a_refused_cutoff_by_its_own_field(driver_script):
    # The pipeline has no cut-off check of its own: training_set's error, rewritten by the
    # step wrapper, must name params.training.cutoff_date.
    pipeline = driver_script(JOBS_DIR / "maintenance_pipeline.py")
    with pytest.raises(ValueError) as refused:
        pm.check_cutoff("2026-04-02", FEATURES)
    message = pipeline.in_pipeline(
        pipeline.first_line(refused.value), "training", {"cutoff_date": "2026-04-02"}
    )
    assert message.startswith("ValueError: params.training.cutoff_date: 2026-04-02 is not inside")
    assert not hasattr(pipeline, "check_cutoff")


def test_roc_points_from_a_histogram():
    # bucket: (positives, negatives); 2 positives, 4 negatives.
    histogram = {90: (1, 0), 60: (1, 1), 30: (0, 2), 0: (0, 1)}
    points = pm.roc_points(histogram)
    assert points[0] == [0.0, 0.0]
    assert points[-1] == [1.0, 1.0]
    assert [0.0, 0.5] in points and [0.25, 1.0] in points and [0.75, 1.0] in points
    assert points == sorted(points)  # fpr and tpr never fall
    assert len(points) == len({tuple(p) for p in points}) <= pm.ROC_STEPS + 1
    assert pm.roc_points({50: (3, 0)}) == []  # no negative: no curve
    assert pm.roc_points({}) == []


def test_precision_and_recall_are_null_when_undefined():
    assert pm.precision_recall(3, 4, 6) == (0.75, 0.5)
    assert pm.precision_recall(0, 0, 6) == (None, 0.0)
    assert pm.precision_recall(0, 2, 0) == (0.0, None)


def test_drivers_are_features_the_model_uses_on_which_the_fleet_varies():
    columns = ["count_e101_overheat_7d", "max_temperature_7d", "severity_sum_7d", "max_x_7d"]
    stats = {
        "count_e101_overheat_7d": (2.0, 1.5),
        "max_temperature_7d": (60.0, 0.0),  # the whole fleet equal: drives nothing
        "severity_sum_7d": (4.0, 2.0),
        "max_x_7d": (None, None),  # no rows: nothing known
    }
    weights = pm.driver_weights(columns, [0.5, 0.3, 0.0, 0.2], stats)
    # severity_sum_7d: importance 0, the model ignores it.
    assert weights == {"count_e101_overheat_7d": (0.5, 2.0, 1.5)}


def test_the_history_a_score_needs_is_the_longest_window_of_the_models_columns():
    columns = ["count_e101_overheat_7d", "severity_sum_21d", "max_temperature_14d"]
    assert pm.longest_window(columns) == 21
    # The window is the column's suffix, whatever the sensor or code is called.
    assert pm.longest_window(["max_sensor_30d_x_3d"]) == 3
    # Columns without a window (a model trained on other features): one day is enough.
    assert pm.longest_window(["temperature"]) == 1
    assert pm.longest_window([]) == 1


def test_recent_alarms_are_the_count_columns_of_the_shortest_window():
    columns = [
        "count_e101_overheat_7d",
        "count_e303_vibration_7d",
        "severity_sum_7d",
        "count_e101_overheat_3d",
        "count_e303_vibration_3d",
        "max_temperature_3d",
    ]
    codes = ["E101-OVERHEAT", "E303-VIBRATION"]
    assert pm.recent_alarm_counts(columns, codes) == (
        3,
        [
            ("E101-OVERHEAT", "count_e101_overheat_3d"),
            ("E303-VIBRATION", "count_e303_vibration_3d"),
        ],
    )
    # Features whose result does not say their codes (made before it did): the slugs.
    assert pm.recent_alarm_counts(columns[:2], None) == (
        7,
        [
            ("e101_overheat", "count_e101_overheat_7d"),
            ("e303_vibration", "count_e303_vibration_7d"),
        ],
    )
    assert pm.recent_alarm_counts(["max_temperature_7d"], codes) is None


# --- submit checks ----------------------------------------------------------------------------
def _submit_training(features: int, labels: int, **params: Any) -> None:
    filled = validate_params(TRAINING, {"features_job": features, "labels_job": labels, **params})
    check_params(TRAINING, topics_snapshot(), filled)


@pytest.mark.django_db
def test_training_set_takes_a_cutoff_inside_its_inputs_and_fills_defaults():
    features, labels = _job("window-features", FEATURES), _job("failure-labels", LABELS)
    _submit_training(features, labels, cutoff_date="2026-03-20")
    assert validate_params(
        TRAINING, {"features_job": 1, "labels_job": 2, "cutoff_date": "2026-03-20"}
    ) == {
        "features_job": 1,
        "labels_job": 2,
        "cutoff_date": "2026-03-20",
        "negative_ratio": 3,
        "seed": 42,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params, field",
    [
        pytest.param({"cutoff_date": "2026-04-01"}, "params.cutoff_date", id="after-the-data"),
        pytest.param({"cutoff_date": "2026-02-01"}, "params.cutoff_date", id="before-the-data"),
        # No day D with D + 7 before it.
        pytest.param({"cutoff_date": "2026-03-05"}, "params.cutoff_date", id="no-day-to-train"),
        pytest.param({"cutoff_date": "2026-02-30"}, "params.cutoff_date", id="not-a-date"),
        pytest.param({"cutoff_date": "20.03.2026"}, "params.cutoff_date", id="not-iso"),
        pytest.param(
            {"cutoff_date": "2026-03-20", "negative_ratio": 0},
            "params.negative_ratio",
            id="zero-ratio",
        ),
        pytest.param(
            {"cutoff_date": "2026-03-20", "negative_ratio": -1},
            "params.negative_ratio",
            id="negative-ratio",
        ),
    ],
)
def test_training_set_checks_the_cutoff_against_its_inputs(params, field):
    features, labels = _job("window-features", FEATURES), _job("failure-labels", LABELS)
    with pytest.raises(BadInput) as excinfo:
        _submit_training(features, labels, **params)
    assert _field(excinfo) == field, params


@pytest.mark.django_db
def test_training_set_features_must_be_a_features_job():
    labels = _job("failure-labels", LABELS)
    with pytest.raises(BadInput) as excinfo:
        _submit_training(labels, labels, cutoff_date="2026-03-20")
    assert _field(excinfo) == "params.features_job"  # a labels job is not features


@pytest.mark.django_db
def test_a_pipeline_job_is_an_input_through_its_steps_result():
    pipeline = _job("maintenance-pipeline", {"window-features": FEATURES, "failure-labels": LABELS})
    params = {"features_job": pipeline, "labels_job": pipeline}
    check_params(
        TRAINING,
        topics_snapshot(),
        validate_params(TRAINING, {**params, "cutoff_date": "2026-03-20"}),
    )
    with pytest.raises(BadInput) as excinfo:
        check_params(
            TRAINING,
            topics_snapshot(),
            validate_params(TRAINING, {**params, "cutoff_date": "2026-04-20"}),
        )
    assert _field(excinfo) == "params.cutoff_date"


@pytest.fixture
def score_inputs(db) -> dict[str, int]:
    """Job rows a score submit may name: features, a model, and ones it must refuse."""
    jobs = {
        "features": _job("window-features", FEATURES),
        "model": _job("train-model", {**TRAINED, "model_id": 0}),
        "failed": _job("train-model", None, state=JobState.FAILED),
        "narrow": _job("window-features", {**FEATURES, "feature_columns": COLUMNS[:1]}),
    }
    return {**jobs, "unknown": max(jobs.values()) + 100}


def _submit_score(inputs: dict[str, int], **params: Any) -> dict[str, Any]:
    filled = validate_params(
        SCORE, {"model_id": inputs["model"], "features_job": inputs["features"], **params}
    )
    check_params(SCORE, topics_snapshot("equipment-failure-predictions", "preds"), filled)
    return filled


def test_score_takes_a_topic_and_a_day(score_inputs):
    assert _submit_score(score_inputs)["predictions_topic"] == "equipment-failure-predictions"
    filled = _submit_score(score_inputs, predictions_topic="preds", day="2026-03-10")
    assert filled["day"] == "2026-03-10"


@pytest.mark.parametrize(
    "params, field",
    [
        pytest.param(
            lambda jobs: {"predictions_topic": "nope"},
            "params.predictions_topic",
            id="unknown-topic",
        ),
        pytest.param(lambda jobs: {"day": "2026-04-01"}, "params.day", id="day-after-the-data"),
        pytest.param(lambda jobs: {"day": "2026-3-1"}, "params.day", id="day-not-iso"),
        pytest.param(
            lambda jobs: {"model_id": jobs["unknown"]}, "params.model_id", id="unknown-model"
        ),
        pytest.param(
            lambda jobs: {"model_id": jobs["failed"]}, "params.model_id", id="failed-model"
        ),
        pytest.param(
            lambda jobs: {"model_id": jobs["features"]}, "params.model_id", id="model-not-a-model"
        ),
        pytest.param(
            lambda jobs: {"features_job": jobs["model"]},
            "params.features_job",
            id="features-not-features",
        ),
        pytest.param(
            lambda jobs: {"features_job": jobs["narrow"]},
            "params.features_job",
            id="features-lack-a-model-column",
        ),
        pytest.param(lambda jobs: {"model_id": "7"}, "params.model_id", id="model-id-a-string"),
    ],
)
def test_score_checks_topic_model_day_and_columns(score_inputs, params, field):
    with pytest.raises(BadInput) as excinfo:
        _submit_score(score_inputs, **params(score_inputs))
    assert _field(excinfo) == field, params(score_inputs)


def test_scores_are_never_written_into_the_lag_export(settings):
    from maintenance.types_model import check_score

    settings.LAG_EXPORT_TOPIC = "lag-x"
    with pytest.raises(BadInput) as caught:
        check_score(topics_snapshot("lag-x"), {"predictions_topic": "lag-x"})
    assert _field(caught) == "params.predictions_topic"


def test_pipeline_params_come_from_these_types_minus_their_inputs():
    from maintenance.types_pipeline import pipeline_schemas

    step_types = {
        "window-features": MODEL,  # stand-ins: only the model steps are looked at here
        "failure-labels": MODEL,
        "training-set": TRAINING,
        "train-model": MODEL,
        "score": SCORE,
    }
    params, _ = pipeline_schemas(step_types)
    assert set(params["properties"]["training"]["properties"]) == {
        "cutoff_date",
        "negative_ratio",
        "seed",
    }
    assert params["properties"]["training"]["required"] == ["cutoff_date"]
    assert set(params["properties"]["score"]["properties"]) == {"predictions_topic", "day"}
    assert "training_set_job" not in params["properties"]["model"]["properties"]


def test_result_schemas_accept_the_step_results_and_refuse_a_missing_metric():
    assert result_problem(MODEL, {**TRAINED, "model_id": 3}) is None
    broken = {**TRAINED, "metrics": {k: v for k, v in TRAINED["metrics"].items() if k != "recall"}}
    assert "recall" in (result_problem(MODEL, broken) or "")
    assert (
        result_problem(
            SCORE,
            {
                "predictions": 2,
                "day": "2026-03-30",
                "predictions_topic": "t",
                "model_id": 3,
                "top": {"columns": ["equipment_id", "failure_probability"], "rows": []},
            },
        )
        is None
    )


# --- models and predictions -------------------------------------------------------------------
def test_model_entry_from_a_train_model_and_a_pipeline_row():
    when = datetime(2026, 4, 1, tzinfo=UTC)
    params = {"training_set_job": 4, "algorithm": "gbt", "max_depth": 3}
    single = service.model_entry(
        9, "train-model", "local", when, params, {**TRAINED, "model_id": 9}
    )
    assert single == {
        "id": 9,
        "job_id": 9,
        "job_type": "train-model",
        "cluster": "local",
        "created_at": when,
        "algorithm": "gbt",
        "params": params,
        "metrics": SCORES,
        "quality": "usable",
        "quality_reason": None,
        "path": "/out/models/0/model",
        "roc_curve": CURVE,
        "feature_importances": [{"feature": "a", "importance": 1.0}],
        "challenge": None,  # not a retraining's model
    }
    pipeline = service.model_entry(
        12,
        "maintenance-pipeline",
        "local",
        when,
        {"training": {"cutoff_date": "2026-03-20"}, "model": {"algorithm": "rf"}},
        {"window-features": FEATURES, "train-model": {**TRAINED, "model_id": 12}},
    )
    assert pipeline is not None
    assert (pipeline["id"], pipeline["params"], pipeline["path"]) == (
        12,
        {"algorithm": "rf"},
        "/out/models/0/model",
    )
    # A pipeline that never got to its model, and a result that is no model: no entry.
    assert service.model_entry(13, "maintenance-pipeline", "l", when, {}, {"x": {}}) is None
    assert service.model_entry(14, "train-model", "l", when, {}, None) is None


@pytest.mark.django_db
def test_list_models_newest_first_succeeded_only(viewer_client):
    first = _job("train-model", {**TRAINED, "model_id": 0}, algorithm="gbt")
    _job("train-model", None, state=JobState.FAILED)
    _job("training-set", {"train_rows": 3})
    _job("maintenance-pipeline", {"window-features": FEATURES})  # no model in it
    pipeline = _job(
        "maintenance-pipeline", {"train-model": {**TRAINED, "model_id": 0}}, model={"x": 1}
    )
    answer = viewer_client.get("/api/v1/spark/models")
    assert answer.status_code == 200, answer.content
    models = answer.json()
    assert [m["id"] for m in models] == [pipeline, first]
    assert models[0]["params"] == {"x": 1} and models[1]["params"] == {"algorithm": "gbt"}
    assert models[1]["metrics"]["roc_auc"] == 0.93 and models[1]["roc_curve"] == CURVE
    assert models[1]["feature_importances"] == [{"feature": "a", "importance": 1.0}]
    assert (models[1]["quality"], models[1]["quality_reason"]) == ("usable", None)
    assert set(models[0]) >= {"id", "job_id", "cluster", "created_at", "algorithm", "params"}
    assert [m["id"] for m in viewer_client.get("/api/v1/spark/models?limit=1").json()] == [pipeline]
    error = assert_error(viewer_client.get("/api/v1/spark/models?limit=0"), 400)
    assert error["details"]["field"] == "limit"


def test_feature_importances_are_typed_largest_first_and_bad_rows_left_out():
    table = {
        "columns": ["importance", "feature"],  # looked up by name, whatever the order
        "rows": [[0.2, "b"], [0.7, "a"], ["x", "c"], [True, "d"], [0.1], [0.1, "e"]],
    }
    assert service.feature_importances(table) == [
        {"feature": "a", "importance": 0.7},
        {"feature": "b", "importance": 0.2},
        {"feature": "e", "importance": 0.1},
    ]
    assert service.feature_importances(None) == []
    assert service.feature_importances({"columns": ["feature", "importance"]}) == []


def _record(equipment: str, p: float, ts: int | None, day: str = "2026-03-30") -> tuple:
    value = {"equipment_id": equipment, "day": day, "failure_probability": p, "model_id": 5}
    return (equipment.encode(), json.dumps(value).encode(), ts)


def test_drivers_and_recent_alarms_keep_the_well_formed_entries():
    value = {
        "equipment_id": "eq-1",
        "failure_probability": 0.8,
        "drivers": [
            {"feature": "max_vibration_7d", "value": 1.5, "weight": 0.42},
            {"feature": "count_e303_vibration_7d", "value": 6, "weight": 1},  # ints are numbers
            {"feature": "x", "value": "hot", "weight": 0.1},  # not a number
            {"feature": "y", "value": 1.0},  # no weight
            {"feature": "z", "value": True, "weight": 0.1},  # a bool is no number
            "max_temperature_7d",
        ],
        "recent_alarms": [
            {"fault_code": "E303-VIBRATION", "count": 6, "days": 7},
            {"fault_code": "E101-OVERHEAT", "count": 1.5, "days": 7},  # not a whole count
            {"fault_code": "E101-OVERHEAT", "count": 2.0, "days": 7},  # a whole float counts
        ],
    }
    (prediction,) = service.latest_predictions([(b"eq-1", json.dumps(value).encode(), 1)], 5)
    assert prediction["drivers"] == [
        {"feature": "max_vibration_7d", "value": 1.5, "weight": 0.42},
        {"feature": "count_e303_vibration_7d", "value": 6.0, "weight": 1.0},
    ]
    assert prediction["recent_alarms"] == [
        {"fault_code": "E303-VIBRATION", "count": 6, "days": 7},
        {"fault_code": "E101-OVERHEAT", "count": 2, "days": 7},
    ]
    assert isinstance(prediction["recent_alarms"][1]["count"], int)
    broken = {"equipment_id": "eq-2", "failure_probability": 0.1, "drivers": {"a": 1}}
    (older,) = service.latest_predictions([(b"eq-2", json.dumps(broken).encode(), 1)], 5)
    assert older["drivers"] == [] and older["recent_alarms"] == []


def test_latest_prediction_per_equipment_highest_first():
    records = [
        _record("eq-1", 0.9, 1000, "2026-03-29"),
        _record("eq-2", 0.2, 1000),
        _record("eq-1", 0.1, 2000),  # eq-1's newer prediction wins, although lower
        _record("eq-3", 0.5, 1500),
        _record("eq-3", 0.7, 1400),  # older, read later: the timestamp decides
        _record("eq-4", 0.5, 900),
        (b"x", b"not json", 5000),
        (b"x", json.dumps({"equipment_id": "eq-9"}).encode(), 5000),
        (b"x", json.dumps({"equipment_id": "eq-9", "failure_probability": True}).encode(), 1),
        (b"x", None, 5000),
    ]
    latest = service.latest_predictions(records, 10)
    assert [(p["equipment_id"], p["failure_probability"]) for p in latest] == [
        ("eq-3", 0.5),
        ("eq-4", 0.5),  # a tie: by equipment id
        ("eq-2", 0.2),
        ("eq-1", 0.1),
    ]
    assert latest[-1] == {
        "equipment_id": "eq-1",
        "day": "2026-03-30",
        "failure_probability": 0.1,
        "model_id": 5,
        "drivers": [],  # a record from a score job before drivers
        "recent_alarms": [],
    }
    assert [p["equipment_id"] for p in service.latest_predictions(records, 2)] == [
        "eq-3",
        "eq-4",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "status", "field"),
    [
        ("", 400, "cluster"),
        ("?cluster=local&limit=0", 400, "limit"),
        ("?cluster=local&limit=1001", 400, "limit"),
        ("?cluster=local&limit=ten", 400, "limit"),
        ("?cluster=local&topic=bad%20name", 400, "topic"),
        ("?cluster=no-such-cluster", 404, None),
    ],
)
def test_predictions_refusals_before_kafka(viewer_client, query, status, field):
    error = assert_error(viewer_client.get(f"/api/v1/spark/predictions{query}"), status)
    if field:
        assert error["details"]["field"] == field
    else:
        assert error["code"] == "cluster_not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["spark/models", "spark/predictions?cluster=local"], ids=["models", "predictions"]
)
def test_models_and_predictions_need_a_role(norole_client, anon_client, path):
    assert_error(norole_client.get(f"/api/v1/{path}"), 403)
    assert_error(anon_client.get(f"/api/v1/{path}"), 401)
