"""Sizes in real Chromium: a broker's page (log dirs, replica sizes, configs with sources,
API versions) reached from the cluster overview, and a topic's size, message count and
readers in the topics list and on its page."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from console.clusters import get_cluster
from tests.e2e.conftest import login, screenshot
from tests.sizes import RECORDS, settled_cli_sizes, write_sized_topic
from tests.stack import cluster_client, commit_and_wait

pytestmark = pytest.mark.e2e


def test_broker_page_shows_disks_replicas_configs_and_api_versions(page):
    topic = write_sized_topic(f"e2e-broker-{uuid.uuid4().hex[:8]}")
    cli = settled_cli_sizes(topic)
    login(page)
    page.goto("/clusters/local")
    page.click("[data-testid=broker-link-2]")
    page.wait_for_url("**/clusters/local/brokers/2")
    expect(page.locator("[data-testid=broker-title]")).to_contain_text("Broker 2")
    usage = page.locator("[data-testid=log-dir-usage-0]")
    expect(usage).to_be_visible(timeout=20_000)
    assert 0 < float(usage.get_attribute("data-used-fraction") or 0) < 1
    page.fill("[data-testid=broker-replicas-filter]", topic)
    row = page.locator(f"[data-testid=replica-{topic}-1]")
    expect(row).to_have_attribute("data-size", str(cli[2][(topic, 1)][0]))
    page.fill("[data-testid=broker-configs-filter]", "node.id")
    config = page.locator("[data-testid=broker-config-node\\.id]")
    expect(config).to_contain_text("2")
    expect(config).to_contain_text("static")
    expect(page.locator("[data-testid=api-version-35]")).to_contain_text("DescribeLogDirs")
    screenshot(page, "broker-detail")


def test_topic_sizes_and_readers_in_the_list_and_on_the_topic_page(page, monkeypatch):
    from console import lag_hooks
    from groups.lag.sampler import ClusterSampler

    # The pass is the page's data; the alerts listeners belong to the console's own sampler.
    monkeypatch.setattr(lag_hooks, "_listeners", [])

    topic = write_sized_topic(f"e2e-sizes-{uuid.uuid4().hex[:8]}")
    group = f"{topic}-readers"
    commit_and_wait(cluster_client(), group, {(topic, 1): 150})
    cli = settled_cli_sizes(topic)
    ClusterSampler(get_cluster("local"), interval_s=1.0).run_pass()
    login(page)
    page.goto(f"/clusters/local/topics?search={topic}")
    count = page.locator(f"[data-testid=topic-messages-{topic}]")
    expect(count).to_have_attribute("data-count", str(sum(RECORDS)), timeout=30_000)
    expect(page.locator(f"[data-testid=topic-readers-{topic}]")).to_have_attribute(
        "data-count", "1"
    )
    size = page.locator(f"[data-testid=topic-size-{topic}]")
    assert int(size.get_attribute("data-bytes") or 0) > 0
    screenshot(page, "topics-sizes")

    page.goto(f"/clusters/local/topics/{topic}")
    reader = page.locator(f"[data-testid=topic-reader-{group}]")
    # Lag over the partitions it committed: partition 1 only (200 written, 150 read).
    expect(reader).to_contain_text(str(RECORDS[1] - 150), timeout=30_000)
    expect(page.locator("[data-testid=partition-size-2]")).to_have_attribute("data-bytes", "0")
    leader_one = max(cli[b][(topic, 1)][0] for b in cli)
    expect(page.locator("[data-testid=partition-size-1]")).to_have_attribute(
        "data-bytes", str(leader_one)
    )
    screenshot(page, "topic-readers")
