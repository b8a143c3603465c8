"""The offset-reset wizard in real Chromium: preview, confirm, execute, undo."""

import uuid

import pytest

from tests.e2e.conftest import login, screenshot
from tests.stack import cluster_client, commit_and_wait, filled_topic

pytestmark = pytest.mark.e2e


@pytest.fixture
def idle_group(stack):
    client = cluster_client()
    topic = f"e2e-{uuid.uuid4().hex[:8]}"
    filled_topic(client, topic, partitions=3, replication=3, records=20)
    group = f"e2e-group-{uuid.uuid4().hex[:6]}"
    commit_and_wait(client, group, {(topic, p): 15 for p in range(3)})
    return client, topic, group


def committed(client, group: str) -> dict:
    return client.committed_offsets({group: None})[group]


def test_preview_confirm_execute_undo(page, idle_group):
    client, topic, group = idle_group
    login(page)
    page.goto(f"/clusters/local/groups/{group}")
    page.wait_for_selector("[data-testid=group-offsets-table]")
    page.wait_for_selector(f"[data-testid='offset-row-{topic}-0']")
    screenshot(page, "group-page")

    page.click("[data-testid=reset-open]")
    page.select_option("[data-testid=strategy-select]", "to_offset")
    page.fill("[data-testid=strategy-offset]", "5")
    page.fill("[data-testid=reset-reason]", "replay the last 15 records after a bad deploy")
    page.click("[data-testid=reset-preview]")
    page.wait_for_selector(f"[data-testid='plan-row-{topic}-2']")
    for partition in range(3):
        row = page.locator(f"[data-testid='plan-row-{topic}-{partition}']")
        # Every partition moves from 15 to 5: ten records to read again.
        assert row.get_attribute("data-delta") == "-10"
        assert "15 → 5" in " ".join(row.locator("td.offset-move").inner_text().split())
    assert committed(client, group) == {(topic, p): 15 for p in range(3)}  # preview only
    screenshot(page, "reset-preview")

    execute = page.locator("[data-testid=reset-execute]")
    assert execute.is_disabled()
    page.fill("[data-testid=confirm-group-input]", group[:-1])
    assert execute.is_disabled()
    page.fill("[data-testid=confirm-group-input]", group)
    execute.click()
    page.wait_for_selector("[data-testid=reset-result]")
    assert committed(client, group) == {(topic, p): 5 for p in range(3)}
    screenshot(page, "reset-executed")

    page.click("[data-testid=reset-undo]")
    page.wait_for_selector("[data-testid=undo-result]")
    assert committed(client, group) == {(topic, p): 15 for p in range(3)}
    page.wait_for_selector("[data-testid=reset-history]")
    screenshot(page, "reset-undone")
