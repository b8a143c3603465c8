"""The Quotas and SCRAM users tabs in real Chromium against the dev stack: an admin sets a
user's quota in the page (Kafka then holds it) and removes it again, a bad IP is refused
beside its field; an admin creates a SCRAM user (Kafka then lists its credential) and deletes
it after the confirmation; a viewer sees neither tab and the API refuses both pages to it."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import expect

from console.kafka.types import ScramCredential
from tests.e2e.conftest import api_call, login, screenshot
from tests.live_server import LiveConsole
from tests.stack import ROOT, cluster_client

pytestmark = pytest.mark.e2e

# A user who signs in with a password (the tokens of `LiveConsole.token` have none).
_PASSWORD_USER_SCRIPT = """
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from console.roles import grant_role
user, _ = get_user_model().objects.get_or_create(username=sys.argv[1])
user.set_password(sys.argv[2])
user.save()
grant_role(user, sys.argv[3])
"""


def _password_user(console: LiveConsole, username: str, password: str, role: str) -> None:
    """Creates (or updates) `username` in the e2e console's database with a password and
    `role` on every cluster."""
    subprocess.run(
        [sys.executable, "-c", _PASSWORD_USER_SCRIPT, username, password, role],
        cwd=ROOT,
        env={**console.env, "DJANGO_SETTINGS_MODULE": "project.settings"},
        check=True,
        capture_output=True,
    )


def _clear_quotas(entity: tuple) -> None:
    held = cluster_client().describe_client_quotas(entity=entity).get(entity, {})
    if held:
        cluster_client().alter_client_quotas(entity, {}, list(held))


def _credentials(user: str) -> list[ScramCredential]:
    return [c for c in cluster_client("local").describe_scram_credentials() if c.user == user]


def test_set_a_users_quota_then_remove_it(page, stack):
    user = f"e2e-quota-{uuid.uuid4().hex[:8]}"
    entity = (("user", user),)
    try:
        login(page)
        page.goto("/clusters/local")
        page.click("[data-testid=tab-quotas]")
        expect(page.locator("[data-testid=quotas-page]")).to_be_visible()
        expect(page.locator("[data-testid=quotas-table]")).to_be_visible()

        page.fill("[data-testid=quota-user]", user)
        page.fill("[data-testid=quota-input-producer_byte_rate]", "1048576")
        expect(page.locator("[data-testid=quota-typed-producer_byte_rate]")).to_have_text(
            "= 1.0 MiB/s"
        )
        page.fill("[data-testid=quota-input-request_percentage]", "12.5")
        page.click("[data-testid=quota-save]")
        result = page.locator("[data-testid=quota-result]")
        expect(result).to_contain_text(f"Saved the quotas of user {user}.")
        expect(page.locator("[data-testid=quota-result-producer_byte_rate]")).to_have_attribute(
            "data-after", "1048576"
        )
        assert cluster_client().describe_client_quotas(entity=entity) == {
            entity: {"producer_byte_rate": 1048576.0, "request_percentage": 12.5}
        }

        # The list shows it; its row loads it into the form, with a Remove tick per value.
        row = page.locator(f'[data-testid^=quota-row-][data-entity="user {user}"]')
        expect(row).to_contain_text("1.0 MiB/s")
        expect(row).to_contain_text("12.5 %")
        page.click("[data-testid=quota-clear]")
        row.click()
        expect(page.locator("[data-testid=quota-user]")).to_have_value(user)
        expect(page.locator("[data-testid=quota-now-producer_byte_rate]")).to_have_text("1.0 MiB/s")
        screenshot(page, "quotas-page")

        page.check("[data-testid=quota-remove-producer_byte_rate]")
        page.check("[data-testid=quota-remove-request_percentage]")
        page.click("[data-testid=quota-save]")
        expect(result).to_contain_text("it has none left")
        expect(page.locator("[data-testid=quota-result-request_percentage]")).to_have_attribute(
            "data-after", ""
        )
        assert cluster_client().describe_client_quotas(entity=entity) == {}
        expect(row).to_have_count(0)
        screenshot(page, "quotas-removed")

        # The server's 400 shows beside the field it names (entity.ip).
        page.click("[data-testid=quota-target-ip]")
        page.fill("[data-testid=quota-ip]", "not-an-ip")
        page.fill("[data-testid=quota-input-connection_creation_rate]", "10")
        page.click("[data-testid=quota-save]")
        expect(page.locator("[data-testid=field-error-ip]")).to_have_text("Give an IP address.")
        screenshot(page, "quotas-field-error")
    finally:
        _clear_quotas(entity)


def test_create_a_scram_user_then_delete_it(page, stack):
    user = f"e2e-scram-{uuid.uuid4().hex[:8]}"
    try:
        login(page)
        page.goto("/clusters/local")
        page.click("[data-testid=tab-scram-users]")
        expect(page.locator("[data-testid=scram-users-page]")).to_be_visible()
        expect(page.locator("[data-testid=scram-users-table]")).to_be_visible()

        page.fill("[data-testid=scram-user]", user)
        page.select_option("[data-testid=scram-mechanism]", "SCRAM-SHA-512")
        page.fill("[data-testid=scram-password]", f"pw-{uuid.uuid4().hex}")
        page.fill("[data-testid=scram-iterations]", "8192")
        page.click("[data-testid=scram-save]")
        expect(page.locator("[data-testid=scram-saved]")).to_have_attribute(
            "data-action", "created"
        )
        expect(page.locator("[data-testid=scram-password]")).to_have_value("")
        assert _credentials(user) == [ScramCredential(user, "SCRAM-SHA-512", 8192)]

        row = page.locator(f'[data-testid^=scram-row-][data-user="{user}"]')
        expect(row).to_have_count(1)
        expect(row).to_contain_text("8,192")
        row.scroll_into_view_if_needed()
        screenshot(page, "scram-users-page")

        row.locator("[data-testid^=scram-delete-]").click()
        dialog = page.locator("[data-testid=confirm-dialog]")
        expect(dialog).to_contain_text(f"The SCRAM-SHA-512 credential of {user}")
        page.fill("[data-testid=confirm-input]", user)
        screenshot(page, "scram-users-delete")
        page.click("[data-testid=scram-delete-confirm]")
        expect(page.locator("[data-testid=scram-deleted]")).to_contain_text(user)
        expect(row).to_have_count(0)
        assert _credentials(user) == []
    finally:
        for cred in _credentials(user):
            cluster_client("local").delete_scram_credential(user, cred.mechanism)


def test_a_viewer_sees_neither_tab(page, live_console_server):
    name, password = f"e2e-viewer-{uuid.uuid4().hex[:8]}", "e2e-viewer-password-123"
    token = live_console_server.token(name, "viewer")
    for path in ("clusters/local/quotas", "clusters/local/scram-users"):
        status, _ = api_call(live_console_server, token, "GET", path)
        assert status == 403, path
    _password_user(live_console_server, name, password, "viewer")

    login(page, name, password)
    page.goto("/clusters/local/topics")
    expect(page.locator("[data-testid=tab-acls]")).to_be_visible()
    expect(page.locator("[data-testid=tab-quotas]")).to_have_count(0)
    expect(page.locator("[data-testid=tab-scram-users]")).to_have_count(0)
    # Typed in by hand, the page says it is for admins.
    page.goto("/clusters/local/quotas")
    expect(page.locator("[data-testid=admin-only]")).to_be_visible()
    expect(page.locator("[data-testid=tab-quotas]")).to_have_count(0)
    expect(page.locator("[data-testid=quota-form]")).to_have_count(0)
    screenshot(page, "quotas-viewer")
