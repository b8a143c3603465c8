"""The ACLs page in real Chromium against the dev stack's authorizer: an admin adds the consumer
set of a principal (previewed, then created), finds it with the filter as Kafka lists it, and
deletes one binding after a preview of exactly that binding."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from console.kafka.types import AclFilter
from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client

pytestmark = pytest.mark.e2e


def test_add_the_consumer_set_find_it_and_delete_one_binding(page, stack):
    tag = uuid.uuid4().hex[:8]
    principal, topic, group = f"User:e2e-{tag}", f"e2e-acl-{tag}", f"e2e-acl-group-{tag}"
    try:
        login(page)
        page.goto("/clusters/local")
        page.get_by_role("link", name="ACLs").click()
        expect(page.locator("[data-testid=acls-filter]")).to_be_visible()

        page.click("[data-testid=acls-add-open]")
        page.click("[data-testid=acls-add-mode-consumer]")
        page.fill("[data-testid=acls-add-principal]", principal)
        page.fill("[data-testid=acls-add-topics]", topic)
        page.fill("[data-testid=acls-add-groups]", group)
        page.click("[data-testid=acls-preview]")
        preview = page.locator("[data-testid=acls-preview-result]")
        expect(preview).to_contain_text(topic)
        expect(preview).to_contain_text(group)
        screenshot(page, "acls-consumer-preview")
        # A preview changes nothing in Kafka.
        assert cluster_client().describe_acls(AclFilter(principal=principal)) == []
        page.click("[data-testid=acls-create]")
        expect(page.locator("[data-testid=acls-created]")).to_be_visible()
        made = cluster_client().describe_acls(AclFilter(principal=principal))
        assert {(a.resource_type, a.resource_name, a.operation) for a in made} == {
            ("TOPIC", topic, "READ"),
            ("TOPIC", topic, "DESCRIBE"),
            ("GROUP", group, "READ"),
        }

        page.fill("[data-testid=acls-filter-principal]", principal)
        rows = page.locator("[data-testid^=acl-row-]")
        expect(rows).to_have_count(3)
        screenshot(page, "acls-list")

        # Delete the group's binding: the dialog lists exactly it, then it is gone.
        group_row = rows.filter(has_text=group)
        index = (group_row.get_attribute("data-testid") or "").removeprefix("acl-row-")
        page.click(f"[data-testid=acl-delete-{index}]")
        dialog = page.locator("[data-testid=confirm-dialog]")
        expect(dialog).to_contain_text(group)
        expect(dialog).not_to_contain_text(topic + " ")
        screenshot(page, "acls-delete-preview")
        page.click("[data-testid=acls-delete-confirm]")
        expect(page.locator("[data-testid=acls-deleted]")).to_be_visible()
        expect(rows).to_have_count(2)
        left = cluster_client().describe_acls(AclFilter(principal=principal))
        assert {a.resource_type for a in left} == {"TOPIC"}
    finally:
        cluster_client().delete_acls([AclFilter(principal=principal)])
