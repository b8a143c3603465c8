"""training-set -> train-model -> score end to end, and the models and predictions reads: a
real console (daphne, its own SQLite), the Procfile's Celery worker, real Spark (local[2])
and the dev stack's Kafka.

The features and labels are synthetic (written here with pyarrow, with a planted signal:
failing days run hot and raise more overheat alarms), and the jobs that would have made them
are succeeded rows in the console's database whose results point at those files: so this
module does not wait on the feature jobs, and checks every split against the data it wrote.
"""

from __future__ import annotations

import bisect
import json
import math
import random
import subprocess
import sys
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from datetime import time as dt_time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from console.clusters import parse_registry
from console.kafka import dev
from console.kafka.records import has_record_before, latest_values
from tests.conftest import assert_error
from tests.spark_helpers import read_records, start_spark_console
from tests.stack import ROOT, cluster_client, log_ends

pytestmark = pytest.mark.integration

CELERY_DB = 15  # test_spark_jobs 11, test_spark_standalone 12, test_pm_pipeline 13 (+14)
EQUIPMENT, DAYS, HORIZON = 40, 60, 7
FIRST_DAY = date(2026, 3, 1)
LAST_DAY = FIRST_DAY + timedelta(days=DAYS - 1)
LABELLED_UNTIL = LAST_DAY - timedelta(days=HORIZON)  # the last days are censored
CUTOFF = date(2026, 4, 15)
RATIO = 3
COLUMNS = ["count_e101_overheat_7d", "severity_sum_7d", "max_temperature_7d", "max_vibration_7d"]
JOB_TIMEOUT = 180
KEEP = {"retention.ms": "-1"}  # topics whose records are dated months ago


def write_synthetic(root: Path) -> list[tuple[str, date, int]]:
    """Features (one row per equipment per day) and labels (censored days dropped) as Parquet;
    returns the labels. About 12 % positive; positives run about 12 degrees hotter."""
    rng = random.Random(7)
    feats: dict[str, list] = {name: [] for name in ("equipment_id", "day", *COLUMNS)}
    labels: list[tuple[str, date, int]] = []
    for e in range(EQUIPMENT):
        for d in range(DAYS):
            day, label = FIRST_DAY + timedelta(days=d), int(rng.random() < 0.12)
            feats["equipment_id"].append(f"eq-{e:04d}")
            feats["day"].append(day)
            feats["count_e101_overheat_7d"].append(rng.randint(0, 3) + 2 * label)
            feats["severity_sum_7d"].append(rng.randint(0, 10))
            feats["max_temperature_7d"].append(round(rng.gauss(72 if label else 60, 5), 2))
            # Some nulls: the model must treat them as 0.0, not fail.
            feats["max_vibration_7d"].append(None if rng.random() < 0.05 else rng.random())
            if day <= LABELLED_UNTIL:
                labels.append((f"eq-{e:04d}", day, label))
    root.mkdir(parents=True)
    pq.write_table(pa.table(feats), root / "features.parquet")
    pq.write_table(
        pa.table(
            {
                "equipment_id": [r[0] for r in labels],
                "day": [r[1] for r in labels],
                "label": pa.array([r[2] for r in labels], pa.int32()),
            }
        ),
        root / "labels.parquet",
    )
    return labels


def create_succeeded_jobs(console: Any, rows: list[dict[str, Any]]) -> list[int]:
    """Succeeded SparkJob rows in the console's own database (through its ORM)."""
    code = (
        "import json\n"
        "from sparkjobs.models import SparkJob\n"
        f"rows = json.loads({json.dumps(json.dumps(rows))})\n"
        "ids = [SparkJob.objects.create(job_type=r['job_type'], cluster='local', "
        "state='succeeded', params=r.get('params', {}), result=r['result']).pk for r in rows]\n"
        "print(json.dumps(ids))\n"
    )
    out = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        cwd=ROOT,
        env=console.live.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def console(stack, tmp_path_factory) -> Any:
    c = start_spark_console(
        tmp_path_factory.mktemp("pm-model"), stack["redis_url"], CELERY_DB, "local[2]"
    )
    yield c
    c.stop()


@pytest.fixture(scope="module")
def inputs(console) -> dict[str, Any]:
    root = console.workdir / "synthetic"
    labels = write_synthetic(root)
    features_result = {
        "rows": EQUIPMENT * DAYS,
        "equipment": EQUIPMENT,
        "feature_columns": COLUMNS,
        "fault_codes": ["E101-OVERHEAT"],
        "first_day": FIRST_DAY.isoformat(),
        "last_day": LAST_DAY.isoformat(),
        "output_path": str(root / "features.parquet"),
        "sample": {"columns": [], "rows": []},
    }
    positives = sum(r[2] for r in labels)
    labels_result = {
        "rows": len(labels),
        "positives": positives,
        "negatives": len(labels) - positives,
        "censored_dropped": EQUIPMENT * HORIZON,
        "horizon_days": HORIZON,
        "last_day": LAST_DAY.isoformat(),
        "output_path": str(root / "labels.parquet"),
    }
    features, labels_job, pipeline = create_succeeded_jobs(
        console,
        [
            {"job_type": "window-features", "result": features_result},
            {"job_type": "failure-labels", "result": labels_result},
            # A pipeline that got as far as its labels: later jobs take its steps' results.
            {
                "job_type": "maintenance-pipeline",
                "result": {"window-features": features_result, "failure-labels": labels_result},
            },
        ],
    )
    return {
        "labels": labels,
        "features": features,
        "labels_job": labels_job,
        "pipeline": pipeline,
        "features_result": features_result,
    }


