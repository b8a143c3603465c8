"""Right after a reset, the group's lag in seconds is not the figure of the offsets it left:
the detail answers none for the partitions whose committed offset moved since the sampler's
pass (and for their topic and the group), and the next pass gives the new figure."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.stack import cluster_client, group_after_old_and_recent_records

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_lag_seconds_after_a_reset_wait_for_the_next_pass(operator_client, stack, settings):
    from console.clusters import get_cluster
    from groups.lag.sampler import ClusterSampler

    settings.REDIS_URL = stack["redis_url"]
    client = cluster_client()
    topic, group = group_after_old_and_recent_records(client, "after-reset")
    sampler = ClusterSampler(get_cluster("local"), interval_s=1.0)
    assert sampler.run_pass().ok
    url = f"/api/v1/clusters/local/groups/{group}"
    before = operator_client.get(url).json()
    assert 50 < before["offsets"][0]["lag_seconds"] < 600  # the minute-old record at 15
    assert 50 < before["max_lag_seconds"] < 600

    preview = operator_client.post(
        f"{url}/offset-resets",
        {"scope": {"topics": [{"topic": topic, "partitions": None}]},
         "strategy": {"type": "to_offset", "offset": 2}},
        format="json",
    )  # fmt: skip
    assert preview.status_code == 201, preview.content
    done = operator_client.post(
        f"/api/v1/offset-resets/{preview.json()['id']}/execute", {"reason": "replay"}, "json"
    )
    assert done.status_code == 200, done.content
    after = operator_client.get(url).json()
    assert after["offsets"][0]["committed_offset"] == 2
    # Not the minute of record 15 any more, and not yet the hour of record 2: unknown.
    assert after["offsets"][0]["lag_seconds"] is None
    assert after["max_lag_seconds"] is None
    assert [t["max_lag_seconds"] for t in after["topics"]] == [None]
    # The answer says when it read the offsets. The pass before the reset began earlier: its
    # pushed sample, if it reaches a page after this answer, is older and not shown there.
    sampled, read = (datetime.fromisoformat(after[k]) for k in ("sampled_at", "read_at"))
    assert sampled < read <= datetime.now(UTC)

    assert sampler.run_pass().ok
    fresh = operator_client.get(url).json()
    assert fresh["offsets"][0]["lag_seconds"] > 3_000  # the hour-old record at offset 2
    assert fresh["max_lag_seconds"] > 3_000
