"""The Users and Audit pages in real Chromium against the dev stack: an admin creates a
tokens-only user with a role on one cluster (the API then lists it with that role), makes an
API token in the user's page and reads its key, shown once (the key then answers /me as that
user, with that role), revokes it there (the key then gets 401); the audit log, filtered in its
page, lists the user's creation and the token's, an entry opens on its request and details."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import api_call, login, screenshot

pytestmark = pytest.mark.e2e


def _me_with_key(base: str, key: str) -> tuple[int, object]:
    """GET /api/v1/me with `Authorization: Token <key>`, as a script would: (status, answer)."""
    request = urllib.request.Request(
        f"{base}/api/v1/me", headers={"Authorization": f"Token {key}", "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def test_users_tokens_and_the_audit_log(page, live_console_server):
    base = live_console_server.base
    admin_token = live_console_server.token("e2e-users-admin", "admin")
    user = f"e2e-user-{uuid.uuid4().hex[:8]}"
    token_name = "e2e-script"

    login(page)
    # The top bar leads admins to the Users page.
    page.locator("nav[aria-label=Main]").get_by_role("link", name="Users", exact=True).click()
    expect(page.locator("[data-testid=users-page]")).to_be_visible()
    expect(page.locator("[data-testid=users-table]")).to_be_visible()

    # A tokens-only user (no password) with no role on every cluster and operator on local.
    page.click("[data-testid=new-user]")
    page.fill("[data-testid=new-user-username]", user)
    page.click("[data-testid=new-user-roles-add]")
    page.select_option("[data-testid=new-user-roles-cluster-0]", "local")
    page.select_option("[data-testid=new-user-roles-cluster-role-0]", "operator")
    expect(page.locator("[data-testid=new-user-roles-role]")).to_have_value("")
    screenshot(page, "users-new-user")
    page.click("[data-testid=new-user-submit]")
    expect(page.locator("[data-testid=user-created]")).to_contain_text(f"Created {user}")

    row = page.locator(f"[data-testid=user-row-{user}]")
    expect(row).to_contain_text("local: operator")
    expect(row).to_contain_text("tokens only")
    expect(page.locator(f"[data-testid=user-role-{user}]")).to_have_attribute("data-role", "")
    status, users = api_call(live_console_server, admin_token, "GET", "users")
    assert status == 200, users
    created = next(u for u in users if u["username"] == user)
    assert created["cluster_roles"] == {"local": "operator"}
    assert created["role"] is None
    assert created["has_password"] is False
    assert created["is_active"] is True
    row.scroll_into_view_if_needed()
    screenshot(page, "users-page")

    # Its page: a token made there, its key shown once.
    page.click(f"[data-testid=user-link-{user}]")
    expect(page.locator("[data-testid=user-page]")).to_be_visible()
    expect(page.locator("[data-testid=user-roles-editor-cluster-0]")).to_have_value("local")
    expect(page.locator("[data-testid=user-roles-editor-cluster-role-0]")).to_have_value("operator")
    expect(page.locator("[data-testid=tokens-empty]")).to_be_visible()
    page.fill("[data-testid=token-name]", token_name)
    page.fill("[data-testid=token-days]", "7")
    page.click("[data-testid=token-submit]")
    dialog = page.locator("[data-testid=token-key-dialog]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-testid=token-key-warning]")).to_contain_text(
        "you will not see it again"
    )
    key = page.locator("[data-testid=token-key]").input_value()
    assert len(key) == 40, key
    token_row = page.locator(f"[data-testid=token-row-{token_name}]")
    expect(token_row).to_contain_text(f"{key[:8]}…")
    screenshot(page, "user-token-key")
    page.click("[data-testid=token-key-done]")
    expect(dialog).to_have_count(0)
    # The key is on the page no more.
    assert key not in page.content()
    expect(token_row).to_contain_text("active")
    screenshot(page, "user-detail")

    # The key works as that user, with its role on local only.
    status, me = _me_with_key(base, key)
    assert status == 200, me
    assert me["username"] == user
    assert me["cluster_roles"] == {"local": "operator"}

    # Revoked in the page: the key stops at once.
    page.click(f"[data-testid=token-revoke-{token_name}]")
    expect(page.locator("[data-testid=confirm-dialog]")).to_contain_text(token_name)
    page.click("[data-testid=token-revoke-confirm]")
    expect(page.locator("[data-testid=token-revoked]")).to_contain_text(token_name)
    expect(token_row).to_have_count(0)
    status, answer = _me_with_key(base, key)
    assert status == 401, answer

    # The audit log: the user's creation under "user.", the token's under the user's name.
    page.locator("nav[aria-label=Main]").get_by_role("link", name="Audit", exact=True).click()
    expect(page.locator("[data-testid=audit-page]")).to_be_visible()
    page.fill("[data-testid=audit-filter-action]", "user.")
    page.fill("[data-testid=audit-filter-target]", user)
    created_row = page.locator('[data-testid^=audit-row-][data-action="user.create"]')
    expect(created_row).to_have_count(1)
    expect(created_row).to_contain_text(user)
    expect(created_row).to_contain_text("e2e-admin")
    expect(page.locator("[data-testid^=audit-row-]")).to_have_count(1)
    assert "action=user." in page.url
    export = page.locator("[data-testid=audit-export]")
    expect(export).to_have_attribute("href", f"/api/v1/audit/export?action=user.&target={user}")

    # Opened: what was asked (never a password) and the roles it got.
    created_row.locator("[data-testid^=audit-toggle-]").click()
    entry_id = created_row.get_attribute("data-testid").removeprefix("audit-row-")
    request = page.locator(f"[data-testid=audit-request-{entry_id}]")
    expect(request).to_contain_text(f'"username": "{user}"')
    expect(request).to_contain_text('"local": "operator"')
    expect(request).not_to_contain_text("password")

    # Without the action filter, the token's creation and revocation are there too.
    page.fill("[data-testid=audit-filter-action]", "")
    token_created = page.locator('[data-testid^=audit-row-][data-action="token.create"]')
    expect(token_created).to_have_count(1)
    expect(page.locator('[data-testid^=audit-row-][data-action="token.revoke"]')).to_have_count(1)
    token_created.locator("[data-testid^=audit-toggle-]").click()
    token_entry = token_created.get_attribute("data-testid").removeprefix("audit-row-")
    details = page.locator(f"[data-testid=audit-details-{token_entry}]")
    expect(details).to_contain_text(f'"prefix": "{key[:8]}"')
    expect(details).to_contain_text('"token_id"')
    assert key not in page.content()
    screenshot(page, "audit-page")

    # The same through the API: what the page listed is what the log holds.
    status, entries = api_call(
        live_console_server, admin_token, "GET", f"audit?action=user.&target={user}"
    )
    assert status == 200, entries
    assert [e["action"] for e in entries] == ["user.create"]
