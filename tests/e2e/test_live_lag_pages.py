"""Live lag in real Chromium: the group page changes by push while a producer writes, and says
so when live updates pause (Redis stopped) and resume by themselves."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from console.kafka import dev
from devtools.devstack import redis_server
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, commit_and_wait, produce_written_at, wait_for
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
    # The test before this one restarts brokers: the group's coordinator may still be loading
    # its offsets partition (the page would open on a 502 "Coordinator load in progress"), and
    # a group without members yet is ERR, not the WARN this test waits for.
    wait_for(lambda: _consuming(group), timeout=90, what=f"{group} to be Stable with a member")
    yield group
    producer.stopped.set()
    consumer.stopped.set()


def _consuming(group: str) -> bool:
    from console.kafka.errors import KafkaAdapterError

    try:
        described = cluster_client().describe_groups([group])[group]
    except KafkaAdapterError:
        return False
    return described.state == "Stable" and bool(described.members)


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


def test_group_page_says_why_unread_records_are_close_to_deletion(page):
    """A group whose oldest unread record is 55 minutes old under a 1-hour retention: the page
    raises the risk and says why, in the notice and on the badges, from the sampler's pass."""
    client = cluster_client()
    topic = f"e2e-risk-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-group"
    dev.create_topics(client, [(topic, 1, 3, {"retention.ms": str(3600_000)})])
    produce_written_at(client, topic, 20, int(time.time() * 1000) - 3300_000)
    commit_and_wait(client, group, {(topic, 0): 0})
    login(page)
    page.goto(f"/clusters/local/groups/{group}")
    notice = page.locator("[data-testid=group-retention-risk]")
    expect(notice).to_have_attribute("data-risk", "near", timeout=30_000)
    reasons = page.locator("[data-testid=group-retention-reasons-near]")
    expect(reasons).to_contain_text(f"{topic}-0: unread records can be deleted in ")
    expect(reasons).to_contain_text("retention.ms is 1 h and the oldest unread record is 55 m old")
    expect(notice).not_to_contain_text("oldest part of the retained log")  # the old rule's words
    badge = page.locator(f"[data-testid=group-topic-risk-{topic}]")
    expect(badge).to_have_attribute("title", re.compile(r"retention\.ms is 1 h"))
    screenshot(page, "group-retention-near")
