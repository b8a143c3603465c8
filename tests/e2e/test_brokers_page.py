"""Log in, open the local cluster, watch a broker leave and come back, in real Chromium."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, screenshot
from tests.stack import devstack

pytestmark = [pytest.mark.e2e, pytest.mark.restarts_brokers]

BROKER_ROWS = "[data-testid=brokers-table] [data-testid^=broker-row-]"


def test_login_required_then_clusters_list(page):
    page.goto("/")
    assert "/login/" in page.url
    login(page)
    row = page.locator("[data-testid=cluster-row-local]")
    row.wait_for()
    assert "127.0.0.1:19092" in row.inner_text()
    screenshot(page, "clusters")


def test_wrong_password_is_refused(page):
    page.goto("/login/")
    page.fill("#id_username", "e2e-admin")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    assert "didn't match" in page.locator("[role=alert]").inner_text()


def test_brokers_page_follows_a_broker_going_down(page):
    login(page)
    page.click("[data-testid=cluster-row-local] a")
    page.wait_for_url("**/clusters/local")
    expect(page.locator(BROKER_ROWS)).to_have_count(3, timeout=30_000)
    assert page.locator("[data-testid=controller-badge]").count() == 1
    controller_row = page.locator(BROKER_ROWS, has=page.locator("[data-testid=controller-badge]"))
    controller_id = int(controller_row.get_attribute("data-testid").rsplit("-", 1)[1])
    screenshot(page, "brokers")

    devstack("stop-broker", str(controller_id))
    try:
        # No reload: the page polls and must drop the stopped broker by itself.
        expect(page.locator(BROKER_ROWS)).to_have_count(2, timeout=60_000)
        assert page.locator(f"[data-testid=broker-row-{controller_id}]").count() == 0
        page.wait_for_selector("[data-testid=controller-badge]")
        assert page.locator("[data-testid=broker-count]").inner_text().strip().startswith("2")
        screenshot(page, "brokers-one-down")
    finally:
        devstack("start-broker", str(controller_id))
    expect(page.locator(BROKER_ROWS)).to_have_count(3, timeout=90_000)
