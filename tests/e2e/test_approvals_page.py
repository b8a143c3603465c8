"""Two-person approval in real Chromium, on a console whose registry marks a cluster protected
(`prod`: the dev stack's brokers under another name; its badge in the cluster list). Operator A
executes a reset preview: the wizard says it was sent for approval (nothing committed), and A's
own request has no Approve button; operator B, whose approvals page is open, sees the request
arrive live, approves it, and the committed offsets are then the plan's."""

from __future__ import annotations

import json
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import api_call, login, screenshot
from tests.live_server import start_console
from tests.stack import cluster_client, commit_and_wait, filled_topic

pytestmark = pytest.mark.e2e

BOOTSTRAP = "127.0.0.1:19092,127.0.0.1:29092,127.0.0.1:39092"
REGISTRY = [{"name": "prod", "bootstrap_servers": BOOTSTRAP, "protected": True}]
PASSWORD = "e2e-approver-password-123"


@pytest.fixture(scope="module")
def protected_console(tmp_path_factory, stack):
    """A console of its own whose only cluster, `prod`, is protected (KAFKA_CLUSTERS; an
    inherited KAFKA_CLUSTERS_FILE would win over it, so it is emptied)."""
    console = start_console(
        tmp_path_factory.mktemp("e2e-approvals"),
        extra_env={"KAFKA_CLUSTERS": json.dumps(REGISTRY), "KAFKA_CLUSTERS_FILE": ""},
    )
    yield console
    console.stop()


@pytest.fixture(scope="module")
def operators(protected_console) -> tuple[str, str]:
    """Two users with a password and the operator role on prod, made through the users API."""
    admin = protected_console.token("e2e-approvals-admin", "admin")
    tag = uuid.uuid4().hex[:6]
    names = (f"e2e-op-a-{tag}", f"e2e-op-b-{tag}")
    for name in names:
        body = {"username": name, "password": PASSWORD, "cluster_roles": {"prod": "operator"}}
        status, answer = api_call(protected_console, admin, "POST", "users", body)
        assert status == 201, answer
    return names


@pytest.fixture
def idle_group(stack):
    client = cluster_client()
    topic = f"e2e-appr-{uuid.uuid4().hex[:8]}"
    filled_topic(client, topic, partitions=3, replication=3, records=20)
    group = f"e2e-appr-group-{uuid.uuid4().hex[:6]}"
    commit_and_wait(client, group, {(topic, p): 15 for p in range(3)})
    return client, topic, group


def committed(client, group: str) -> dict:
    return client.committed_offsets({group: None}, stable=True)[group]


def _page(browser, console):
    context = browser.new_context(base_url=console.base, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


def test_a_reset_waits_for_a_second_operator(browser, protected_console, operators, idle_group):
    client, topic, group = idle_group
    op_a, op_b = operators
    context_a, page_a = _page(browser, protected_console)
    context_b, page_b = _page(browser, protected_console)
    try:
        # B watches the approvals: nothing pending yet, the prod socket live.
        login(page_b, op_b, PASSWORD)
        page_b.locator("nav[aria-label=Main]").get_by_role("link", name="Approvals").click()
        expect(page_b.locator("[data-testid=approvals-page]")).to_be_visible()
        expect(page_b.locator("[data-testid=approvals-empty]")).to_be_visible()
        expect(page_b.locator("[data-testid=live-indicator]")).to_have_attribute(
            "data-status", "live"
        )

        # A previews a reset to offset 5 and executes it: sent for approval, nothing committed.
        login(page_a, op_a, PASSWORD)
        expect(page_a.locator("[data-testid=cluster-protected-prod]")).to_have_text("protected")
        page_a.goto(f"/clusters/prod/groups/{group}")
        page_a.wait_for_selector(f"[data-testid='offset-row-{topic}-0']")
        page_a.click("[data-testid=reset-open]")
        page_a.select_option("[data-testid=strategy-select]", "to_offset")
        page_a.fill("[data-testid=strategy-offset]", "5")
        page_a.fill("[data-testid=reset-reason]", "replay after the bad deploy (INC-42)")
        page_a.click("[data-testid=reset-preview]")
        page_a.wait_for_selector(f"[data-testid='plan-row-{topic}-2']")
        page_a.fill("[data-testid=confirm-group-input]", group)
        page_a.click("[data-testid=reset-execute]")
        notice = page_a.locator("[data-testid=approval-notice]")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Sent for approval as request #")
        expect(notice).to_contain_text("It runs once someone else with the role approves it.")
        expect(page_a.locator("[data-testid=reset-executed]")).to_have_count(0)
        expect(page_a.locator("[data-testid=error-banner]")).to_have_count(0)
        request_id = int(notice.get_attribute("data-approval") or "0")
        assert request_id > 0
        assert committed(client, group) == {(topic, p): 15 for p in range(3)}
        notice.scroll_into_view_if_needed()
        screenshot(page_a, "approval-notice")

        # A opens its own request: no Approve button, a note why.
        page_a.click("[data-testid=approval-notice-link]")
        detail_a = page_a.locator("[data-testid=approval-detail]")
        expect(detail_a).to_have_attribute("data-id", str(request_id))
        expect(page_a.locator("[data-testid=approval-decide-note]")).to_contain_text(
            "You asked for this change"
        )
        expect(page_a.locator("[data-testid=approval-approve]")).to_have_count(0)
        expect(page_a.locator("[data-testid=approval-reject]")).to_have_count(0)

        # B's page got it pushed (its poll is 30 s away, at least 2 min while live).
        row = page_b.locator(f"[data-testid=approval-row-{request_id}]")
        expect(row).to_be_visible(timeout=10_000)
        expect(row).to_contain_text(op_a)
        expect(row).to_contain_text("Offset reset")
        expect(page_b.locator("[data-testid=nav-approvals-count]")).to_have_attribute(
            "data-count", "1"
        )
        screenshot(page_b, "approvals-page")

        row.click()
        expect(page_b.locator("[data-testid=approval-detail]")).to_have_attribute(
            "data-id", str(request_id)
        )
        plan = page_b.locator("[data-testid=approval-reset-plan]")
        expect(plan).to_have_attribute("data-rows", "3")
        for partition in range(3):
            plan_row = page_b.locator(f"[data-testid='approval-plan-row-{topic}-{partition}']")
            expect(plan_row).to_have_attribute("data-delta", "-10")
        expect(page_b.locator("[data-testid=approval-reason]")).to_contain_text("INC-42")
        page_b.fill("[data-testid=approval-decision-reason]", "checked the plan with A")
        screenshot(page_b, "approval-detail")

        page_b.click("[data-testid=approval-approve]")
        page_b.click("[data-testid=approval-approve-confirm]")
        expect(page_b.locator("[data-testid=approval-detail]")).to_have_attribute(
            "data-state", "executed"
        )
        expect(page_b.locator("[data-testid=approval-result-reset]")).to_have_attribute(
            "data-state", "succeeded"
        )
        assert committed(client, group) == {(topic, p): 5 for p in range(3)}
        # Decided: gone from B's pending list; A's page hears of it too.
        expect(row).to_have_count(0)
        expect(detail_a).to_have_attribute("data-state", "executed", timeout=10_000)
        screenshot(page_b, "approval-executed")
    finally:
        context_a.close()
        context_b.close()
