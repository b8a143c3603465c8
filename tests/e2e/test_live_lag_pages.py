"""Live lag in real Chromium: the group page changes by push while a producer writes, and says
so when live updates pause (Redis stopped) and resume by themselves."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from devtools.devstack import redis_server
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client
from tests.traffic import PARTITIONS, Consumer, Producer

pytestmark = pytest.mark.e2e


@pytest.fixture
def lagging_group():
    topic = f"e2e-live-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-group"
    dev.create_topics(cluster_client(), [(topic, PARTITIONS, 3, {})])
    producer, consumer = Producer(topic, rate=40), Consumer(topic, group)
    consumer.rate = 10  # slower than the producer: the lag grows
    producer.start()
    consumer.start()
    yield group
    producer.stopped.set()
    consumer.stopped.set()


def test_group_page_changes_by_push_and_pauses_without_redis(page, lagging_group):
    loads: list[str] = []  # full document loads (a reload); history updates do not count
    login(page)
    page.goto(f"/clusters/local/groups/{lagging_group}")
    page.on("load", lambda loaded: loads.append(loaded.url))
    expect(page.locator("[data-testid=live-indicator]")).to_have_attribute(
        "data-status", "live", timeout=30_000
    )
    total = page.locator("[data-testid=group-total-lag]")
    expect(total).not_to_have_text("", timeout=20_000)
    first = total.inner_text()
    expect(total).not_to_have_text(first, timeout=20_000)  # a later sample, pushed
    expect(page.locator("[data-testid=group-status]")).to_contain_text("WARN", timeout=60_000)
    expect(page.locator("[data-testid=group-lag-seconds]")).not_to_have_text("—")
    chart_last = page.locator("[data-testid=lag-history-last]")
    expect(chart_last).to_be_visible(timeout=20_000)
    before = chart_last.inner_text()
    expect(chart_last).not_to_have_text(before, timeout=20_000)  # the chart moves too
    expect(page.locator("[data-testid=partition-lag-history]")).to_be_visible()
    assert loads == [], loads  # no reload: all of it came over the socket
    screenshot(page, "group-live-lag")

    redis_server.stop()
    try:
        expect(page.locator("[data-testid=live-banner]")).to_be_visible(timeout=30_000)
        screenshot(page, "group-live-paused")
    finally:
        redis_server.ensure_running(log=lambda *_: None)
    expect(page.locator("[data-testid=live-banner]")).to_be_hidden(timeout=60_000)
    expect(page.locator("[data-testid=live-indicator]")).to_have_attribute(
        "data-status", "live", timeout=30_000
    )
    resumed = total.inner_text()
    expect(total).not_to_have_text(resumed, timeout=20_000)
    assert loads == [], loads
