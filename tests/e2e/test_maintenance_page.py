"""The predictive-maintenance page in real Chromium against a real Celery worker running Spark
(local[2]): before the first run the page says what to do (the backfill command when a topic
is missing, also beside a form field naming a missing topic); then the whole pipeline is run
from the page's form over a small backfill (devtools/demo/maintenance_history.py) into a
predictions topic of its own, its steps are followed live until all five succeeded, and then
the page shows the new model (its AUC, ROC curve and whether it is usable) and the top-risk
equipment its score step wrote, read from that run's topic, with a topic selector."""

from __future__ import annotations

import re
import time
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from maintenance.jobs.pipeline_steps import PIPELINE_STEPS
from tests.e2e.conftest import SCREENSHOTS, api_call, login, screenshot
from tests.stack import cluster_client, wait_for

pytestmark = pytest.mark.e2e

EQUIPMENT, DAYS = 12, 60  # a small backfill: a few minutes of Spark on local[2] at most
ALARM_PARTITIONS = 6
# The score step's default topic: offered by the page's topic selector next to the run's own.
DEFAULT_PREDICTIONS_TOPIC = "equipment-failure-predictions"
BACKFILL = ".venv/bin/python manage.py demotraffic --backfill"
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
    topics = {
        "alarms": f"e2e-pm-alarms-{suffix}",
        "work_orders": f"e2e-pm-work-orders-{suffix}",
        "predictions": f"e2e-pm-predictions-{suffix}",
        "missing": f"e2e-pm-missing-{suffix}",  # never created
    }
    dev.create_topics(client, [(topics["alarms"], ALARM_PARTITIONS, 3, {})])
    if client.topic_metadata(DEFAULT_PREDICTIONS_TOPIC) == []:
        dev.create_topics(client, [(DEFAULT_PREDICTIONS_TOPIC, 3, 3, {})])
    maintenance_history.backfill(
        get_cluster("local"),
        alarms_topic=topics["alarms"],
        work_orders_topic=topics["work_orders"],
        predictions_topic=topics["predictions"],
        equipment=EQUIPMENT,
        days=DAYS,
        seed=11,
    )
    days = _days_of(topics["alarms"])
    first, last = days[0], days[-1]
    # Train on the first two thirds, test on the rest (the cut-off must fall inside the data).
    return {**topics, "cutoff": (first + (last - first) * 2 // 3).isoformat()}


def _shot(locator, name: str) -> None:
    """One part of the page, at full size (the whole page's shot is scaled down to be seen)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    locator.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def _fill_form(page, history: dict, work_orders: str, threshold: str = "0.5") -> None:
    page.fill("#root_features_alarms_topic", history["alarms"])
    page.fill("#root_labels_alarms_topic", history["alarms"])
    page.fill("#root_labels_work_orders_topic", work_orders)
    page.fill("#root_training_cutoff_date", history["cutoff"])
    # Five boosting rounds, not twenty: each round is a few Spark jobs, and five find the
    # planted pattern in this history.
    page.fill("#root_model_max_iter", "5")
    page.fill("#root_model_threshold", threshold)
    page.fill("#root_score_predictions_topic", history["predictions"])


def _steps(page) -> dict[str, str]:
    return {
        name: page.locator(f"[data-testid=pm-step-{name}]").get_attribute("data-state") or ""
        for name in STEPS
    }


def _realised_performance(page, console, history: dict, model_id: int) -> None:
    """The active model scores a day whose outcome is known (ten days before the history's
    end; the pipeline scored only its last day, whose outcome is pending), then an operator
    measures the model from the page: known and pending predictions, precision and recall,
    the charts."""
    token = console.token("e2e-pm-scorer", "operator")
    day = (date.fromisoformat(history["cutoff"]) + timedelta(days=5)).isoformat()
    status, job = api_call(
        console,
        token,
        "POST",
        "spark/jobs",
        {
            "job_type": "maintenance-score",
            "cluster": "local",
            "params": {"score": {"predictions_topic": history["predictions"], "day": day}},
        },
    )
    assert status == 201, job
    assert isinstance(job, dict) and job["params"]["model_id"] == model_id

    def scored() -> dict | None:
        _, answer = api_call(console, token, "GET", f"spark/jobs/{job['id']}")
        return answer if isinstance(answer, dict) and answer["state"] in ENDED else None

    done = wait_for(scored, timeout=600, what="the day's score")
    assert done["state"] == "succeeded", (done["error"], done["log_tail"][-2000:])

    page.click(f"[data-testid=pm-model-select-{model_id}]")
    section = page.locator("[data-testid=pm-performance]")
    expect(section).to_have_attribute("data-job", "")
    page.click("[data-testid=pm-performance-run]")
    expect(section).not_to_have_attribute("data-job", "", timeout=600_000)
    totals = page.locator("[data-testid=pm-performance-totals]")
    # The page shows what the performance job measured: the known day's predictions judged,
    # the pipeline's own last day still pending.
    status, perf = api_call(console, token, "GET", f"spark/models/{model_id}/performance")
    assert status == 200 and isinstance(perf, dict), perf
    known = perf["totals"]
    assert known["known"] > 0 and known["pending"] > 0, known
    expect(totals).to_contain_text(
        f"Known {known['known']} of {known['predictions']} predictions ({known['pending']} pending)"
    )
    if known["recall"] is not None:
        expect(totals).to_contain_text(f"recall {known['recall']:.2f}")
    expect(page.locator("[data-testid=pm-performance-chart]")).to_be_visible()
    expect(page.locator("[data-testid=pm-calibration-chart]")).to_be_visible()
    _shot(section, "maintenance-realised-performance")
    # Drift: the two days this model scored (the pipeline's last, the known one), each against
    # the model's test days (asked again as the measure ends; otherwise polled every minute).
    drift = page.locator("[data-testid=pm-drift]")
    expect(drift).to_have_attribute("data-days", "2", timeout=90_000)
    expect(page.locator("[data-testid=pm-drift-chart]")).to_be_visible()
    expect(page.locator("[data-testid=pm-drift-latest]")).to_be_visible()
    _shot(drift, "maintenance-drift")


def test_run_the_pipeline_from_the_page_and_see_model_and_top_risk(
    page, spark_worker, history, live_console_server
):
    # No bar animation: a screenshot shows the bar at the value its label says.
    page.emulate_media(reduced_motion="reduce")
    login(page)
    page.goto("/")
    page.get_by_role("link", name="Predictive maintenance").click()
    expect(page.locator("[data-testid=maintenance-page]")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/maintenance$"))

    # A fresh console: no run yet, so the form is open and the page says what to do.
    expect(page.locator("[data-testid=pm-no-run]")).to_be_visible()
    guide = page.locator("[data-testid=pm-first-data]")
    expect(guide).to_contain_text(
        "It learns from the alarms topic equipment-alarms and the work-orders topic "
        "work-orders on local."
    )
    # The demo topics may or may not be on the dev stack: the command is named when one is not.
    missing = [
        t for t in ("equipment-alarms", "work-orders") if not cluster_client().topic_metadata(t)
    ]
    if missing:
        verb = "do" if len(missing) > 1 else "does"
        expect(guide).to_contain_text(f"{' and '.join(missing)} {verb} not exist there yet.")
        expect(page.locator("[data-testid=pm-backfill-command]")).to_have_text(BACKFILL)
    else:
        expect(page.locator("[data-testid=pm-topics-ok]")).to_be_visible()
    expect(page.locator("[data-testid=pm-first-run]")).to_contain_text("Cut-off date")
    form = page.locator("[data-testid=spark-form-maintenance-pipeline]")
    expect(form).to_be_visible()
    expect(page.locator("[data-testid=spark-cluster]")).to_have_value("local")
    screenshot(page, "maintenance-first-run")
    _shot(page.locator("[data-testid=pm-first-run]"), "maintenance-first-run-guide")
    # Defaults come from the job type's schema; the step groups are titled.
    expect(form).to_contain_text("3 · Training set")
    expect(page.locator("#root_labels_horizon_days")).to_have_value("7")
    # A work-orders topic that does not exist: refused beside its field, naming the backfill
    # of this topic pair; nothing queued.
    _fill_form(page, history, history["missing"])
    page.click("[data-testid=spark-submit]")
    error = page.locator("[data-testid='field-error-labels.work_orders_topic']")
    expect(error).to_contain_text(f"Topic '{history['missing']}' does not exist.")
    expect(error).to_contain_text(
        f"{BACKFILL} --alarms-topic {history['alarms']} --work-orders-topic {history['missing']}"
    )
    expect(page.locator("[data-testid=pm-run]")).to_have_count(0)
    _shot(error.locator("xpath=ancestor::fieldset[1]"), "maintenance-missing-topic")

    page.fill("#root_labels_work_orders_topic", history["work_orders"])
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

    # The model's quality is the server's verdict. This history carries the planted precursor,
    # so the run's model finds it (AUC and recall above the bars) and carries no warning; the
    # chance verdict is shown by the model trained below.
    auc = page.locator(f"[data-testid=pm-model-auc-{job_id}]").inner_text()
    recall = model.locator("td").nth(6).inner_text()
    assert float(auc) >= 0.6 and float(recall) >= 0.05, (auc, recall)
    expect(page.locator(f"[data-testid=pm-model-quality-{job_id}]")).to_have_count(0)
    expect(page.locator("[data-testid=pm-model-warning]")).to_have_count(0)
    expect(page.locator("[data-testid=pm-step-model-warning]")).to_have_count(0)

    # Top-risk equipment: what the score step just wrote, read from the run's own topic (the
    # run panel names it), highest probability first.
    expect(page.locator("[data-testid=pm-run-topic]")).to_have_text(history["predictions"])
    topic = page.locator("[data-testid=pm-predictions-topic]")
    expect(topic).to_have_value(history["predictions"])
    options = topic.locator("option").all_inner_texts()
    assert options[:2] == [DEFAULT_PREDICTIONS_TOPIC, history["predictions"]], options
    # Another topic: chosen in the URL, and back.
    topic.select_option(DEFAULT_PREDICTIONS_TOPIC)
    expect(page).to_have_url(re.compile(rf"[?&]topic={DEFAULT_PREDICTIONS_TOPIC}(&|$)"))
    topic.select_option(history["predictions"])
    expect(page).to_have_url(re.compile(rf"[?&]topic={history['predictions']}(&|$)"))
    table = page.locator("[data-testid=pm-predictions]")
    expect(table).to_be_visible(timeout=30_000)
    expect(table).to_have_attribute("data-rows", str(EQUIPMENT))
    rows = table.locator("tbody tr")
    assert rows.count() > 0
    expect(table.get_by_role("link", name=f"#{job_id}").first).to_be_visible()
    percents = [
        float(t.replace("%", "").strip()) for t in table.locator(".pm-prob-label").all_inner_texts()
    ]
    assert percents == sorted(percents, reverse=True), percents
    assert all(0 <= p <= 100 for p in percents), percents
    screenshot(page, "maintenance-done")

    # Why the top equipment scored as it did: its drivers, and its recent alarms, which open
    # its own records in the alarms topic the run read (the messages browser, filtered by key).
    top = (rows.first.get_attribute("data-testid") or "").removeprefix("pm-prediction-")
    expect(page.locator(f"[data-testid=pm-drivers-{top}]")).not_to_be_empty()
    page.click(f"[data-testid=pm-alarms-{top}]")
    expect(page).to_have_url(
        re.compile(rf"/clusters/local/topics/{history['alarms']}\?tab=messages")
    )
    expect(page.locator("[data-testid=messages-filter-input]")).to_have_value(f'key == "{top}"')
    keys = page.locator("[data-testid^=message-row-] [data-testid=message-key]")
    expect(keys.first).to_have_text(top, timeout=30_000)
    assert set(keys.all_inner_texts()) == {top}
    screenshot(page, "maintenance-alarms-of-equipment")
    page.go_back()
    expect(table).to_have_attribute("data-rows", str(EQUIPMENT), timeout=30_000)

    # A model no better than chance, by the server's own verdict: the run's training set
    # trained again (a train-model job of its own) with a threshold of 1 finds no failure
    # (recall 0). Flagged on the page, with no "Make active". (How a chance model's predictions
    # are shown is the page's own test: MaintenancePage.test.tsx.)
    token = live_console_server.token("e2e-pm-trainer", "operator")
    status, chance = api_call(
        live_console_server,
        token,
        "POST",
        "spark/jobs",
        {
            "job_type": "train-model",
            "cluster": "local",
            "params": {"training_set_job": job_id, "threshold": 1, "max_iter": 5},
        },
    )
    assert status == 201 and isinstance(chance, dict), chance
    second = int(chance["id"])

    def trained() -> dict | None:
        _, answer = api_call(live_console_server, token, "GET", f"spark/jobs/{second}")
        return answer if isinstance(answer, dict) and answer["state"] in ENDED else None

    done = wait_for(trained, timeout=600, what="the chance model's training")
    assert done["state"] == "succeeded", (done["error"], done["log_tail"][-2000:])
    page.reload()
    badge = page.locator(f"[data-testid=pm-model-quality-{second}]")
    expect(badge).to_have_text("no better than chance: do not use", timeout=30_000)
    expect(page.locator(f"[data-testid=pm-model-quality-{job_id}]")).to_have_count(0)
    expect(page.locator("[data-testid=pm-model-warning]")).to_contain_text(
        f"Model #{second}: no better than chance: do not use. Recall 0.000 is below 0.05"
    )
    screenshot(page, "maintenance-chance-model")
    _shot(page.locator("[data-testid=pm-models-title-section]"), "maintenance-chance-models")

    # The active model: none until someone promotes one (the newest is not used just because it
    # is new). The chance model offers no "Make active"; the first run's model is
    # made active with a reason, and the page says which one is and why.
    summary = page.locator("[data-testid=pm-active-model]")
    expect(summary).to_have_attribute("data-model", "")
    expect(summary).to_contain_text("No active model on local yet")
    expect(page.locator(f"[data-testid=pm-promote-{second}]")).to_have_count(0)
    page.click(f"[data-testid=pm-promote-{job_id}]")
    page.fill("[data-testid=pm-promote-reason]", "finds the planted precursor")
    page.click("[data-testid=pm-promote-confirm]")
    expect(summary).to_have_attribute("data-model", str(job_id))
    expect(summary).to_contain_text(f"Active on local: model {job_id}")
    expect(summary).to_contain_text("finds the planted precursor")
    expect(page.locator(f"[data-testid=pm-model-active-{job_id}]")).to_be_visible()
    expect(page.locator(f"[data-testid=pm-promote-{job_id}]")).to_have_count(0)
    # The first promotion made the cluster's daily scoring and performance schedules, and
    # (the model came from a pipeline) its weekly retraining.
    expect(page.locator("[data-testid=pm-scoring-schedule]")).to_contain_text("30 1 * * * UTC")
    expect(page.locator("[data-testid=pm-performance-schedule]")).to_contain_text("30 3 * * * UTC")
    expect(page.locator("[data-testid=pm-retrain-schedule]")).to_contain_text("30 2 * * 0 UTC")
    _shot(page.locator("[data-testid=pm-models-title-section]"), "maintenance-active-model")
    _realised_performance(page, live_console_server, history, job_id)
