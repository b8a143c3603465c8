"""Reassignment in real Chromium: an admin moves a topic onto a broker that holds none of it,
with a throttle, from the topic page's link: preview (bytes, time), execute, watch the progress
the worker's watcher pushes, see it complete; kafka-topics.sh then shows the new replicas and
no throttle is left. A broker page's "move replicas off" link presets a drain."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.reassignments import load_topic, replicas, throttles

pytestmark = pytest.mark.e2e


def test_reassign_a_topic_onto_another_broker_with_a_throttle(page, spark_worker):
    topic = load_topic()  # two partitions, 3 MiB each, one replica each
    before = replicas(topic)
    target = min({1, 2, 3} - {r[0] for r in before.values()})
    login(page)
    # From the topic's page: its "Reassign partitions…" link presets the form with it.
    page.goto(f"/clusters/local/topics/{topic}")
    page.click("[data-testid=topic-reassign]")
    page.wait_for_url("**/clusters/local/reassignments?topics=*")
    expect(page.get_by_label(topic, exact=True)).to_be_checked(timeout=20_000)
    page.check(f"[data-testid=reassign-broker-{target}]")
    page.fill("[data-testid=reassign-throttle]", "1")
    page.click("[data-testid=reassign-preview]")
    moves = page.locator("[data-testid=reassign-preview-table] tbody tr")
    expect(moves).to_have_count(2, timeout=20_000)
    expect(page.locator("[data-testid=reassign-total]")).to_contain_text("MiB")
    expect(page.locator("[data-testid=reassign-download-rollback]")).to_be_visible()
    screenshot(page, "reassign-preview")

    page.fill("[data-testid=reassign-reason]", "drain onto a quiet broker")
    page.click("[data-testid=reassign-execute]")
    expect(page.locator("[data-testid=reassign-confirm-summary]")).to_contain_text("2")
    page.click("[data-testid=reassign-confirm]")
    page.wait_for_url("**/clusters/local/reassignments/*")
    progress = page.locator("[data-testid=reassign-progress]")
    expect(progress).to_be_visible(timeout=20_000)
    expect(page.locator(f"[data-testid=reassign-row-{topic}-0]")).to_be_visible()
    screenshot(page, "reassign-progress")
    expect(page.locator("[data-testid=reassign-state]")).to_have_text("completed", timeout=120_000)
    expect(progress).to_have_attribute("aria-valuenow", "100")
    expect(page.locator("[data-testid=reassign-leaders-ok]")).to_be_visible()
    screenshot(page, "reassign-completed")
    assert replicas(topic) == dict.fromkeys(before, [target])
    assert throttles("topics", topic) == {}


def test_drain_a_broker_from_its_page_presets_its_topics_and_the_other_brokers(page):
    topic = load_topic()
    drained = replicas(topic)[0][0]
    login(page)
    page.goto(f"/clusters/local/brokers/{drained}")
    page.click("[data-testid=broker-drain]")
    page.wait_for_url(f"**/clusters/local/reassignments?drain={drained}")
    expect(page.locator("[data-testid=reassign-drain-note]")).to_contain_text(
        f"broker {drained}", timeout=20_000
    )
    page.fill("[data-testid=reassign-topic-filter]", topic)
    expect(page.get_by_label(topic, exact=True)).to_be_checked()
    for broker in {1, 2, 3} - {drained}:
        expect(page.locator(f"[data-testid=reassign-broker-{broker}]")).to_be_checked()
    expect(page.locator(f"[data-testid=reassign-broker-{drained}]")).not_to_be_checked()
    screenshot(page, "reassign-drain")
