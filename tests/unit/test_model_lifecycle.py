"""The active failure model of a cluster: promotion by hand (usable models only, on the
cluster they were trained on), roll-back as promoting an earlier one, the history and the
audit, through the API and without it."""

from __future__ import annotations

from typing import Any

import pytest

from console.errors import Conflict, NotFound
from console.models import AuditEntry
from maintenance import lifecycle
from maintenance.models import ModelPromotion
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db

GOOD = {"roc_auc": 0.93, "pr_auc": 0.7, "precision": 0.6, "recall": 0.75, "threshold": 0.5}
CHANCE = {**GOOD, "roc_auc": 0.52}


def _model(cluster: str = "local", metrics: dict[str, Any] = GOOD, **kwargs: Any) -> int:
    trained = {"model_id": 0, "model_path": "/out/m", "algorithm": "gbt", "metrics": metrics}
    job = SparkJob.objects.create(
        job_type="train-model",
        cluster=cluster,
        state=kwargs.get("state", JobState.SUCCEEDED),
        result=trained,
        params={"algorithm": "gbt"},
    )
    return job.pk


def test_no_model_is_active_before_the_first_promotion():
    _model()
    state = lifecycle.active_model("local")
    assert state["model"] is None and state["history"] == [] and state["reason"] is None
    assert not any(m["active"] for m in lifecycle.list_models(10))


def test_promote_then_roll_back_keeps_every_change_with_who_and_why(django_user_model):
    alice = django_user_model.objects.create_user("alice")
    first, second = _model(), _model()
    state = lifecycle.promote(first, alice, "first usable model")
    assert state["model"]["id"] == first
    assert (state["how"], state["reason"], state["promoted_by"]) == (
        "manual",
        "first usable model",
        "alice",
    )
    lifecycle.promote(second, alice, "better recall")
    flags = {m["id"]: m["active"] for m in lifecycle.list_models(10)}
    assert flags == {first: False, second: True}
    # Roll back: the earlier model again; three changes in the history, newest first.
    state = lifecycle.promote(first, None, "second one floods the crews")
    assert state["model"]["id"] == first and state["promoted_by"] is None
    assert [h["model_id"] for h in state["history"]] == [first, second, first]
    assert [h["reason"] for h in state["history"]][1] == "better recall"


def test_a_model_is_active_only_on_the_cluster_it_was_trained_on():
    here, there = _model("local"), _model("other")
    lifecycle.promote(here, None, "")
    lifecycle.promote(there, None, "")
    assert lifecycle.active_model("local")["model"]["id"] == here
    assert lifecycle.active_model("other")["model"]["id"] == there
    assert lifecycle.active_ids() == {"local": here, "other": there}


def test_an_unusable_a_missing_or_an_already_active_model_is_refused_and_nothing_changes():
    good, chance = _model(), _model(metrics=CHANCE)
    failed = _model(state=JobState.FAILED)
    with pytest.raises(Conflict) as refused:
        lifecycle.promote(chance, None, "")
    assert refused.value.code == "model_not_usable" and "0.520" in refused.value.message
    for missing in (failed, 999_999):
        with pytest.raises(NotFound):
            lifecycle.promote(missing, None, "")
    lifecycle.promote(good, None, "")
    with pytest.raises(Conflict) as again:
        lifecycle.promote(good, None, "")
    assert again.value.code == "already_active"
    assert ModelPromotion.objects.count() == 1