@pytest.fixture(scope="module")
def topic(stack) -> str:
    name = f"pm-predictions-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(name, 3, 3, {})])
    log_ends(client, [(name, p) for p in range(3)])  # leaders elected
    return name


@pytest.fixture(scope="module")
def chain(console, inputs, topic) -> dict[str, dict[str, Any]]:
    """training-set -> train-model -> score, each a job on the real worker."""

    def run(job_type: str, params: dict[str, Any]) -> dict[str, Any]:
        job = console.submit(job_type, params)
        done = console.wait(job["id"], {"succeeded", "failed", "cancelled", "lost"}, JOB_TIMEOUT)
        assert done["state"] == "succeeded", (done["error"], done["log_tail"][-3000:])
        return done

    started = time.monotonic()
    training = run(
        "training-set",
        {
            "features_job": inputs["features"],
            "labels_job": inputs["labels_job"],
            "cutoff_date": CUTOFF.isoformat(),
            "negative_ratio": RATIO,
        },
    )
    model = run(
        "train-model",
        {"training_set_job": training["id"], "max_iter": 10, "max_depth": 3},
    )
    # The model becomes the cluster's active one, and the score job names none: it scores with
    # the active model (and keeps its id in its params).
    status, promoted = console.call(
        "POST", f"spark/models/{model['id']}/promote", {"reason": "learns the signal"}
    )
    assert status == 200 and promoted["model"]["id"] == model["id"], promoted
    score = run(
        "score",
        # The features through the pipeline row: the script takes its window-features step.
        {"features_job": inputs["pipeline"], "predictions_topic": topic},
    )
    assert score["params"]["model_id"] == model["id"]
    print(f"three jobs in {time.monotonic() - started:.1f} s")
    return {"training": training, "model": model, "score": score}


