"""Topic pages in real Chromium: the brokers table and the leadership map follow a broker failure
without reload."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import api_call, api_create_topic, login, screenshot
from tests.live_server import ADMIN
from tests.stack import devstack

pytestmark = [pytest.mark.e2e, pytest.mark.restarts_brokers]

TOPIC = "my-failsafe-topic"
BROKER_ROWS = "[data-testid=brokers-table] [data-testid^=broker-row-]"


def _states(page, broker: int) -> list[str]:
    return page.eval_on_selector_all(
        f"[data-testid^=lm-cell-][data-testid$='-{broker}']",
        "cells => cells.map(c => c.dataset.state)",
    )


def _victim_offline(victim: int) -> str:
    """Broker `victim` leads nothing on the leadership map and its replicas are offline."""
    return f"""() => {{
        const cells = [...document.querySelectorAll("[data-testid$='-{victim}']")]
            .filter(c => c.dataset.testid.startsWith('lm-cell-'));
        const held = cells.filter(c => c.dataset.state !== 'none');
        return held.length > 0 && held.every(c => c.dataset.state === 'offline');
    }}"""


def test_a_broker_going_down_shows_on_the_brokers_page_and_the_leadership_map(page, demo_topics):
    """One broker stop, two pages watching it (a broker's stop and start take ~20 s): the
    cluster's brokers table drops it and elects another controller, the topic's leadership map
    shows its replicas offline; both come back without a reload."""
    login(page)
    page.goto("/clusters/local")
    expect(page.locator(BROKER_ROWS)).to_have_count(3, timeout=30_000)
    assert page.locator("[data-testid=controller-badge]").count() == 1
    controller_row = page.locator(BROKER_ROWS, has=page.locator("[data-testid=controller-badge]"))
    victim = int((controller_row.get_attribute("data-testid") or "").rsplit("-", 1)[1])
    screenshot(page, "brokers")
    topic_page = page.context.new_page()
    topic_page.goto(f"/clusters/local/topics/{TOPIC}")
    topic_page.wait_for_selector("[data-testid=leadership-map]")
    # Locator assertions, not string expressions: the page's CSP forbids eval.
    expect(topic_page.locator("[data-testid^=lm-cell-][data-state=leader]")).to_have_count(13)
    assert "offline" not in _states(topic_page, victim)
    screenshot(topic_page, "leadership-map-before")

    devstack("stop-broker", str(victim))
    try:
        # No reload: both pages poll (or are pushed to) and follow by themselves.
        expect(page.locator(BROKER_ROWS)).to_have_count(2, timeout=60_000)
        assert page.locator(f"[data-testid=broker-row-{victim}]").count() == 0
        page.wait_for_selector("[data-testid=controller-badge]")
        assert page.locator("[data-testid=broker-count]").inner_text().strip().startswith("2")
        screenshot(page, "brokers-one-down")
        topic_page.wait_for_function(_victim_offline(victim), timeout=30_000)
        assert "leader" not in _states(topic_page, victim)
        screenshot(topic_page, "leadership-map-broker-down")
    finally:
        devstack("start-broker", str(victim))
    expect(page.locator(BROKER_ROWS)).to_have_count(3, timeout=90_000)
    topic_page.wait_for_function(
        f"""() => [...document.querySelectorAll("[data-testid$='-{victim}']")]
            .filter(c => c.dataset.testid.startsWith('lm-cell-'))
            .every(c => c.dataset.state !== 'offline' && c.dataset.state !== 'out_of_sync')""",
        timeout=90_000,
    )
    screenshot(topic_page, "leadership-map-after")
    topic_page.close()


def test_topic_list_and_create_form(page, demo_topics):
    login(page)
    page.goto("/clusters/local/topics")
    # The table is virtual: on a cluster with many topics the row exists once it is in view.
    page.fill("[data-testid=topic-search]", "failsafe")
    page.wait_for_selector(f"[data-testid='topic-row-{TOPIC}']")
    page.fill("[data-testid=topic-search]", "truck")
    page.wait_for_selector("[data-testid='topic-row-truck-gps']")
    assert page.locator(f"[data-testid='topic-row-{TOPIC}']").count() == 0
    screenshot(page, "topic-list")

    page.goto("/clusters/local/create-topic")
    page.fill("[data-testid=create-name]", "bad name!")
    page.click("[data-testid=create-submit]")
    error = page.locator("[data-testid=field-error-name]")
    error.wait_for()
    assert "characters" in error.inner_text()
    screenshot(page, "create-topic-error")


def test_rf_below_min_isr_is_an_amber_config_warning_not_red(page, live_console_server, tmp_path):
    """A topic of replication factor 1 with min.insync.replicas=2 can never satisfy its min ISR:
    the pages show it as a configuration warning (amber), not as a red under-min-ISR outage."""
    topic = f"e2e-rf1-min2-{uuid.uuid4().hex[:8]}"
    # The e2e admin's own token: the topic is created through the console's API, audited as it.
    token = live_console_server.token(ADMIN[0], "admin")
    status, created = api_create_topic(
        live_console_server, token, topic, {"min.insync.replicas": "2"}
    )
    assert status == 201, created
    try:
        assert isinstance(created, dict)
        assert created["replication_factor"] == 1 and created["min_insync_replicas"] == 2
        assert created["min_isr_unreachable"] is True
        assert [w["code"] for w in created["config_warnings"]] == ["min_isr_unreachable"]
        message = created["config_warnings"][0]["message"]
        assert message.startswith("replication factor 1 is below min.insync.replicas 2")

        login(page)
        # The topic list, searched down to the new topic (the table is virtual).
        page.goto(f"/clusters/local/topics?search={topic}")
        row = page.locator(f"[data-testid='topic-row-{topic}']")
        row.wait_for()
        badge = row.locator("[data-testid=topic-config-warning]")
        expect(badge).to_have_text("misconfigured: RF < min ISR")
        expect(badge).to_have_class(re.compile(r"\bbadge-warn\b"))
        expect(badge).to_have_attribute("title", message)
        expect(row).to_have_attribute("data-severity", "warn")
        expect(row.locator("[data-testid=topic-warning]")).to_have_class(
            re.compile(r"\bmarker-warn\b")
        )
        expect(row.locator(".marker-error")).to_have_count(0)
        # TopicCommand's under-min-ISR count is kept (1), but amber, not the red critical style.
        under = row.locator("[data-testid=count-under_min_isr]")
        expect(under).to_have_text("1")
        expect(under).to_have_class(re.compile(r"\bcell-warn\b"))
        expect(under).not_to_have_class(re.compile(r"\bcell-error\b"))
        page.screenshot(path=str(tmp_path / "misconfigured-topic-list.png"), full_page=True)

        # The topic page: the warning with its explanation, amber flags, nothing red.
        page.goto(f"/clusters/local/topics/{topic}")
        notice = page.locator("[data-testid=topic-config-warning]")
        expect(notice).to_contain_text("Misconfigured: RF < min ISR")
        expect(notice).to_contain_text(message)
        expect(notice).to_have_class(re.compile(r"\bnotice-warn\b"))
        summary = page.locator("[data-testid=topic-health-under_min_isr]")
        expect(summary).to_have_attribute("data-count", "1")
        expect(summary).to_have_class(re.compile(r"\bsummary-warn\b"))
        expect(summary).not_to_have_class(re.compile(r"\bsummary-bad\b"))
        partition = page.locator("[data-testid=partition-row-0]")
        flag = partition.locator("[data-testid=flag-min_isr_unreachable]")
        expect(flag).to_have_text("misconfigured: RF < min ISR")
        expect(flag).to_have_attribute("data-tone", "warn")
        expect(partition.locator("[data-testid=flag-under_min_isr]")).to_have_count(0)
        expect(page.locator("[data-testid=partitions-table] .badge-error")).to_have_count(0)
        expect(page.locator(".summary-bad")).to_have_count(0)
        page.screenshot(path=str(tmp_path / "misconfigured-topic-page.png"), full_page=True)
        assert (tmp_path / "misconfigured-topic-list.png").stat().st_size > 0
        assert (tmp_path / "misconfigured-topic-page.png").stat().st_size > 0
    finally:
        status, answer = api_call(
            live_console_server, token, "DELETE", f"clusters/local/topics/{topic}"
        )
        assert status == 204, answer