def test_the_api_promotes_as_operator_audited_and_shows_the_active_model(
    operator_client, viewer_client
):
    model = _model()
    answer = operator_client.post(
        f"/api/v1/spark/models/{model}/promote", {"reason": "beats the last"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["model"]["id"] == model and answer.json()["model"]["active"] is True
    entry = AuditEntry.objects.get(action="spark.model.promote")
    assert (entry.outcome, entry.cluster, entry.target) == ("ok", "local", str(model))
    shown = viewer_client.get("/api/v1/spark/models/active?cluster=local").json()
    assert shown["model"]["id"] == model and shown["reason"] == "beats the last"
    assert shown["promoted_by"] == operator_client.user.username
    # Refusals: audited too, nothing changed.
    answer = operator_client.post(f"/api/v1/spark/models/{model}/promote", {}, format="json")
    assert_error(answer, 409, "already_active")
    answer = operator_client.post(
        f"/api/v1/spark/models/{model}/promote", {"reason": 5}, format="json"
    )
    assert assert_error(answer, 400)["details"]["field"] == "reason"
    assert ModelPromotion.objects.count() == 1
    assert list(
        AuditEntry.objects.filter(action="spark.model.promote")
        .order_by("id")
        .values_list("outcome", flat=True)
    ) == ["ok", "refused", "refused"]


def test_a_roll_back_through_the_api_is_audited_with_its_reason_and_kept_in_the_history(
    operator_client, viewer_client
):
    first, second = _model(), _model()
    for model, reason in ((first, "first usable model"), (second, "better recall")):
        answer = operator_client.post(
            f"/api/v1/spark/models/{model}/promote", {"reason": reason}, format="json"
        )
        assert answer.status_code == 200, answer.content
    # Roll back: the earlier model made active again, by hand, with why.
    answer = operator_client.post(
        f"/api/v1/spark/models/{first}/promote",
        {"reason": "the new one floods the crews"},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    shown = viewer_client.get("/api/v1/spark/models/active?cluster=local").json()
    assert shown["model"]["id"] == first and shown["how"] == "manual"
    assert shown["reason"] == "the new one floods the crews"
    assert [h["model_id"] for h in shown["history"]] == [first, second, first]
    entries = list(AuditEntry.objects.filter(action="spark.model.promote").order_by("id"))
    assert [(e.target, e.outcome) for e in entries] == [
        (str(first), "ok"),
        (str(second), "ok"),
        (str(first), "ok"),
    ]
    assert entries[-1].actor == operator_client.user.username
    assert "the new one floods the crews" in str([entries[-1].request, entries[-1].details])


def test_the_active_model_needs_a_known_cluster(viewer_client):
    error = assert_error(viewer_client.get("/api/v1/spark/models/active"), 400)
    assert error["details"]["field"] == "cluster"
    assert_error(viewer_client.get("/api/v1/spark/models/active?cluster=nope"), 404)


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """Submits see the predictions topic; queued job ids are collected, not sent to Celery."""
    from console import kafka
    from console.metadata import ClusterSnapshot, cache
    from sparkjobs import service

    topic = kafka.TopicMeta(
        "equipment-failure-predictions", False, [kafka.PartitionMeta(0, 1, [1], [1])]
    )
    snap = ClusterSnapshot(0.0, kafka.ClusterDescription("c", 1, []), {topic.name: topic})
    monkeypatch.setattr(cache, "snapshot", lambda cfg, max_age=0: snap)
    sent: list[int] = []
    monkeypatch.setattr(service, "enqueue", sent.append)
    return sent


def test_a_score_job_that_names_no_model_scores_with_the_active_one(operator_client, queued):
    features = SparkJob.objects.create(
        job_type="window-features",
        cluster="local",
        state=JobState.SUCCEEDED,
        result={"feature_columns": ["alarms_7d"]},
    ).pk
    body = {"job_type": "score", "cluster": "local", "params": {"features_job": features}}

    def submit() -> Any:
        return operator_client.post("/api/v1/spark/jobs", body, format="json")

    error = assert_error(submit(), 400)
    assert error["details"]["field"] == "params.model_id" and "no active model" in error["message"]
    first, second = _model(), _model()
    lifecycle.promote(first, None, "")
    answer = submit()
    assert answer.status_code == 201, answer.content
    assert answer.json()["params"]["model_id"] == first  # the job keeps the id it used
    lifecycle.promote(second, None, "")
    assert submit().json()["params"]["model_id"] == second
    # A model named by the caller wins over the active one.
    named = {**body, "params": {**body["params"], "model_id": first}}
    answer = operator_client.post("/api/v1/spark/jobs", named, format="json")
    assert answer.json()["params"]["model_id"] == first
    assert SparkJob.objects.filter(job_type="score").count() == 3  # the refused one: not saved


def test_the_first_promotion_creates_the_daily_scoring_once(django_user_model):
    from maintenance import scoring
    from sparkjobs.models import Schedule

    alice = django_user_model.objects.create_user("alice")
    pipeline = SparkJob.objects.create(
        job_type="maintenance-pipeline",
        cluster="local",
        state=JobState.SUCCEEDED,
        params={
            "features": {
                "alarms_topic": "plant-alarms",
                "windows": [3, 7],
                "start_time": "2026-01-01T00:00:00Z",
            },
            "labels": {"alarms_topic": "plant-alarms", "horizon_days": 5},
            "training": {"cutoff_date": "2026-03-01", "negative_ratio": 2, "seed": 1},
            "model": {"algorithm": "rf"},
            "score": {"predictions_topic": "plant-predictions"},
        },
        result={
            "train-model": {"model_id": 0, "model_path": "/m", "algorithm": "gbt", "metrics": GOOD}
        },
    ).pk
    state = lifecycle.promote(pipeline, alice, "first")
    schedule, performance, retrain = Schedule.objects.order_by("id")
    assert (schedule.job_type, schedule.cluster, schedule.cron, schedule.timezone) == (
        "maintenance-score",
        "local",
        scoring.DAILY_CRON,
        "UTC",
    )
    # No model named: each day's slot scores with the model active then; the predictions go
    # where the model's own pipeline wrote them.
    assert schedule.params == {
        "model_id": None,
        "features": {},
        "score": {"predictions_topic": "plant-predictions"},
    }
    assert schedule.enabled and schedule.next_run_at is not None
    assert schedule.created_by == alice
    assert state["scoring_schedule"] == schedule
    # Its realised performance, two hours later, on the same predictions topic.
    assert (performance.job_type, performance.cron, performance.params) == (
        "model-performance",
        scoring.PERFORMANCE_CRON,
        {
            "model_id": None,
            "predictions_topic": "plant-predictions",
            "alarms_topic": None,  # at each slot: the active model's own
            "work_orders_topic": None,
            "horizon_days": None,
        },
    )
    assert state["performance_schedule"] == performance
    # Weekly, a retraining like the pipeline that made the model: its features (not their
    # time range), labels and model params, the cut-off rolled; no champion named (the
    # active model at each slot).
    assert (retrain.job_type, retrain.cron, retrain.created_by) == (
        "maintenance-retrain",
        scoring.RETRAIN_CRON,
        alice,
    )
    assert retrain.params == {
        "champion_id": None,
        "features": {"alarms_topic": "plant-alarms", "windows": [3, 7]},
        "labels": {"alarms_topic": "plant-alarms", "horizon_days": 5},
        "training": {"negative_ratio": 2, "seed": 1, "test_days": 14},
        "model": {"algorithm": "rf"},
        "challenge": {},
    }
    assert state["retrain_schedule"] == retrain

    lifecycle.promote(_model(), alice, "second")  # a later promotion: no second schedule
    assert Schedule.objects.count() == 3
    schedule.delete()  # an operator deleted them: they stay deleted
    performance.delete()
    retrain.delete()
    lifecycle.promote(pipeline, alice, "roll back")
    assert not Schedule.objects.exists()
    state = lifecycle.active_model("local")
    assert state["scoring_schedule"] is None and state["performance_schedule"] is None
    assert state["retrain_schedule"] is None
    lifecycle.promote(_model("other"), None, "another cluster has its own")
    assert set(Schedule.objects.values_list("cluster", flat=True)) == {"other"}
