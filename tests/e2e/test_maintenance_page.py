"""The predictive-maintenance page in real Chromium against a real Celery worker running Spark
(local[2]): the whole pipeline is run from the page's form over a small backfill
(devtools/demo/maintenance_history.py), its steps are followed live until all five succeeded,
and then the page shows the new model (its AUC and ROC curve) and the top-risk equipment its
score step wrote."""

from __future__ import annotations

import re
import time
import uuid
from datetime import UTC, date, datetime

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client

pytestmark = pytest.mark.e2e

EQUIPMENT, DAYS = 12, 60  # a small backfill: a few minutes of Spark on local[2] at most
ALARM_PARTITIONS = 6
# GET spark/predictions reads this topic (the score step's default): the top-risk table shows
# what this run wrote there.
PREDICTIONS_TOPIC = "equipment-failure-predictions"
STEPS = PIPELINE_STEPS
ENDED = ("succeeded", "failed", "cancelled", "lost")


def _days_of(topic: str) -> list[date]:
    """The UTC days of every record of a topic (the backfill's record time is the event time)."""
    records = dev.read_topic(cluster_client(), topic)
    return sorted(
        {
            datetime.fromtimestamp(r.timestamp_ms / 1000, UTC).date()
            for r in records
            if r.timestamp_ms
        }
    )


