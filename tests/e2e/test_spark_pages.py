"""Spark job pages in real Chromium against a real Celery worker running Spark (local[2]): a job
submitted from the form shows its progress move and its result as tables; another is cancelled
from its page. The form's fields come from the job type's JSON Schema; a bad param is refused by
the server and shown next to its field."""

from __future__ import annotations

import json
import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, log_ends, wait_for

pytestmark = pytest.mark.e2e

PARTITIONS = 2
PER_PARTITION = 20_000
PROFILED = 5_000  # the profile reads offsets [0, 5000) of each partition
ACTIVE = ("queued", "submitted", "running")
ENDED = ("succeeded", "failed", "cancelled", "lost")


@pytest.fixture(scope="module")
def spark_topic(stack) -> str:
    """A topic with JSON records {"seq": n} (a sequence per partition), every 10th key null and
    every 100th record written twice."""
    client = cluster_client()
    topic = f"e2e-spark-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
    producer = dev.make_producer(client, **{"acks": "all", "linger.ms": 20})
    for partition in range(PARTITIONS):
        written = 0
        seq = 0
        while written < PER_PARTITION:
            key = None if seq % 10 == 3 else f"k{seq % 50}".encode()
            value = json.dumps({"seq": seq, "p": partition}).encode()
            copies = 2 if seq % 100 == 7 else 1
            for _ in range(min(copies, PER_PARTITION - written)):
                producer.produce(topic, key=key, value=value, partition=partition)
                written += 1
            seq += 1
            if written % 5_000 == 0:
                producer.poll(0)
    assert producer.flush(60) == 0
    wait_for(
        lambda: all(
            end == PER_PARTITION
            for end in log_ends(client, [(topic, p) for p in range(PARTITIONS)]).values()
        ),
        timeout=60,
        what="the records to be written",
    )
    return topic


