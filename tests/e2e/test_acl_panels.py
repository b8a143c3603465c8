"""The ACL panels in real Chromium against the dev stack's authorizer: bindings made through the
API (a literal one on a fresh topic and group, a prefixed one on their common prefix, a DENY of
another principal) show on the topic's ACLs tab and on the group page with their patterns and
why they apply; on the ACLs page a principal clicked sums up what it may do, by resource."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import api_call, login, screenshot
from tests.live_server import ADMIN
from tests.stack import cluster_client, commit_and_wait, filled_topic

pytestmark = pytest.mark.e2e


def binding(
    resource_type: str,
    name: str,
    principal: str,
    operation: str,
    pattern: str = "LITERAL",
    permission: str = "ALLOW",
) -> dict:
    return {
        "resource_type": resource_type,
        "resource_name": name,
        "pattern_type": pattern,
        "principal": principal,
        "host": "*",
        "operation": operation,
        "permission": permission,
    }


def panel_row(page, principal: str, pattern: str):
    """The panel's row of `principal` with that pattern (literal, prefixed, wildcard)."""
    return page.locator(
        f"[data-testid^=acl-panel-row-][data-principal='{principal}'][data-pattern={pattern}]"
    )


def test_panels_list_what_applies_and_a_principal_sums_up_what_it_may_do(page, live_console_server):
    tag = uuid.uuid4().hex[:8]
    prefix = f"e2e-panel-{tag}-"
    topic, group = f"{prefix}orders", f"{prefix}app"
    alice, mallory = f"User:e2e-{tag}-alice", f"User:e2e-{tag}-mallory"
    console = live_console_server
    token = console.token(ADMIN[0], "admin")
    bindings = [
        binding("TOPIC", topic, alice, "READ"),
        binding("TOPIC", prefix, alice, "DESCRIBE", pattern="PREFIXED"),
        binding("TOPIC", topic, mallory, "WRITE", permission="DENY"),
        binding("GROUP", group, alice, "READ"),
        binding("GROUP", prefix, alice, "DESCRIBE", pattern="PREFIXED"),
        binding("GROUP", group, mallory, "READ", permission="DENY"),
    ]
    client = cluster_client()
    filled_topic(client, topic, partitions=1, replication=1, records=3)
    commit_and_wait(client, group, {(topic, 0): 2})
    try:
        status, created = api_call(
            console, token, "POST", "clusters/local/acls", {"bindings": bindings, "dry_run": False}
        )
        assert status in (200, 201), created
        assert len(created["bindings"]) == 6, created

        login(page)
        # The topic's ACLs tab: the literal binding, the DENY and the prefix, with why each applies.
        page.goto(f"/clusters/local/topics/{topic}")
        page.click("[data-testid=topic-tab-acls]")
        panel = page.locator("[data-testid=acl-panel]")
        expect(panel).to_have_attribute("data-state", "list")
        expect(panel).to_have_attribute("data-resource-type", "TOPIC")
        ours = page.locator(
            f"[data-testid^=acl-panel-row-][data-principal='{alice}'],"
            f"[data-testid^=acl-panel-row-][data-principal='{mallory}']"
        )
        expect(ours).to_have_count(3)
        literal = panel_row(page, alice, "literal")
        expect(literal).to_contain_text("READ")
        expect(literal).to_contain_text("ALLOW")
        expect(literal).to_contain_text("Set on this topic by name.")
        prefixed = panel_row(page, alice, "prefixed")
        expect(prefixed).to_contain_text(prefix)
        expect(prefixed).to_contain_text("DESCRIBE")
        expect(prefixed).to_contain_text(
            f"Prefixed on “{prefix}”: applies to every topic whose name starts with it"
        )
        deny = panel_row(page, mallory, "literal")
        expect(deny).to_have_attribute("data-permission", "DENY")
        expect(deny.locator(".badge-error")).to_have_text("DENY")
        # Most specific first: the literal bindings above the prefix.
        order = [
            row.get_attribute("data-pattern") + ":" + row.get_attribute("data-principal")
            for row in ours.all()
        ]
        assert order == [f"literal:{alice}", f"literal:{mallory}", f"prefixed:{alice}"], order
        manage = page.locator("[data-testid=acl-panel-manage]")
        expect(manage).to_have_attribute(
            "href",
            f"/clusters/local/acls?resource_type=TOPIC&resource_name={topic}&pattern_type=match",
        )
        expect(page.locator("[data-testid=topic-tab-acls]")).to_have_attribute(
            "aria-current", "page"
        )
        expect(page.locator("[data-testid=loading]")).to_have_count(0)  # the topic too
        screenshot(page, "topic-acls-panel")

        # The group page: the same for GROUP.
        page.goto(f"/clusters/local/groups/{group}")
        panel = page.locator("[data-testid=acl-panel]")
        expect(panel).to_have_attribute("data-state", "list")
        expect(panel).to_have_attribute("data-resource-type", "GROUP")
        expect(ours).to_have_count(3)
        expect(panel_row(page, alice, "literal")).to_contain_text("Set on this group by name.")
        expect(panel_row(page, alice, "prefixed")).to_contain_text(
            "applies to every group whose name starts with it"
        )
        expect(panel_row(page, mallory, "literal")).to_have_attribute("data-permission", "DENY")
        panel.scroll_into_view_if_needed()
        screenshot(page, "group-acls-panel")

        # "Manage on the ACLs page", then alice clicked: all of hers, by resource.
        page.click("[data-testid=acl-panel-manage]")
        expect(page).to_have_url(re.compile(r"/acls\?resource_type=GROUP&.*pattern_type=match"))
        expect(page.locator("[data-testid=acls-filter-pattern]")).to_have_value("match")
        mine = page.locator("[data-testid^=acl-principal-]", has_text=alice)
        expect(mine).to_have_count(2)  # her literal and prefixed group bindings
        mine.first.click()
        summary = page.locator("[data-testid=acl-principal-summary]")
        expect(summary).to_have_attribute("data-principal", alice)
        expect(summary).to_have_attribute("data-bindings", "4")
        expect(summary).to_have_attribute("data-count", "4")
        expect(summary).to_contain_text(f"What {alice} may do")
        expect(page.locator("[data-testid=acls-filter-principal]")).to_have_value(alice)
        expect(page.locator("[data-testid=acls-filter-name]")).to_have_value("")
        expect(page.locator("[data-testid^=acl-row-]")).to_have_count(4)
        rows = {}
        for row in page.locator("[data-testid^=acl-summary-row-]").all():
            key = (
                row.get_attribute("data-resource-type"),
                row.get_attribute("data-resource-name"),
                row.get_attribute("data-pattern"),
            )
            index = (row.get_attribute("data-testid") or "").removeprefix("acl-summary-row-")
            allowed = page.locator(f"[data-testid=acl-summary-allowed-{index}]")
            denied = page.locator(f"[data-testid=acl-summary-denied-{index}]")
            rows[key] = (
                allowed.get_attribute("data-operations"),
                denied.get_attribute("data-operations"),
            )
        assert rows == {
            ("TOPIC", topic, "literal"): ("READ", ""),
            ("TOPIC", prefix, "prefixed"): ("DESCRIBE", ""),
            ("GROUP", group, "literal"): ("READ", ""),
            ("GROUP", prefix, "prefixed"): ("DESCRIBE", ""),
        }, rows
        screenshot(page, "acls-principal-summary")

        # Mallory's view: only what she is denied.
        page.fill("[data-testid=acls-filter-principal]", mallory)
        expect(summary).to_have_attribute("data-principal", mallory)
        expect(summary).to_have_attribute("data-count", "2")
        expect(page.locator("[data-testid=acl-summary-denied-0]")).to_have_attribute(
            "data-operations", "WRITE"
        )
        expect(page.locator("[data-testid=acl-summary-allowed-0]")).to_have_attribute(
            "data-operations", ""
        )
        screenshot(page, "acls-principal-summary-deny")
    finally:
        for b in bindings:
            acl_filter = {k: v for k, v in b.items() if k != "pattern_type"}
            acl_filter["pattern_type"] = b["pattern_type"].lower()
            api_call(
                console,
                token,
                "POST",
                "clusters/local/acls/delete",
                {"filter": acl_filter, "dry_run": False},
            )
        api_call(console, token, "DELETE", f"clusters/local/groups/{group}")
        api_call(console, token, "DELETE", f"clusters/local/topics/{topic}")
    status, left = api_call(
        console,
        token,
        "GET",
        f"clusters/local/acls?resource_type=TOPIC&resource_name={topic}&pattern_type=match",
    )
    assert status == 200 and not [a for a in left if a["principal"] in (alice, mallory)], left