@pytest.fixture(scope="module")
def history(stack) -> dict:
    """P1's backfill into fresh alarm and work-order topics (the predictions go to the topic
    the page reads). The one place here that knows the backfill's signature."""
    from console.clusters import get_cluster
    from devtools.demo import maintenance_history

    client = cluster_client()
    suffix = uuid.uuid4().hex[:8]
    topics = {"alarms": f"e2e-pm-alarms-{suffix}", "work_orders": f"e2e-pm-work-orders-{suffix}"}
    dev.create_topics(client, [(topics["alarms"], ALARM_PARTITIONS, 3, {})])
    if client.topic_metadata(PREDICTIONS_TOPIC) == []:
        dev.create_topics(client, [(PREDICTIONS_TOPIC, 3, 3, {})])
    maintenance_history.backfill(
        get_cluster("local"),
        alarms_topic=topics["alarms"],
        work_orders_topic=topics["work_orders"],
        predictions_topic=PREDICTIONS_TOPIC,
        equipment=EQUIPMENT,
        days=DAYS,
        seed=11,
    )
    days = _days_of(topics["alarms"])
    first, last = days[0], days[-1]
    # Train on the first two thirds, test on the rest (the cut-off must fall inside the data).
    return {**topics, "cutoff": (first + (last - first) * 2 // 3).isoformat()}


def _steps(page) -> dict[str, str]:
    return {
        name: page.locator(f"[data-testid=pm-step-{name}]").get_attribute("data-state") or ""
        for name in STEPS
    }


def test_run_the_pipeline_from_the_page_and_see_model_and_top_risk(page, spark_worker, history):
    # No bar animation: a screenshot shows the bar at the value its label says.
    page.emulate_media(reduced_motion="reduce")
    login(page)
    page.goto("/")
    page.get_by_role("link", name="Predictive maintenance").click()
    expect(page.locator("[data-testid=maintenance-page]")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/maintenance$"))

    # A fresh console: no run yet, so the form is open.
    expect(page.locator("[data-testid=pm-no-run]")).to_be_visible()
    form = page.locator("[data-testid=spark-form-maintenance-pipeline]")
    expect(form).to_be_visible()
    expect(page.locator("[data-testid=spark-cluster]")).to_have_value("local")
    # Defaults come from the job type's schema; the step groups are titled.
    expect(form).to_contain_text("3 · Training set")
    expect(page.locator("#root_labels_horizon_days")).to_have_value("7")
    page.fill("#root_features_alarms_topic", history["alarms"])
    page.fill("#root_labels_alarms_topic", history["alarms"])
    page.fill("#root_labels_work_orders_topic", history["work_orders"])
    page.fill("#root_training_cutoff_date", history["cutoff"])
    page.click("[data-testid=spark-submit]")

    run = page.locator("[data-testid=pm-run]")
    expect(run).to_be_visible()
    job_id = int(run.get_attribute("data-job-id") or 0)
    assert job_id > 0
    expect(page.locator("[data-testid=pm-run-form]")).not_to_have_attribute("open", "")
    expect(page.locator("[data-testid=pm-run-link]")).to_have_attribute(
        "href", f"/spark/jobs/{job_id}"
    )
    # Every step is listed from the start.
    for name in STEPS:
        expect(page.locator(f"[data-testid=pm-step-{name}]")).to_be_visible()

    # Follow it live: a step running while a later one waits, with progress between 0 and 1.
    bar = page.locator("[data-testid=pm-run-progress]")
    seen: list[tuple[str, float, tuple[str, ...]]] = []
    shot = False
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        state = run.get_attribute("data-state") or ""
        progress = float(bar.get_attribute("data-progress") or 0)
        steps = tuple(_steps(page).values())
        if not seen or seen[-1] != (state, progress, steps):
            seen.append((state, progress, steps))
        if not shot and "running" in steps and steps[-1] == "pending" and 0 < progress < 1:
            expect(page.locator("[data-testid=live-indicator]")).to_have_attribute(
                "data-status", "live"
            )
            screenshot(page, "maintenance-running")
            shot = True
        if state in ENDED:
            break
        time.sleep(0.5)
    else:
        raise AssertionError(f"the pipeline did not end in 900 s; saw {seen[-5:]}")
    assert state == "succeeded", (state, _steps(page), seen[-3:])
    assert shot, f"never saw a step running with progress between 0 and 1: {seen}"
    progress_seen = [p for _, p, _ in seen]
    assert progress_seen == sorted(progress_seen), "progress never goes back"

    assert _steps(page) == {name: "succeeded" for name in STEPS}
    expect(bar).to_contain_text("100 %")
    expect(page.locator("[data-testid=pm-step-summary-failure-labels]")).to_contain_text("positive")
    expect(page.locator("[data-testid=pm-step-summary-train-model]")).to_contain_text(
        re.compile(r"ROC AUC [01]\.\d{3}")
    )
    expect(page.locator("[data-testid=pm-step-summary-score]")).to_contain_text(
        f"{EQUIPMENT} predictions"
    )

    # The run's model, refreshed in when the run succeeded: the newest, chosen, with its AUC.
    model = page.locator(f"[data-testid=pm-model-{job_id}]")
    expect(model).to_be_visible(timeout=30_000)
    expect(model).to_have_attribute("data-selected", "true")
    expect(page.locator(f"[data-testid=pm-model-auc-{job_id}]")).to_have_text(
        re.compile(r"^[01]\.\d{3}$")
    )
    roc = page.locator("[data-testid=pm-roc]")
    expect(roc).to_have_attribute("data-model", str(job_id))
    expect(page.locator("[data-testid=pm-roc-title]")).to_contain_text(
        re.compile(rf"model #{job_id} · AUC [01]\.\d{{3}}")
    )
    assert int(roc.get_attribute("data-points") or 0) >= 2
    expect(roc.locator(".recharts-line-curve")).to_be_visible()
    expect(roc.locator(".recharts-reference-line")).to_have_count(1)

    # Top-risk equipment: what the score step just wrote, highest probability first.
    table = page.locator("[data-testid=pm-predictions]")
    expect(table).to_be_visible(timeout=30_000)
    rows = table.locator("tbody tr")
    assert rows.count() > 0
    expect(table.get_by_role("link", name=f"#{job_id}").first).to_be_visible()
    percents = [
        float(t.replace("%", "").strip()) for t in table.locator(".pm-prob-label").all_inner_texts()
    ]
    assert percents == sorted(percents, reverse=True), percents
    assert all(0 <= p <= 100 for p in percents), percents
    screenshot(page, "maintenance-done")
