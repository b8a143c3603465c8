"""Right after a reset, the group page never shows the lag in time of the offsets the reset
left (the figure of the old committed offset): it shows none until the sampler's next pass,
then the figure of the new one. Real console, its lag sampler (1 s passes) and Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, group_after_old_and_recent_records

pytestmark = pytest.mark.e2e

# Every text the lag-in-time figure takes, recorded in the page from the moment it is armed
# (a React re-render may replace the element: the body is watched, the figure read anew).
_RECORD = """() => {
  const read = () =>
    document.querySelector("[data-testid=group-lag-seconds]")?.getAttribute("data-seconds");
  window.__lagSeconds = [read()];
  new MutationObserver(() => {
    const now = read();
    if (now !== window.__lagSeconds[window.__lagSeconds.length - 1]) window.__lagSeconds.push(now);
  }).observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
}"""


def test_the_lag_in_time_after_a_reset_is_never_the_old_offsets(page):
    client = cluster_client()
    topic, group = group_after_old_and_recent_records(client, "e2e-after-reset")

    login(page)
    page.goto(f"/clusters/local/groups/{group}")
    figure = page.locator("[data-testid=group-lag-seconds]")
    expect(figure).not_to_have_attribute("data-seconds", "", timeout=30_000)  # a pass saw it
    old = float(figure.get_attribute("data-seconds") or "nan")
    assert 50 < old < 600, old  # the minute-old record at offset 15

    page.click("[data-testid=reset-open]")
    page.select_option("[data-testid=strategy-select]", "to_offset")
    page.fill("[data-testid=strategy-offset]", "2")
    page.fill("[data-testid=reset-reason]", "replay from offset 2")
    page.click("[data-testid=reset-preview]")
    page.wait_for_selector(f"[data-testid='plan-row-{topic}-0']")
    page.fill("[data-testid=confirm-group-input]", group)
    page.click("[data-testid=reset-execute]")
    page.wait_for_selector("[data-testid=reset-result]")
    # The page has read the group again once its offsets table shows the new offset; from
    # then on the figure is unknown until a pass, then the hour-old record's.
    committed = page.locator(f"[data-testid='offset-row-{topic}-0'] td").nth(2)
    expect(committed).to_have_text("2", timeout=10_000)
    page.evaluate(_RECORD)
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=group-lag-seconds]')"
        "?.getAttribute('data-seconds') || 0) > 3000",
        timeout=30_000,
    )
    seen = page.evaluate("window.__lagSeconds")
    stale = [s for s in seen if s and float(s) < 3_000]
    assert stale == [], f"the old offsets' lag in time after the reset: {seen}"
    screenshot(page, "group-lag-after-reset")
