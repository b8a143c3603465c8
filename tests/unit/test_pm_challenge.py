"""Champion / challenger: the rolled cut-off, the promotion rule, the retrain job type's params,
and what happens when a retraining succeeds (lifecycle.settle): promoted automatically when it
beat the active model by the margin, else kept as a candidate with the reason; audited."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from console.errors import BadInput
from console.models import AuditEntry
from maintenance import challenge, lifecycle
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS, RETRAIN_KEYS, RETRAIN_STEPS
from maintenance.jobs.rolling import rolling_cutoff
from maintenance.models import ModelPromotion
from maintenance.types_model import RETRAIN
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.choices import JobState
from sparkjobs.job_types import validate_params
from sparkjobs.models import SparkJob

GOOD = {"roc_auc": 0.93, "pr_auc": 0.7, "precision": 0.6, "recall": 0.75, "threshold": 0.5}


# --- the rolled cut-off -------------------------------------------------------------------------
@pytest.mark.parametrize(("horizon", "test_days"), [(7, 14), (1, 1), (14, 30), (0, 5)])
def test_the_rolled_cutoff_leaves_exactly_the_newest_labelled_days_to_test(horizon, test_days):
    last_day = date(2026, 3, 31)
    cutoff = rolling_cutoff(last_day, horizon, test_days)
    # A day D is labelled when D + horizon is inside the data.
    labelled = [
        last_day - timedelta(days=n)
        for n in range(200)
        if last_day - timedelta(days=n) + timedelta(days=horizon) <= last_day
    ]
    test_part = [d for d in labelled if d >= cutoff]
    assert len(test_part) == test_days
    assert max(test_part) == last_day - timedelta(days=horizon)


# --- the rule -----------------------------------------------------------------------------------
def _measured(challenger: float | None, champion: float | None, champion_id: int | None = 5):
    return {
        "cutoff_date": "2026-03-11",
        "rows": 560,
        "positives": 40,
        "challenger": {"roc_auc": challenger},
        "champion_id": champion_id,
        "champion": None if champion is None else {"roc_auc": champion},
        "champion_unscored": None if champion is not None else "it needs count_x_3d",
    }


@pytest.mark.parametrize(
    ("challenger", "champion", "margin", "promote"),
    [
        (0.95, 0.80, 0.01, True),
        (0.81, 0.80, 0.01, True),  # exactly the margin (not lost to float rounding)
        (0.805, 0.80, 0.01, False),  # better, but not by the margin: noise, or a tie
        (0.80, 0.80, 0.0, True),  # margin 0: a tie is enough
        (0.70, 0.90, 0.01, False),  # worse
    ],
)
def test_a_challenger_is_promoted_only_when_it_beats_the_champion_by_the_margin(
    challenger, champion, margin, promote
):
    decided, reason = challenge.verdict(_measured(challenger, champion), margin, "usable", None)
    assert decided is promote
    assert f"{challenger:.3f}" in reason and f"{champion:.3f}" in reason and "model 5" in reason
    assert reason.startswith("Promoted" if promote else "Kept as a candidate")


def test_an_unusable_challenger_is_never_promoted_even_when_better():
    decided, reason = challenge.verdict(
        _measured(0.58, 0.51), 0.01, "chance", "ROC AUC 0.580 is below 0.6"
    )
    assert not decided and "not usable" in reason and "0.580" in reason


def test_without_an_active_model_a_usable_challenger_is_promoted():
    decided, reason = challenge.verdict(
        _measured(0.9, None, champion_id=None), 0.01, "usable", None
    )
    assert decided and "no active model" in reason


def test_a_champion_that_could_not_be_measured_keeps_the_challenger_a_candidate():
    decided, reason = challenge.verdict(_measured(0.9, None), 0.01, "usable", None)
    assert not decided and "count_x_3d" in reason and "by hand" in reason


# --- the job type -------------------------------------------------------------------------------
def test_the_retrain_job_type_has_the_pipelines_model_steps_then_the_challenge():
    retrain = JOB_TYPES[RETRAIN]
    assert retrain.steps == RETRAIN_STEPS == (*PIPELINE_STEPS[:4], "challenge")
    properties = retrain.params_schema["properties"]
    assert list(properties) == ["champion_id", *(RETRAIN_KEYS[s] for s in RETRAIN_STEPS)]
    training = properties["training"]["properties"]
    assert "cutoff_date" not in training and training["test_days"]["default"] == 14
    assert retrain.result_schema["required"] == list(RETRAIN_STEPS)
    # Each step's object is the pipeline's own (derived from the same job types).
    pipeline = JOB_TYPES["maintenance-pipeline"].params_schema["properties"]
    for key in ("features", "labels", "model"):
        assert properties[key] == pipeline[key]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"training": {"cutoff_date": "2026-03-01"}}, "params.training.cutoff_date"),  # rolled
        ({"training": {"test_days": 0}}, "params.training.test_days"),
        ({"challenge": {"margin": 0.6}}, "params.challenge.margin"),
        ({"challenge": {"margn": 0.1}}, "params.challenge.margn"),
        ({"champion_id": 0}, "params.champion_id"),
    ],
)
def test_bad_retrain_params_name_the_field(params, field):
    with pytest.raises(BadInput) as refused:
        validate_params(JOB_TYPES[RETRAIN], params)
    assert refused.value.field == field, refused.value.message


@pytest.mark.django_db
def test_the_champion_is_the_active_model_at_submit_and_the_defaults_are_filled():
    retrain = JOB_TYPES[RETRAIN]
    params = validate_params(retrain, {})
    for fill in retrain.fills:
        fill("local", params)
    assert params["champion_id"] is None  # no active model yet
    assert params["training"]["test_days"] == 14 and params["challenge"]["margin"] == 0.01
    champion = _job("train-model", GOOD)
    ModelPromotion.objects.create(cluster="local", model_id=champion)
    params = validate_params(retrain, {"challenge": {"margin": 0.05}})
    for fill in retrain.fills:
        fill("local", params)
    assert params["champion_id"] == champion and params["challenge"]["margin"] == 0.05
    validate_params(retrain, params)  # what is saved validates again (a re-run, a schedule)


# --- settle: what a succeeded retraining does -----------------------------------------------------
def _job(job_type: str, metrics: dict[str, Any], **extra: Any) -> int:
    trained = {"model_id": 0, "model_path": "/out/m", "algorithm": "gbt", "metrics": metrics}
    is_retrain = job_type == RETRAIN
    job = SparkJob.objects.create(
        job_type=job_type,
        cluster="local",
        state=JobState.SUCCEEDED,
        result={"train-model": trained, **extra.get("result", {})} if is_retrain else trained,
        params=extra.get("params", {}) if is_retrain else {"algorithm": "gbt"},
    )
    return job.pk


def _retrain(champion_id: int | None, challenger: float, champion: float | None) -> int:
    measured = _measured(challenger, champion, champion_id)
    return _job(
        RETRAIN,
        {**GOOD, "roc_auc": challenger},
        result={"challenge": measured},
        params={"champion_id": champion_id, "challenge": {"margin": 0.01}},
    )


@pytest.mark.django_db
def test_a_better_challenger_becomes_active_and_a_worse_one_stays_a_candidate():
    champion = _job("train-model", GOOD)
    ModelPromotion.objects.create(cluster="local", model_id=champion, reason="by hand")
    better = _retrain(champion, 0.97, 0.90)
    lifecycle.settle(better)
    state = lifecycle.active_model("local")
    assert state["model"]["id"] == better and state["how"] == "auto"
    assert "0.970" in state["reason"] and "0.900" in state["reason"]
    assert state["scoring_schedule"] is not None  # the cluster's first model made them

    worse = _retrain(better, 0.91, 0.97)
    lifecycle.settle(worse)
    assert lifecycle.active_model("local")["model"]["id"] == better
    models = {m["id"]: m for m in lifecycle.list_models(10)}
    assert models[better]["challenge"]["promoted"] is True
    kept = models[worse]["challenge"]
    assert (kept["promoted"], kept["verdict"]) == (False, "keep")
    assert kept["challenger_roc_auc"] == 0.91 and kept["champion_roc_auc"] == 0.97
    assert kept["reason"].startswith("Kept as a candidate")
    assert models[champion]["challenge"] is None  # not a retraining's model
    entries = list(
        AuditEntry.objects.filter(action__startswith="spark.model.").values_list(
            "action", "target", "actor"
        )
    )
    assert sorted(entries) == sorted(
        [
            ("spark.model.promote", str(better), f"retrain job {better}"),
            ("spark.model.challenge", str(worse), f"retrain job {worse}"),
        ]
    )


@pytest.mark.django_db
def test_a_promotion_by_hand_while_it_ran_wins_over_the_retraining():
    champion, chosen = _job("train-model", GOOD), _job("train-model", GOOD)
    ModelPromotion.objects.create(cluster="local", model_id=champion)
    better = _retrain(champion, 0.97, 0.90)
    lifecycle.promote(chosen, None, "an operator's choice")  # while the retraining runs
    lifecycle.settle(better)
    assert lifecycle.active_model("local")["model"]["id"] == chosen
    outcome = lifecycle.get_model(better)["challenge"]
    assert outcome["verdict"] == "promote" and outcome["promoted"] is False
    assert "no longer the active model" in outcome["reason"]
