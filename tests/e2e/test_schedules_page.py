"""The Spark job schedules page in headless Chromium: an operator creates a cron schedule in an
explicit time zone from the job type's own form (a bad cron refused beside its field), sees its
next run, disables it, opens its runs and deletes it."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, log_ends

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def topic(stack) -> str:
    name = f"e2e-sched-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(name, 1, 3, {})])
    log_ends(client, [(name, 0)])
    return name


def test_create_a_cron_schedule_disable_it_and_delete_it(page, topic):
    login(page)
    page.goto("/")
    page.get_by_role("link", name="Schedules").click()
    expect(page.locator("[data-testid=schedules-page]")).to_be_visible()
    expect(page.locator("[data-testid=schedules-table]")).to_be_visible()

    page.click("[data-testid=schedule-new]")
    form = page.locator("[data-testid=schedule-form]")
    expect(form).to_be_visible()
    page.select_option("[data-testid=schedule-job-type]", "topic-profile")
    expect(page.locator("[data-testid=param-topic]")).to_be_visible()
    page.fill("[data-testid=param-topic]", topic)
    page.fill("[data-testid=schedule-timezone]", "Europe/Amsterdam")
    # Six fields: the server's cron check refuses it, beside the cron field.
    page.fill("[data-testid=schedule-cron]", "0 30 4 * * *")
    page.click("[data-testid=schedule-submit]")
    expect(page.locator("[data-testid=field-error-cron]")).to_be_visible()
    page.fill("[data-testid=schedule-cron]", "30 4 * * *")
    page.click("[data-testid=schedule-submit]")
    expect(form).to_have_count(0)

    row = page.locator("[data-testid^=schedule-row-]", has_text=topic)
    if not row.count():  # the params are in the expanded panel: find it by its job type
        row = page.locator("[data-testid^=schedule-row-]", has_text="topic-profile").last
    expect(row).to_have_attribute("data-enabled", "true")
    schedule_id = re.sub(r"\D", "", row.get_attribute("data-testid") or "")
    expect(page.locator(f"[data-testid=schedule-when-{schedule_id}]")).to_contain_text("30 4 * * *")
    expect(page.locator(f"[data-testid=schedule-when-{schedule_id}]")).to_contain_text(
        "Europe/Amsterdam"
    )
    expect(page.locator(f"[data-testid=schedule-next-{schedule_id}]")).to_contain_text("in ")
    screenshot(page, "schedules")

    page.click(f"[data-testid=schedule-toggle-{schedule_id}]")
    expect(page.locator(f"[data-testid=schedule-row-{schedule_id}]")).to_have_attribute(
        "data-enabled", "false"
    )
    # Disabled: no next run.
    expect(page.locator(f"[data-testid=schedule-next-{schedule_id}]")).not_to_contain_text("in ")

    page.click(f"[data-testid=schedule-expand-{schedule_id}]")
    expect(page.locator(f"[data-testid=schedule-params-{schedule_id}]")).to_contain_text(topic)
    expect(page.locator(f"[data-testid=schedule-runs-{schedule_id}]")).to_be_visible()
    screenshot(page, "schedules-runs")

    page.click(f"[data-testid=schedule-delete-{schedule_id}]")
    page.click("[data-testid=confirm-button]")
    expect(page.locator(f"[data-testid=schedule-row-{schedule_id}]")).to_have_count(0)