# --- refusals -----------------------------------------------------------------------------------
def _training(inputs: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {"features_job": inputs["features"], "labels_job": inputs["labels_job"], **params}


def _bad_cutoff(cutoff_date: str, case_id: str) -> Any:
    """A training set of the input jobs whose cut-off date the submit refuses."""
    return pytest.param(
        "training-set",
        lambda inputs, topic: _training(inputs, cutoff_date=cutoff_date),
        "params.cutoff_date",
        id=case_id,
    )


# Each case: the job type, its params from the input job rows (`inputs`) and the predictions
# topic, and the field its 400 names.
BAD_PARAMS = [
    _bad_cutoff("2026-06-01", "training-cutoff-after-the-data"),
    _bad_cutoff("2026-02-01", "training-cutoff-before-the-data"),
    _bad_cutoff("2026-03-05", "training-cutoff-leaves-no-day-to-train"),
    # Inside the data, but the last 7 days' labels are censored: nothing left to test on.
    _bad_cutoff("2026-04-25", "training-cutoff-leaves-no-day-to-test"),
    pytest.param(
        "training-set",
        lambda inputs, topic: _training(inputs, cutoff_date="2026-04-15", negative_ratio=0),
        "params.negative_ratio",
        id="training-zero-negative-ratio",
    ),
    pytest.param(
        "training-set",
        lambda inputs, topic: _training(
            inputs, labels_job=inputs["features"], cutoff_date="2026-04-15"
        ),
        "params.labels_job",
        id="training-labels-job-not-labels",
    ),
    pytest.param(
        "train-model",
        lambda inputs, topic: {"training_set_job": 99999999},
        "params.training_set_job",
        id="model-unknown-training-set",
    ),
    pytest.param(
        "train-model",
        lambda inputs, topic: {"training_set_job": inputs["features"], "algorithm": "svm"},
        "params.algorithm",
        id="model-unknown-algorithm",
    ),
    pytest.param(
        "score",
        lambda inputs, topic: {"model_id": 99999999, "features_job": inputs["features"]},
        "params.model_id",
        id="score-unknown-model",
    ),
    pytest.param(
        "score",
        lambda inputs, topic: {
            "model_id": inputs["labels_job"],
            "features_job": inputs["features"],
        },
        "params.model_id",
        id="score-model-not-a-model",
    ),
    pytest.param(
        "score",
        lambda inputs, topic: {
            "model_id": inputs["pipeline"],
            "features_job": inputs["features"],
            "predictions_topic": f"no-such-{uuid.uuid4().hex[:6]}",
        },
        "params.predictions_topic",
        id="score-unknown-predictions-topic",
    ),
    pytest.param(
        "score",
        lambda inputs, topic: {
            "model_id": inputs["pipeline"],
            "features_job": inputs["features"],
            "predictions_topic": topic,
            "day": "2027-01-01",
        },
        "params.day",
        id="score-day-outside-the-features",
    ),
]


@pytest.mark.parametrize("job_type, params, field", BAD_PARAMS)
def test_bad_params_are_400_naming_the_field_and_queue_nothing(
    console, inputs, topic, job_type, params, field
):
    before = console.job_count()
    filled = params(inputs, topic)
    status, answer = console.call(
        "POST", "spark/jobs", {"job_type": job_type, "cluster": "local", "params": filled}
    )
    assert status == 400, (job_type, filled, answer)
    assert answer["error"]["details"]["field"] == field, (job_type, filled, answer)
    assert console.job_count() == before


def test_training_set_splits_at_the_cutoff_without_leakage_and_keeps_the_ratio(chain, inputs):
    result = chain["training"]["result"]
    train = pq.read_table(result["train_path"]).to_pylist()
    test = pq.read_table(result["test_path"]).to_pylist()
    assert set(train[0]) >= {"equipment_id", "day", "label", *COLUMNS}
    # No training row whose label window reaches the cut-off; no test row before it.
    assert train and all(r["day"] + timedelta(days=HORIZON) < CUTOFF for r in train)
    assert test and all(r["day"] >= CUTOFF for r in test)
    # Every training positive kept, negatives cut to exactly RATIO per positive.
    labels = inputs["labels"]
    expected_pos = {(e, d) for e, d, y in labels if y and d + timedelta(days=HORIZON) < CUTOFF}
    train_pos = {(r["equipment_id"], r["day"]) for r in train if r["label"] == 1}
    train_neg = [r for r in train if r["label"] == 0]
    assert train_pos == expected_pos
    assert len(train_neg) == RATIO * len(train_pos)
    assert len({(r["equipment_id"], r["day"]) for r in train_neg}) == len(train_neg)
    # The test part is left as it is: every labelled day from the cut-off on.
    assert len(test) == sum(1 for _, d, _ in labels if d >= CUTOFF)
    assert (result["train_positives"], result["train_negatives"], result["test_rows"]) == (
        len(train_pos),
        len(train_neg),
        len(test),
    )
    before = result["before"]
    assert before["train_positives"] == len(train_pos)
    assert before["train_negatives"] > len(train_neg)  # the cut did something
    assert before["rows"] == len(labels)


def test_the_model_learns_the_planted_signal_and_is_listed(console, chain):
    model = chain["model"]
    result = model["result"]
    metrics = result["metrics"]
    print("metrics", json.dumps(metrics))
    assert metrics["roc_auc"] >= 0.8, metrics
    assert metrics["pr_auc"] > 0.3, metrics  # the positive rate is ~12 %
    assert 0 < metrics["precision"] <= 1 and 0 < metrics["recall"] <= 1
    assert metrics["test_rows"] == chain["training"]["result"]["test_rows"]
    assert result["model_id"] == model["id"]
    assert result["model_path"].endswith(f"/models/{model['id']}/model")
    assert Path(result["model_path"], "metadata").is_dir()  # an MLlib PipelineModel
    saved = json.loads(Path(result["metrics_path"]).read_text())
    assert saved["metrics"] == metrics
    curve = result["roc_curve"]["rows"]
    assert 2 <= len(curve) <= 101 and curve[-1] == [1.0, 1.0] and curve == sorted(curve)
    importances = dict(result["feature_importances"]["rows"])
    assert set(importances) == set(COLUMNS)
    assert max(importances, key=importances.get) in {
        "max_temperature_7d",
        "count_e101_overheat_7d",
    }

    # The models list, as a viewer: this model with its metrics and curve, newest first.
    (pipeline,) = create_succeeded_jobs(
        console,
        [
            {
                "job_type": "maintenance-pipeline",
                "params": {"model": {"algorithm": "rf"}},
                # A pipeline's model id is its own job id (unknown until the row exists).
                "result": {"train-model": {**result, "model_id": None}},
            }
        ],
    )
    status, models = console.call("GET", "spark/models", role="viewer")
    assert status == 200, models
    by_id = {m["id"]: m for m in models}
    assert [m["id"] for m in models][:2] == [pipeline, model["id"]]
    listed = by_id[model["id"]]
    assert listed["job_id"] == model["id"] and listed["cluster"] == "local"
    assert listed["algorithm"] == "gbt" and listed["path"] == result["model_path"]
    assert listed["params"]["max_iter"] == 10 and listed["params"]["max_depth"] == 3
    assert listed["metrics"] == {k: metrics[k] for k in listed["metrics"]}
    assert set(listed["metrics"]) == {"roc_auc", "pr_auc", "precision", "recall", "threshold"}
    assert listed["roc_curve"] == result["roc_curve"]
    assert by_id[pipeline]["params"] == {"algorithm": "rf"}


def test_score_writes_one_prediction_per_equipment_and_the_api_reads_them(console, chain, topic):
    # (chain: the score job named no model; the active one, just promoted, scored.)
    result = chain["score"]["result"]
    model_id = chain["model"]["id"]
    assert result["predictions"] == EQUIPMENT
    assert (result["day"], result["predictions_topic"]) == (LAST_DAY.isoformat(), topic)
    # Every machine has the 60 days the 7-day windows need.
    assert result["too_little_history"]["equipment"] == 0
    assert result["too_little_history"]["listed"]["rows"] == []
    ends = log_ends(cluster_client(), [(topic, p) for p in range(3)])
    records = read_records(topic, {tp[1]: (0, end) for tp, end in ends.items()})
    assert len(records) == EQUIPMENT
    values = [json.loads(value) for _, _, _, value in records]
    assert {key.decode() for _, _, key, _ in records} == {v["equipment_id"] for v in values}
    assert {v["equipment_id"] for v in values} == {f"eq-{e:04d}" for e in range(EQUIPMENT)}
    assert all(v["model_id"] == model_id and v["day"] == LAST_DAY.isoformat() for v in values)
    assert all(0.0 <= v["failure_probability"] <= 1.0 for v in values)
    assert all(v["scored_at"].endswith("Z") for v in values)
    probability = {v["equipment_id"]: v["failure_probability"] for v in values}
    assert (
        result["top"]["rows"]
        == sorted(([e, p] for e, p in probability.items()), key=lambda r: (-r[1], r[0]))[:10]
    )

    status, listed = console.call(
        "GET", f"spark/predictions?cluster=local&topic={topic}&limit=1000", role="viewer"
    )
    assert status == 200, listed
    assert len(listed) == EQUIPMENT
    assert {p["equipment_id"]: p["failure_probability"] for p in listed} == probability
    assert [p["failure_probability"] for p in listed] == sorted(probability.values(), reverse=True)
    assert all(p["model_id"] == model_id and p["day"] == LAST_DAY.isoformat() for p in listed)
    status, top = console.call(
        "GET", f"spark/predictions?cluster=local&topic={topic}", role="viewer"
    )
    assert status == 200 and top == listed[:20]
    status, answer = console.call(
        "GET", f"spark/predictions?cluster=local&topic=no-such-{uuid.uuid4().hex[:6]}"
    )
    assert status == 404 and answer["error"]["code"] == "topic_not_found", answer


def expected_drivers(features_path: Path, importances: dict[str, float]) -> dict[str, list]:
    """Plain Python over the features the score read: per equipment of the last day, the (at
    most 3) features with importance x (value - fleet mean) / fleet std > 0, largest first
    (a missing value counts as 0.0, as the model saw it)."""
    table = pq.read_table(features_path).to_pylist()
    rows = [r for r in table if r["day"] == LAST_DAY]
    values = {c: [float(r[c] or 0.0) for r in rows] for c in COLUMNS}
    stats = {}
    for c, xs in values.items():
        mean = sum(xs) / len(xs)
        stats[c] = (mean, (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5)
    out = {}
    for i, r in enumerate(rows):
        weights = [
            (importances[c] * (values[c][i] - stats[c][0]) / stats[c][1], c)
            for c in COLUMNS
            if importances.get(c, 0) > 0 and stats[c][1] > 0
        ]
        top = sorted(weights, reverse=True)[:3]
        out[r["equipment_id"]] = [(c, values[c][i], w) for w, c in top if w > 0]
    return out


def test_each_prediction_carries_its_drivers_and_recent_alarms(console, chain, inputs, topic):
    status, models = console.call("GET", "spark/models", role="viewer")
    assert status == 200, models
    (model,) = [m for m in models if m["id"] == chain["model"]["id"]]
    importances = {f["feature"]: f["importance"] for f in model["feature_importances"]}
    expected = expected_drivers(Path(inputs["features_result"]["output_path"]), importances)
    status, listed = console.call(
        "GET", f"spark/predictions?cluster=local&topic={topic}&limit=1000", role="viewer"
    )
    assert status == 200 and len(listed) == EQUIPMENT, listed
    features = pq.read_table(Path(inputs["features_result"]["output_path"])).to_pylist()
    overheat = {
        r["equipment_id"]: r["count_e101_overheat_7d"] for r in features if r["day"] == LAST_DAY
    }
    assert any(p["drivers"] for p in listed)
    for p in listed:
        want = expected[p["equipment_id"]]
        got = [(d["feature"], d["value"], d["weight"]) for d in p["drivers"]]
        assert [g[0] for g in got] == [w[0] for w in want], (p["equipment_id"], got, want)
        for (_, value, weight), (_, want_value, want_weight) in zip(got, want, strict=True):
            assert value == pytest.approx(want_value)
            # The importances the API shows are rounded to 6 digits.
            assert weight == pytest.approx(want_weight, rel=1e-3, abs=1e-5)
        count = overheat[p["equipment_id"]]
        assert p["recent_alarms"] == (
            [{"fault_code": "E101-OVERHEAT", "count": count, "days": 7}] if count else []
        )


def _bins(values: list[float], edges: list[float]) -> list[int]:
    counts = [0] * (len(edges) + 1)
    for value in values:
        counts[bisect.bisect_right(edges, value)] += 1
    return counts


def expected_drift(reference: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, float]:
    """Plain Python: each feature's PSI of these rows against the model's reference, the
    rows' shares smoothed by half a row per bin, the reference's floored at 0.0001."""
    out = {}
    for column, ref in reference["features"].items():
        counts = _bins([float(r[column] or 0.0) for r in rows], ref["edges"])
        total = sum(counts) + 0.5 * len(counts)
        out[column] = sum(
            (a - e) * math.log(a / e)
            for e, a in (
                (max(e, 1e-4), (c + 0.5) / total)
                for e, c in zip(ref["shares"], counts, strict=True)
            )
        )
    return out


def test_drift_is_measured_against_the_test_days_and_flags_only_a_shifted_feature(
    console, chain, inputs
):
    reference = chain["model"]["result"]["drift_reference"]
    features = pq.read_table(Path(inputs["features_result"]["output_path"])).to_pylist()
    # The reference: the test part (labelled days on or after the cut-off), in the model's bins.
    test_days = [r for r in features if CUTOFF <= r["day"] <= LABELLED_UNTIL]
    assert (reference["source"], reference["rows"]) == ("test", len(test_days))
    assert set(reference["features"]) == set(COLUMNS)
    for column, ref in reference["features"].items():
        assert ref["edges"] == sorted(set(ref["edges"])) and len(ref["edges"]) <= 9
        counts = _bins([float(r[column] or 0.0) for r in test_days], ref["edges"])
        assert ref["shares"] == pytest.approx([c / len(test_days) for c in counts], abs=1e-6)
    temperature = reference["features"]["max_temperature_7d"]["shares"]
    assert max(temperature) < 0.2  # a continuous feature: deciles hold about a tenth each

    # The last day, as scored: the same population, so no feature drifted.
    last_day = [r for r in features if r["day"] == LAST_DAY]
    drift = chain["score"]["result"]["drift"]
    want = expected_drift(reference, last_day)
    assert {f["feature"]: f["psi"] for f in drift["features"]} == pytest.approx(want, abs=1e-5)
    assert drift["rows"] == EQUIPMENT and drift["drifted"] == []

    # The same day with the temperature 25 degrees up: that feature, and only it, drifted.
    # And a machine first seen three days before it: its 7-day windows are partly empty, so it
    # is named as having too little history, not scored (nor counted in the drift).
    root = console.workdir / "shifted"
    root.mkdir()
    shifted = [
        {**r, "max_temperature_7d": r["max_temperature_7d"] + 25.0} if r["day"] == LAST_DAY else r
        for r in features
    ] + [
        {**r, "equipment_id": "eq-new", "day": r["day"] + timedelta(days=DAYS - 3)}
        for r in features
        if r["equipment_id"] == "eq-0000" and r["day"] < FIRST_DAY + timedelta(days=3)
    ]
    pq.write_table(pa.Table.from_pylist(shifted), root / "features.parquet")
    shifted_result = {**inputs["features_result"], "output_path": str(root / "features.parquet")}
    (shifted_job,) = create_succeeded_jobs(
        console, [{"job_type": "window-features", "result": shifted_result}]
    )
    topic = f"pm-drift-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(topic, 1, 3, {})])
    job = console.submit(
        "score",
        {"model_id": chain["model"]["id"], "features_job": shifted_job, "predictions_topic": topic},
    )
    done = console.wait(job["id"], {"succeeded", "failed", "cancelled", "lost"}, JOB_TIMEOUT)
    assert done["state"] == "succeeded", (done["error"], done["log_tail"][-3000:])
    assert done["result"]["too_little_history"] == {
        "equipment": 1,
        "longest_window_days": 7,
        "listed": {
            "columns": ["equipment_id", "first_day", "history_days"],
            "rows": [["eq-new", (LAST_DAY - timedelta(days=2)).isoformat(), 3]],
        },
    }
    assert done["result"]["predictions"] == EQUIPMENT
    (end,) = log_ends(cluster_client(), [(topic, 0)]).values()
    keys = {key.decode() for _, _, key, _ in read_records(topic, {0: (0, end)})}
    assert keys == {f"eq-{e:04d}" for e in range(EQUIPMENT)}
    drift = done["result"]["drift"]
    scored = [r for r in shifted if r["day"] == LAST_DAY and r["equipment_id"] != "eq-new"]
    want = expected_drift(reference, scored)
    assert {f["feature"]: f["psi"] for f in drift["features"]} == pytest.approx(want, abs=1e-5)
    assert drift["drifted"] == ["max_temperature_7d"] and drift["rows"] == EQUIPMENT
    assert drift["features"][0]["psi"] > drift["features"][0]["bar"] > 0.25

    # The API: one entry for the day, from its newest scoring (the shifted one).
    model_id = chain["model"]["id"]
    status, answer = console.call("GET", f"spark/models/{model_id}/drift", role="viewer")
    assert status == 200, answer
    assert answer["reference"] == {"part": "test", "rows": len(test_days)}
    assert [(d["day"], d["job_id"]) for d in answer["days"]] == [(LAST_DAY.isoformat(), job["id"])]
    assert answer["days"][0]["drifted"] == ["max_temperature_7d"]


def test_the_worklist_shows_what_happened_since_and_remembers_the_crews_marks(
    console, chain, topic
):
    client = cluster_client()
    suffix = uuid.uuid4().hex[:6]
    alarms, orders = f"pm-alarms-{suffix}", f"pm-orders-{suffix}"
    # Records of a past day: kept whatever their age (the default 7-day retention deletes them).
    dev.create_topics(client, [(alarms, 2, 3, KEEP), (orders, 1, 3, KEEP)])
    # The first millisecond after the scored day (its next UTC midnight).
    after = int(datetime.combine(LAST_DAY + timedelta(days=1), dt_time(), UTC).timestamp() * 1000)
    hour = 3600 * 1000
    producer = dev.make_producer(client)
    for t, value, ts in [
        # eq-0001: a work order, then a failure alarm: the failure shows.
        (
            orders,
            {"equipment_id": "eq-0001", "type": "inspection", "work_order_id": "w1"},
            after + hour,
        ),
        (alarms, {"equipment_id": "eq-0001", "fault_code": "FAILURE"}, after + 5 * hour),
        # eq-0002: only a preventive work order.
        (
            orders,
            {"equipment_id": "eq-0002", "type": "preventive", "work_order_id": "w2"},
            after + 2 * hour,
        ),
        # eq-0003: a failure on the scored day itself: not "since".
        (alarms, {"equipment_id": "eq-0003", "fault_code": "FAILURE"}, after - hour),
        # eq-0004: an alarm that is no failure.
        (alarms, {"equipment_id": "eq-0004", "fault_code": "E101-OVERHEAT"}, after + hour),
    ]:
        producer.produce(
            t, key=value["equipment_id"].encode(), value=json.dumps(value).encode(), timestamp=ts
        )
    producer.flush(30)

    query = f"cluster=local&topic={topic}&alarms_topic={alarms}&work_orders_topic={orders}"
    status, rows = console.call("GET", f"maintenance/worklist?{query}&limit=1000", role="viewer")
    assert status == 200, rows
    assert [r["failure_probability"] for r in rows] == sorted(
        (r["failure_probability"] for r in rows), reverse=True
    )
    by_id = {r["equipment_id"]: r for r in rows}
    assert len(by_id) == EQUIPMENT
    assert (by_id["eq-0001"]["outcome"], by_id["eq-0001"]["outcome_detail"]) == (
        "failure",
        "FAILURE",
    )
    assert by_id["eq-0001"]["outcome_at"].startswith((LAST_DAY + timedelta(days=1)).isoformat())
    assert (by_id["eq-0002"]["outcome"], by_id["eq-0002"]["outcome_detail"]) == (
        "work_order",
        "preventive",
    )
    assert by_id["eq-0003"]["outcome"] is None and by_id["eq-0004"]["outcome"] is None
    assert all(r["status"] == "open" and r["model_id"] == chain["model"]["id"] for r in rows)

    status, row = console.call(
        "POST",
        f"maintenance/worklist/eq-0002?{query}",
        {"status": "acknowledged", "note": "crew booked for Monday"},
    )
    assert status == 200, row
    assert (row["status"], row["note"], row["marked_day"]) == (
        "acknowledged",
        "crew booked for Monday",
        LAST_DAY.isoformat(),
    )
    assert row["outcome"] == "work_order" and row["marked_by"]
    status, top = console.call("GET", f"maintenance/worklist?{query}&limit=1000", role="viewer")
    marked = {r["equipment_id"]: r for r in top}["eq-0002"]
    assert (marked["status"], marked["note"]) == ("acknowledged", "crew booked for Monday")
    status, answer = console.call(
        "POST", f"maintenance/worklist/eq-9999?{query}", {"status": "dismissed"}
    )
    assert status == 404 and answer["error"]["code"] == "equipment_not_found", answer
    status, entries = console.call("GET", "audit?action=maintenance.worklist.mark")
    assert status == 200
    assert [(e["target"], e["outcome"]) for e in entries[:2]] == [
        ("eq-9999", "refused"),
        ("eq-0002", "ok"),
    ], entries[:2]


def expected_performance(
    predictions: dict[tuple[str, date], float],
    failures: set[tuple[str, date]],
    last: date,
    horizon: int,
    threshold: float,
) -> list[dict[str, Any]]:
    """Plain Python: per scored day, the known predictions' precision, recall (at the
    threshold) and ROC AUC (the share of failure / non-failure pairs ranked right, ties half)."""
    out = []
    for day in sorted({d for _, d in predictions}):
        rows = [(e, p) for (e, d), p in predictions.items() if d == day]
        known = day + timedelta(days=horizon) <= last
        labelled = (
            [
                (p, any((e, day + timedelta(days=k)) in failures for k in range(1, horizon + 1)))
                for e, p in rows
            ]
            if known
            else []
        )
        pos = [p for p, failed in labelled if failed]
        neg = [p for p, failed in labelled if not failed]
        flagged = [failed for p, failed in labelled if p >= threshold]
        pairs = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg)
        out.append(
            {
                "day": day.isoformat(),
                "predictions": len(rows),
                "known": len(labelled),
                "pending": len(rows) - len(labelled),
                "failures": len(pos),
                "flagged": len(flagged),
                "precision": round(sum(flagged) / len(flagged), 6) if flagged else None,
                "recall": round(sum(flagged) / len(pos), 6) if pos else None,
                "roc_auc": round(pairs / (len(pos) * len(neg)), 6) if pos and neg else None,
            }
        )
    return out


def test_realised_performance_equals_a_plain_python_computation(console):
    client = cluster_client()
    suffix = uuid.uuid4().hex[:6]
    topics = {
        "predictions_topic": f"pm-perf-predictions-{suffix}",
        "alarms_topic": f"pm-perf-alarms-{suffix}",
        "work_orders_topic": f"pm-perf-orders-{suffix}",
    }
    dev.create_topics(client, [(t, 2, 3, KEEP) for t in topics.values()])
    log_ends(client, [(t, p) for t in topics.values() for p in range(2)])
    (model, other) = create_succeeded_jobs(
        console,
        [
            {
                "job_type": "train-model",
                "result": {"model_id": 0, "model_path": "/m", "metrics": {"threshold": 0.5}},
            },
            {"job_type": "train-model", "result": {"model_id": 0, "model_path": "/o"}},
        ],
    )
    rng = random.Random(3)
    first, horizon, equipment = date(2026, 5, 1), 3, [f"eq-{n}" for n in range(12)]
    last = first + timedelta(days=9)  # the alarms' last day
    predictions = {
        (e, first + timedelta(days=d)): round(rng.random(), 3) for e in equipment for d in range(8)
    }
    failures = {
        (rng.choice(equipment), first + timedelta(days=rng.randint(1, 9))) for _ in range(14)
    }

    def ms(day: date, hour: int) -> int:
        return int(datetime.combine(day, dt_time(hour), UTC).timestamp() * 1000)

    records = []
    for (e, d), p in predictions.items():
        value = {
            "equipment_id": e,
            "day": d.isoformat(),
            "failure_probability": p,
            "model_id": model,
            "scored_at": f"{d + timedelta(days=1)}T01:30:00Z",
        }
        records.append((topics["predictions_topic"], e, value, ms(d, 23)))
    # A day scored twice: the newer scored_at counts; another model's record is not this one's.
    stale = {
        **value,
        "failure_probability": 1 - value["failure_probability"],
        "scored_at": "2000-01-01T00:00:00Z",
    }
    records.append((topics["predictions_topic"], value["equipment_id"], stale, ms(first, 23)))
    records.append(
        (topics["predictions_topic"], "eq-0", {**value, "model_id": other}, ms(first, 23))
    )
    for n, (e, d) in enumerate(sorted(failures)):
        if n % 2:
            records.append(
                (topics["alarms_topic"], e, {"equipment_id": e, "fault_code": "FAILURE"}, ms(d, 6))
            )
        else:
            records.append(
                (topics["work_orders_topic"], e, {"equipment_id": e, "type": "failure"}, ms(d, 6))
            )
    records.append(
        (
            topics["work_orders_topic"],
            "eq-1",
            {"equipment_id": "eq-1", "type": "inspection"},
            ms(first, 9),
        )
    )
    for d in range(10):  # everyday alarms up to the last day: the data's extent
        day = first + timedelta(days=d)
        records.append(
            (
                topics["alarms_topic"],
                "eq-0",
                {"equipment_id": "eq-0", "fault_code": "E1"},
                ms(day, 12),
            )
        )
    producer = dev.make_producer(client)
    for topic, key, value, ts in records:
        producer.produce(topic, key=key.encode(), value=json.dumps(value).encode(), timestamp=ts)
    assert producer.flush(30) == 0

    job = console.submit(
        "model-performance", {"model_id": model, "horizon_days": horizon, **topics}
    )
    done = console.wait(job["id"], {"succeeded", "failed", "cancelled", "lost"}, JOB_TIMEOUT)
    assert done["state"] == "succeeded", (done["error"], done["log_tail"][-3000:])
    result = done["result"]
    assert (result["model_id"], result["horizon_days"], result["last_day"]) == (
        model,
        horizon,
        last.isoformat(),
    )
    want = expected_performance(predictions, failures, last, horizon, 0.5)
    assert result["days"] == want
    assert sum(d["known"] for d in want) and sum(d["pending"] for d in want)
    assert any(d["roc_auc"] is not None for d in want)
    known = [
        (p, any((e, d + timedelta(days=k)) in failures for k in range(1, horizon + 1)))
        for (e, d), p in predictions.items()
        if d + timedelta(days=horizon) <= last
    ]
    rows = result["calibration"]["rows"]
    assert sum(r[2] for r in rows) == len(known)
    for low, high, n, predicted, observed in rows:
        band = [(p, f) for p, f in known if min(int(p * 10), 9) == round(low * 10)]
        assert high == pytest.approx(low + 0.1) and n == len(band)
        assert predicted == pytest.approx(sum(p for p, _ in band) / n, abs=1e-6)
        assert observed == pytest.approx(sum(f for _, f in band) / n, abs=1e-6)

    status, served = console.call("GET", f"spark/models/{model}/performance", role="viewer")
    assert status == 200, served
    assert served["job_id"] == job["id"] and served["days"] == want
    status, none = console.call("GET", f"spark/models/{other}/performance", role="viewer")
    assert status == 200 and none["job_id"] is None and none["days"] == []


# --- the records reader ----------------------------------------------------------------------
def test_latest_values_reads_the_last_n_of_each_partition(stack):
    client = cluster_client()
    name = f"pm-records-{uuid.uuid4().hex[:8]}"
    # Records of 2023: kept only without retention (the dev stack deletes old segments).
    dev.create_topics(client, [(name, 2, 3, {"retention.ms": "-1"})])
    log_ends(client, [(name, p) for p in range(2)])
    producer = dev.make_producer(client, acks="all")
    for i in range(30):
        producer.produce(name, key=f"k{i}".encode(), value=str(i).encode(), partition=i % 2,
                         timestamp=1_700_000_000_000 + i)  # fmt: skip
    assert producer.flush(30) == 0
    got = latest_values(client, name, [0, 1], 4)
    assert sorted(int(v) for _, v, _ in got) == [22, 23, 24, 25, 26, 27, 28, 29]
    assert all(ts == 1_700_000_000_000 + int(v) for _, v, ts in got)
    assert len(latest_values(client, name, [0, 1], 1000)) == 30
    assert latest_values(client, name, [0], 0) == []


def test_has_record_before_tells_from_offsets_or_by_reading(stack):
    # The pipeline's submit check: "is any event old enough to train on?"
    client = cluster_client()
    day = 86_400_000
    now = 1_700_000_000_000

    def topic(*partitions: list[int]) -> str:
        name = f"pm-older-{uuid.uuid4().hex[:8]}"
        # Records of 2023: without retention.ms -1 the dev stack's 7-day retention (checked
        # every 5 s) deletes them while the test runs, and reading finds none.
        dev.create_topics(client, [(name, len(partitions), 3, {"retention.ms": "-1"})])
        # Its leaders answer before any offset is asked (an empty topic has no writes that
        # would wait for them; ListOffsets was refused UNKNOWN_TOPIC_OR_PART once in CI).
        log_ends(client, [(name, p) for p in range(len(partitions))])
        producer = dev.make_producer(client, acks="all")
        for p, stamps in enumerate(partitions):
            for ts in stamps:
                producer.produce(name, value=b"x", partition=p, timestamp=ts)
        assert producer.flush(30) == 0
        return name

    # Old records after newer ones (a backfill after live traffic): only reading tells.
    appended = topic([now, now - 10 * day, now - 9 * day], [now])
    assert has_record_before(client, appended, [0, 1], now - 5 * day, 10.0) is True
    assert has_record_before(client, appended, [0, 1], now - 20 * day, 10.0) is False
    # In time order: ListOffsets by timestamp tells (its first recent offset is past the start).
    ordered = topic([now - 10 * day, now])
    assert has_record_before(client, ordered, [0], now - 5 * day, 0.0) is True
    # Only older records: no offset that recent at all.
    assert has_record_before(client, topic([now - 10 * day]), [0], now, 0.0) is True
    # Nothing to read, or no time to read it.
    assert has_record_before(client, topic([]), [0], now, 0.0) is False
    assert has_record_before(client, appended, [0, 1], now - 20 * day, 0.0) is None


@pytest.mark.django_db
def test_predictions_of_an_unreachable_cluster_are_504(viewer_client, settings):
    dead = parse_registry([{"name": "dead", "bootstrap_servers": "127.0.0.1:1"}], {})
    settings.KAFKA_CLUSTERS = {**settings.KAFKA_CLUSTERS, **dead}
    settings.KAFKA_TIMEOUT_SECONDS = 2
    assert_error(viewer_client.get("/api/v1/spark/predictions?cluster=dead"), 504, "kafka_timeout")
