"""Log in and see the clusters, in real Chromium (a broker leaving the brokers table and coming
back: test_topics_pages.py, with the leadership map)."""

import pytest

from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


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
