"""Topic pages in real Chromium: the leadership map follows a broker failure without reload."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.stack import devstack

pytestmark = pytest.mark.e2e

TOPIC = "my-failsafe-topic"


def _states(page, broker: int) -> list[str]:
    return page.eval_on_selector_all(
        f"[data-testid^=lm-cell-][data-testid$='-{broker}']",
        "cells => cells.map(c => c.dataset.state)",
    )


def test_leadership_map_follows_a_broker_going_down(page, demo_topics):
    login(page)
    page.goto(f"/clusters/local/topics/{TOPIC}")
    page.wait_for_selector("[data-testid=leadership-map]")
    # Locator assertions, not string expressions: the page's CSP forbids eval.
    expect(page.locator("[data-testid^=lm-cell-][data-state=leader]")).to_have_count(13)
    victim = 3
    assert "offline" not in _states(page, victim)
    screenshot(page, "leadership-map-before")

    devstack("stop-broker", str(victim))
    try:
        # The page polls: within seconds broker 3 leads nothing and its replicas are offline.
        page.wait_for_function(
            f"""() => {{
                const cells = [...document.querySelectorAll("[data-testid$='-{victim}']")]
                    .filter(c => c.dataset.testid.startsWith('lm-cell-'));
                const held = cells.filter(c => c.dataset.state !== 'none');
                return held.length > 0 && held.every(c => c.dataset.state === 'offline');
            }}""",
            timeout=30_000,
        )
        assert "leader" not in _states(page, victim)
        screenshot(page, "leadership-map-broker-down")
    finally:
        devstack("start-broker", str(victim))
    page.wait_for_function(
        f"""() => [...document.querySelectorAll("[data-testid$='-{victim}']")]
            .filter(c => c.dataset.testid.startsWith('lm-cell-'))
            .every(c => c.dataset.state !== 'offline' && c.dataset.state !== 'out_of_sync')""",
        timeout=90_000,
    )
    screenshot(page, "leadership-map-after")


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
