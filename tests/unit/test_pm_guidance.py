"""What the predictive-maintenance API tells a user who cannot go on: a missing input topic's
400 names the demo backfill (the SPA names the same command before a first run), and a model
no better than chance says so (`service.model_quality`, the one place of that rule)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from console.errors import BadInput
from console.metadata import ClusterSnapshot
from devtools.demo import maintenance_history
from maintenance import service
from maintenance.types_features import (
    BACKFILL_COMMAND,
    DEFAULT_ALARMS_TOPIC,
    DEFAULT_WORK_ORDERS_TOPIC,
    WINDOW_FEATURES,
)
from maintenance.types_pipeline import PIPELINE_JOB_TYPES
from sparkjobs.job_types import validate_params
from tests.snapshots import topics_snapshot

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = PIPELINE_JOB_TYPES[0]


def _refusal(job_type, snap: ClusterSnapshot, params: dict) -> BadInput:
    filled = validate_params(job_type, params)
    with pytest.raises(BadInput) as excinfo:
        for check in job_type.checks:
            check(snap, filled)
    return excinfo.value


# --- a missing input topic names the backfill ---------------------------------------------
CUTOFF = {"training": {"cutoff_date": "2026-03-01"}}
COMMAND = ".venv/bin/python manage.py demotraffic --backfill"


@pytest.mark.parametrize(
    ("params", "present", "field", "command"),
    [
        # A fresh cluster: the default topics are missing; the plain command writes both.
        (CUTOFF, ("equipment-failure-predictions",), "params.features.alarms_topic", COMMAND),
        (
            {**CUTOFF, "labels": {"work_orders_topic": "wo-2"}},
            ("equipment-alarms", "equipment-failure-predictions"),
            "params.labels.work_orders_topic",
            f"{COMMAND} --work-orders-topic wo-2",
        ),
        (
            {
                **CUTOFF,
                "features": {"alarms_topic": "al-2"},
                "labels": {"alarms_topic": "al-2", "work_orders_topic": "wo-2"},
            },
            ("equipment-failure-predictions", "wo-2"),
            "params.features.alarms_topic",
            f"{COMMAND} --alarms-topic al-2 --work-orders-topic wo-2",
        ),
    ],
)
def test_a_missing_input_topic_names_the_backfill_command(params, present, field, command):
    error = _refusal(PIPELINE, topics_snapshot(*present), params)
    assert error.details == {"field": field}
    topic = error.message.split("'")[1]
    assert error.message == (
        f"{field}: topic {topic!r} does not exist. To try the pipeline on demo data, write "
        f"the demo maintenance history with: {command} (add --cluster NAME for another "
        "cluster than local)."
    )


def test_a_missing_predictions_topic_or_single_jobs_topic():
    snap = topics_snapshot("equipment-alarms", "work-orders")
    error = _refusal(PIPELINE, snap, CUTOFF)
    # The score step's output topic is no input: the backfill is not what it needs.
    assert error.message == (
        "params.score.predictions_topic: topic 'equipment-failure-predictions' does not exist."
    )
    # The single feature job reads the same alarms topic: the same hint.
    error = _refusal(WINDOW_FEATURES, topics_snapshot(), {})
    assert error.details == {"field": "params.alarms_topic"}
    assert f"with: {COMMAND} (add" in error.message


def test_the_backfill_command_is_the_dev_tools_and_the_spas():
    """maintenance never imports devtools: its defaults and command are checked here, as is
    the SPA's copy of the command (it names it before any submit)."""
    assert BACKFILL_COMMAND == COMMAND
    assert DEFAULT_ALARMS_TOPIC == maintenance_history.ALARMS_TOPIC
    assert DEFAULT_WORK_ORDERS_TOPIC == maintenance_history.WORK_ORDERS_TOPIC
    command = (ROOT / "devtools/management/commands/demotraffic.py").read_text()
    assert '"--backfill"' in command and '"--alarms-topic"' in command
    assert '"--work-orders-topic"' in command and '"--cluster"' in command
    ts = (ROOT / "frontend/src/lib/maintenance.ts").read_text()
    found = re.search(r'BACKFILL_COMMAND = "([^"]*)"', ts)
    assert found is not None and found[1] == BACKFILL_COMMAND


# --- a model no better than chance -------------------------------------------------------
@pytest.mark.parametrize(
    ("metrics", "quality", "reason"),
    [
        ({"roc_auc": 0.87, "recall": 0.64}, "usable", None),
        ({"roc_auc": 0.6, "recall": 0.05}, "usable", None),  # the bounds themselves pass
        (
            {"roc_auc": 0.5512, "recall": 0.9},
            "chance",
            "ROC AUC 0.551 is below 0.6: no better than chance",
        ),
        (
            {"roc_auc": 0.91, "recall": 0.0},
            "chance",
            "recall 0.000 is below 0.05: at its threshold it finds almost no failure",
        ),
        ({"roc_auc": None, "recall": 0.5}, "unmeasured", "no ROC AUC or recall"),
        ({"roc_auc": 0.8, "recall": float("nan")}, "unmeasured", "no ROC AUC or recall"),
        ({"roc_auc": True, "recall": 0.5}, "unmeasured", "no ROC AUC or recall"),
        ({}, "unmeasured", "no ROC AUC or recall"),
    ],
)
def test_model_quality(metrics, quality, reason):
    got, why = service.model_quality(metrics)
    assert got == quality
    if reason is None or quality == "chance":
        assert why == reason
    else:
        assert reason in (why or "")


def test_a_models_entry_carries_its_quality():
    trained = {
        "model_id": 4,
        "model_path": "/out/models/4",
        "metrics": {"roc_auc": 0.52, "pr_auc": 0.1, "precision": 0.1, "recall": 0.3},
    }
    entry = service.model_entry(4, "train-model", "local", None, {}, trained)  # type: ignore[arg-type]
    assert entry is not None
    assert entry["quality"] == "chance"
    assert entry["quality_reason"] == "ROC AUC 0.520 is below 0.6: no better than chance"
