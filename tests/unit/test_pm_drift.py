"""Feature drift's arithmetic (maintenance/jobs/pm_drift.py): bins, shares, PSI, the summary."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from maintenance import drift as service
from maintenance.jobs import JOBS_DIR
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob
from tests.conftest import assert_error
from tests.unit.conftest import module_from_file

drift = module_from_file(JOBS_DIR / "pm_drift.py")


def test_edges_are_the_distinct_finite_quantiles_ascending():
    assert drift.edges_of([3.0, 1.0, 1.0, float("nan"), 2.0, float("inf")]) == [1.0, 2.0, 3.0]
    assert drift.edges_of([0.0] * 9) == [0.0]  # a feature that is mostly 0: two bins


@pytest.mark.parametrize(
    ("value", "expected"),
    [(-5.0, 0), (1.0, 1), (1.5, 1), (2.0, 2), (9.0, 3)],
    ids=["below-all", "on-the-first", "between", "on-the-second", "above-all"],
)
def test_a_value_on_an_edge_goes_to_the_bin_above_it(value, expected):
    assert drift.bin_of(value, [1.0, 2.0, 3.0]) == expected


def test_shares_of_no_rows_are_zero():
    assert drift.shares([0, 0]) == [0.0, 0.0]
    assert drift.shares([1, 3]) == [0.25, 0.75]


def test_psi_of_a_known_shift():
    # By hand: (0.1 - 0.5) ln(0.1 / 0.5) + (0.9 - 0.5) ln(0.9 / 0.5) = 0.4 ln 5 + 0.4 ln 1.8.
    expected = 0.4 * math.log(5) + 0.4 * math.log(1.8)
    assert drift.psi([0.5, 0.5], [0.1, 0.9]) == pytest.approx(expected)


def test_an_empty_bin_is_rare_not_infinitely_far():
    value = drift.psi([0.5, 0.5], [0.0, 1.0])
    assert math.isfinite(value) and value > drift.DRIFT_THRESHOLD


def test_psi_refuses_shares_of_other_bins():
    with pytest.raises(ValueError, match="2 expected shares against 3"):
        drift.psi([0.5, 0.5], [0.2, 0.3, 0.5])


@given(st.lists(st.integers(min_value=1, max_value=1000), min_size=2, max_size=12))
def test_psi_of_a_population_against_itself_is_zero_and_never_negative(counts):
    same = drift.shares(counts)
    assert drift.psi(same, same) == pytest.approx(0.0, abs=1e-12)
    shifted = drift.shares(list(reversed(counts)))
    assert drift.psi(same, shifted) >= 0.0


def test_the_summary_lists_features_largest_first_and_names_those_over_the_bar():
    half = {"edges": [1.0], "shares": [0.5, 0.5]}
    reference = {"rows": 100_000, "features": {"a": half, "b": half, "c": half}}
    summary = drift.drift_summary(reference, {"a": [50, 50], "b": [5, 95], "c": [40, 60]})
    assert [row["feature"] for row in summary["features"]] == ["b", "c", "a"]
    assert summary["features"][2]["psi"] == 0.0
    # Smoothed by half a row per bin: (5.5, 95.5) / 101 against (0.5, 0.5).
    b = drift.psi([0.5, 0.5], [5.5 / 101, 95.5 / 101])
    assert summary["features"][0]["psi"] == pytest.approx(b, abs=1e-6)
    assert summary["drifted"] == ["b"]
    assert summary["rows"] == 100
    assert {row["bar"] for row in summary["features"]} == {summary["threshold"]}
    assert summary["max_psi"] == summary["features"][0]["psi"] > summary["threshold"]


def test_a_small_fleets_bar_rises_to_what_chance_reaches():
    # A day of 40 machines on ten bins against 320 reference rows: chance alone reaches about
    # 0.78 one day in a thousand, so 0.5 is noise there; on 4,000 machines it is a shift.
    assert drift.chance_bar(10, 40, 320) == pytest.approx(27.877 * (1 / 40 + 1 / 320), rel=0.02)
    edges = [float(i) for i in range(1, 10)]
    reference = {"rows": 320, "features": {"x": {"edges": edges, "shares": [0.1] * 10}}}
    small = [2, 6, 4, 4, 4, 4, 4, 4, 4, 4]  # 40 rows
    large = [n * 100 for n in small]  # the same shares on 4,000
    for counts, bar_above_threshold in ((small, True), (large, False)):
        (row,) = drift.drift_summary(reference, {"x": counts})["features"]
        assert (row["bar"] > drift.DRIFT_THRESHOLD) is bar_above_threshold


@pytest.mark.parametrize(("df", "exact"), [(1, 10.828), (2, 13.816), (9, 27.877), (99, 148.23)])
def test_the_chi_square_bar_is_within_four_percent_and_never_below(df, exact):
    assert exact <= drift.chi2_quantile_999(df) <= exact * 1.04


def test_an_empty_day_bin_is_smoothed_not_floored():
    assert drift.smoothed_shares([0, 4]) == [0.1, 0.9]


def test_a_feature_the_day_lacks_is_left_out():
    reference = {"rows": 10, "features": {"a": {"edges": [1.0], "shares": [0.5, 0.5]}}}
    assert drift.drift_summary(reference, {}) == {
        "threshold": drift.DRIFT_THRESHOLD,
        "rows": 0,
        "features": [],
        "drifted": [],
        "max_psi": None,
    }


# --- GET spark/models/{id}/drift -------------------------------------------------------------
def _drift(day: str, psi: float) -> dict:
    features = [
        {"feature": "max_vibration_7d", "psi": psi, "bar": 0.25},
        {"feature": "count_e1_7d", "psi": 0.01, "bar": 0.25},
    ]
    return {
        "threshold": 0.25,
        "rows": 40,
        "features": features,
        "drifted": ["max_vibration_7d"] if psi > 0.25 else [],
        "max_psi": psi,
    }


def _score(model_id: int, day: str, psi: float | None) -> dict:
    return {
        "model_id": model_id,
        "day": day,
        "scored_at": f"{day}T01:30:00Z",
        "drift": None if psi is None else _drift(day, psi),
    }


def test_the_servers_bar_is_the_score_steps():
    assert service.DRIFT_THRESHOLD == drift.DRIFT_THRESHOLD


def test_each_day_once_from_its_newest_scoring_oldest_day_first():
    jobs = [
        (10, "score", _score(7, "2026-05-02", 0.05)),
        (11, "maintenance-score", {"window-features": {}, "score": _score(7, "2026-05-01", 0.5)}),
        (12, "score", _score(7, "2026-05-02", 0.4)),  # scored again: this one counts
        (13, "score", _score(8, "2026-05-03", 0.9)),  # another model's
        (14, "score", _score(7, "2026-05-04", None)),  # no reference: no drift
        (15, "score", "not a result"),
    ]
    days = service.drift_days(jobs, 7)
    assert [(d["day"], d["job_id"], d["max_psi"]) for d in days] == [
        ("2026-05-01", 11, 0.5),
        ("2026-05-02", 12, 0.4),
    ]
    assert days[0]["drifted"] == ["max_vibration_7d"]


def test_at_most_the_newest_days():
    jobs = [
        (i, "score", _score(7, f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}", 0.1)) for i in range(40)
    ]
    days = service.drift_days(jobs, 7)
    assert len(days) == service.DAYS
    assert days[-1]["job_id"] == 39 and days[0]["job_id"] == 40 - service.DAYS


@pytest.mark.django_db
def test_the_endpoint_serves_the_days_and_the_reference(viewer_client):
    train = {
        "model_id": 0,
        "model_path": "/m",
        "metrics": {"roc_auc": 0.9, "precision": 0.5, "recall": 0.5, "threshold": 0.5},
        "drift_reference": {"bins": 10, "features": {}, "source": "test", "rows": 420},
    }
    model = SparkJob.objects.create(
        job_type="train-model", cluster="local", state=JobState.SUCCEEDED, params={}, result=train
    ).pk
    for day, psi, state in (
        ("2026-05-01", 0.3, JobState.SUCCEEDED),
        ("2026-05-02", 0.1, JobState.FAILED),
    ):
        SparkJob.objects.create(
            job_type="score",
            cluster="local",
            state=state,
            params={"model_id": model},
            result=_score(model, day, psi),
        )
    answer = viewer_client.get(f"/api/v1/spark/models/{model}/drift")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["reference"] == {"part": "test", "rows": 420}
    assert body["threshold"] == 0.25
    assert [d["day"] for d in body["days"]] == ["2026-05-01"]  # a failed job's result is no day
    assert body["days"][0]["features"][0] == {
        "feature": "max_vibration_7d",
        "psi": 0.3,
        "bar": 0.25,
    }
    assert body["days"][0]["rows"] == 40
    assert_error(
        viewer_client.get(f"/api/v1/spark/models/{model + 99}/drift"), 404, "model_not_found"
    )


@pytest.mark.django_db
def test_a_model_trained_without_a_reference_has_none(viewer_client):
    pipeline = SparkJob.objects.create(
        job_type="maintenance-pipeline",
        cluster="local",
        state=JobState.SUCCEEDED,
        params={},
        result={"train-model": {"model_id": 0, "model_path": "/m", "metrics": {}}},
    ).pk
    body = viewer_client.get(f"/api/v1/spark/models/{pipeline}/drift").json()
    assert body == {"model_id": pipeline, "threshold": 0.25, "reference": None, "days": []}


def test_drift_needs_a_role(norole_client, anon_client, db):
    assert norole_client.get("/api/v1/spark/models/1/drift").status_code == 403
    assert anon_client.get("/api/v1/spark/models/1/drift").status_code in (401, 403)
