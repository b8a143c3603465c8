"""Single sign-on in real Chromium through the dev stack's OpenID Connect provider
(devtools/oidc_provider, django-oauth-toolkit): the console's sign-in page sends the browser to
the provider, the provider's user signs in there, and the console lands with the role the
user's groups map to (CONSOLE_OIDC_GROUP_ROLES, as `devstack oidc-env` sets it). A user in no
mapped group is signed in with no role; with local sign-in turned off, passwords stop working
and single sign-on goes on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from devtools.devstack import config
from tests.e2e.conftest import screenshot
from tests.live_server import ADMIN, password_sign_in, start_console

pytestmark = pytest.mark.e2e
LABEL = "Sign in with the dev identity provider"


@pytest.fixture(scope="module")
def sso_console(tmp_path_factory, stack):
    console = start_console(tmp_path_factory.mktemp("e2e-sso"), extra_env=config.oidc_console_env())
    yield console
    console.stop()


def _sso_sign_in(browser, console, username: str):
    """A fresh browser (no session at the console or the provider) signed in as `username`."""
    context = browser.new_context(base_url=console.base, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/topics")
    expect(page).to_have_url(f"{console.base}/login/?next=/topics")
    page.get_by_role("link", name=LABEL).click()
    # The provider's own sign-in page, on its own origin.
    page.wait_for_url(f"{config.OIDC_URL}/accounts/login/**")
    expect(page.get_by_role("heading", name="Dev identity provider")).to_be_visible()
    page.fill("#id_username", username)
    page.fill("#id_password", config.OIDC_USER_PASSWORD)
    page.click("button[type=submit]")
    # Back at the console, on the page first asked for.
    page.wait_for_url(f"{console.base}/topics")
    page.wait_for_selector("[data-testid=current-user]")
    return context, page


def _me(page) -> dict:
    return page.evaluate("fetch('/api/v1/me').then(r => r.json())")


def test_an_operator_signs_in_through_the_provider_with_its_groups_roles(browser, sso_console):
    context, page = _sso_sign_in(browser, sso_console, "sso-local-operator")
    try:
        me = _me(page)
        # kafka-viewers: viewer everywhere; local-operators: operator on `local` only.
        assert me == {
            "username": "sso-local-operator",
            "role": "operator",
            "cluster_roles": {"local": "operator", "local-secure": "viewer"},
        }
        user = page.get_by_test_id("current-user")
        expect(user).to_contain_text("sso-local-operator")
        expect(user).to_have_attribute("data-role", "operator")
        expect(page.get_by_test_id("no-role")).to_have_count(0)
        screenshot(page, "sso-signed-in-operator")
        # The session is a console session like a password's: a write it is not allowed
        # (admin only) is refused, a read on the cluster where it is operator is allowed.
        status = page.evaluate("fetch('/api/v1/clusters/local/topics').then(r => r.status)")
        assert status == 200
    finally:
        context.close()


def test_a_user_in_no_mapped_group_lands_with_no_role(browser, sso_console):
    context, page = _sso_sign_in(browser, sso_console, "sso-nobody")
    try:
        assert _me(page) == {"username": "sso-nobody", "role": None, "cluster_roles": {}}
        card = page.get_by_test_id("no-role")
        expect(card).to_contain_text("no role on any cluster")
        expect(page.get_by_test_id("current-user")).to_contain_text("no role")
        status = page.evaluate("fetch('/api/v1/clusters').then(r => r.status)")
        assert status == 403
        screenshot(page, "sso-signed-in-no-role")
    finally:
        context.close()


def _password_sign_in(base: str, username: str, password: str, path: str = "/login/") -> bool:
    """Did a password sign-in at `path` end signed in?"""
    answer = password_sign_in(base, username, password, path, form="/admin/login/")
    assert answer.status_code in (200, 302), answer.status_code  # the form again, or in
    return answer.session.get(f"{base}/api/v1/me", timeout=10).status_code == 200


def test_with_local_sign_in_off_only_single_sign_on_signs_in(browser, sso_console, tmp_path):
    # With it on, the first admin's password works beside the provider's button.
    assert _password_sign_in(sso_console.base, *ADMIN)
    console = start_console(
        tmp_path, extra_env={**config.oidc_console_env(), "CONSOLE_LOCAL_SIGNIN": "off"}
    )
    try:
        assert not _password_sign_in(console.base, *ADMIN)
        assert not _password_sign_in(console.base, *ADMIN, path="/admin/login/")
        context, page = _sso_sign_in(browser, console, "sso-admin")
        try:
            assert _me(page)["role"] == "admin"
            page.goto("/login/")
            expect(page.locator("#id_password")).to_have_count(0)
            expect(page.get_by_role("link", name=LABEL)).to_be_visible()
            screenshot(page, "sso-local-sign-in-off")
        finally:
            context.close()
    finally:
        console.stop()