def _job_id(page) -> int:
    page.wait_for_url(re.compile(r"/spark/jobs/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def _watch(page, until: tuple[str, ...], timeout: float, on_moving=None) -> list[tuple[str, float]]:
    """(state, progress) as the job page shows them, sampled every 0.2 s until the state is one
    of `until`; `on_moving()` is called once, at the first sample of a running job between 0
    and 1."""
    state = page.locator("[data-testid=job-state]")
    bar = page.locator("[data-testid=job-progress]")
    seen: list[tuple[str, float]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sample = (
            state.get_attribute("data-state") or "",
            float(bar.get_attribute("data-progress") or 0),
        )
        if not seen or seen[-1] != sample:
            seen.append(sample)
            if on_moving and sample[0] == "running" and 0 < sample[1] < 1:
                on_moving()
                on_moving = None
        if sample[0] in until:
            return seen
        time.sleep(0.2)
    raise AssertionError(f"the job did not reach {until} in {timeout:.0f} s; saw {seen}")


def test_submit_watch_progress_see_result_then_cancel(page, spark_worker, spark_topic):
    # No bar animation: a screenshot shows the bar at the value its label says.
    page.emulate_media(reduced_motion="reduce")
    login(page)
    page.goto("/")
    page.get_by_role("link", name="Spark jobs").click()
    expect(page.locator("[data-testid=spark-jobs-page]")).to_be_visible()
    page.click("[data-testid=new-spark-job]")
    page.click("[data-testid=job-type-topic-profile]")
    form = page.locator("[data-testid=spark-form-topic-profile]")
    expect(form).to_be_visible()
    expect(page.locator("[data-testid=spark-cluster]")).to_have_value("local")

    # A topic that does not exist: the server refuses it, next to the topic field.
    page.fill("[data-testid=param-topic]", f"{spark_topic}-missing")
    page.click("[data-testid=spark-submit]")
    expect(page.locator("[data-testid=field-error-topic]")).to_contain_text("does not exist")
    expect(page.locator("[data-testid=error-banner]")).to_have_count(0)

    page.fill("[data-testid=param-topic]", spark_topic)
    page.fill("#root_end_offset", str(PROFILED))
    page.fill("#root_sequence_field", "seq")
    screenshot(page, "spark-job-form")
    page.click("[data-testid=spark-submit]")

    job_id = _job_id(page)
    expect(page.locator("[data-testid=spark-job-page]")).to_be_visible()
    expect(page.locator("[data-testid=live-indicator]")).to_have_attribute("data-status", "live")
    running = page.locator("[data-testid=job-state][data-state=running]")
    expect(running).to_be_visible(timeout=90_000)
    # Progress moves while it runs: a value above 0 before the job ends.
    seen = _watch(
        page, until=ENDED, timeout=150, on_moving=lambda: screenshot(page, "spark-job-running")
    )
    assert seen[-1][0] == "succeeded", seen
    moving = [p for state, p in seen if state == "running" and 0 < p < 1]
    assert moving, f"no progress between 0 and 1 while running: {seen}"
    expect(page.locator("[data-testid=job-progress]")).to_contain_text("100 %")

    # The result as tables, not JSON.
    expect(page.locator("[data-testid=job-result]")).to_be_visible()
    expect(page.locator("[data-testid=result-fact-records]")).to_have_text(f"{PROFILED * 2:,}")
    partitions = page.locator("[data-testid=result-table-partitions]")
    expect(partitions).to_have_attribute("data-rows", str(PARTITIONS))
    expect(partitions.locator("tbody tr").first.locator("td").nth(1)).to_have_text(f"{PROFILED:,}")
    for table in ("hours", "value_sizes", "duplicates", "sequence", "ranges"):
        expect(page.locator(f"[data-testid=result-table-{table}]")).to_be_visible()
    expect(page.locator("[data-testid=result-fact-duplicate_records]")).not_to_have_text("0")
    # The log tail hides Spark's INFO chatter by default, and says how much it hides.
    log, full = page.locator("[data-testid=job-log]"), page.locator("[data-testid=job-full-log]")
    expect(page.locator("[data-testid=job-log-hidden]")).to_contain_text("INFO")
    expect(log).not_to_contain_text("INFO SparkContext")
    expect(full).to_have_attribute("href", f"/api/v1/spark/jobs/{job_id}/log?level=warn")
    page.select_option("[data-testid=job-log-level]", "all")
    expect(log).to_contain_text("SparkContext")
    expect(full).to_have_attribute("href", f"/api/v1/spark/jobs/{job_id}/log")
    expect(page.locator("[data-testid=job-cancel]")).to_have_count(0)
    screenshot(page, "spark-job-result")

    # A bigger job, cancelled from its page while it runs.
    page.goto("/spark/new?type=topic-export")
    page.fill("[data-testid=param-topic]", spark_topic)
    page.click("[data-testid=spark-submit]")
    export_id = _job_id(page)
    assert export_id != job_id
    expect(page.locator("[data-testid=job-state][data-state=running]")).to_be_visible(
        timeout=90_000
    )
    expect(page.locator("[data-testid=job-app-id]")).to_contain_text("local-")
    page.click("[data-testid=job-cancel]")
    dialog = page.locator("[data-testid=confirm-dialog]")
    expect(dialog).to_contain_text(f"Cancel job #{export_id}?")
    page.click("[data-testid=confirm-button]")
    expect(dialog).to_have_count(0)
    expect(page.locator("[data-testid=job-state]")).to_have_attribute(
        "data-state", "cancelled", timeout=30_000
    )
    expect(page.locator("[data-testid=job-cancel]")).to_have_count(0)
    expect(page.locator("[data-testid=job-finished]")).not_to_have_text("—")
    screenshot(page, "spark-job-cancelled")

    # Both in the list, newest first.
    page.get_by_role("link", name="Spark jobs").first.click()
    rows = page.locator("[data-testid^=job-row-]")
    expect(rows.first).to_have_attribute("data-testid", f"job-row-{export_id}")
    expect(page.locator(f"[data-testid=job-row-{export_id}]")).to_have_attribute(
        "data-state", "cancelled"
    )
    expect(page.locator(f"[data-testid=job-row-{job_id}]")).to_have_attribute(
        "data-state", "succeeded"
    )
    screenshot(page, "spark-jobs-list")
