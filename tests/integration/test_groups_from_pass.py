"""The groups list answered from the lag sampler's latest pass: row for row what a live read of
the same cluster gives at the same moment (state, protocol, members, topics, lag, status), with
no Kafka call (a group made after the pass is not in it until the next pass); `fresh=true`, no
sampler holding the cluster, or a pass older than two intervals read Kafka instead."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import datetime

import pytest

from console.kafka import dev
from tests.stack import cluster_client, commit_and_wait, filled_topic, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]
URL = "/api/v1/clusters/local/groups"
COMPARED = ("state", "protocol_type", "member_count", "topics", "total_lag", "max_lag", "status")
OWNER = f"it-groups-pass-{uuid.uuid4().hex[:6]}"


@pytest.fixture
def groups(stack):
    """Two idle groups with lag, and one with a live member that has read (and committed)
    everything, on a new topic of 3 partitions × 10 records."""
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    topic = f"it-gpass-{tag}"
    filled_topic(client, topic, 3, 3, 10)
    idle = [f"it-gpass-idle-{n}-{tag}" for n in (1, 2)]
    commit_and_wait(client, idle[0], {(topic, p): 4 for p in range(3)})
    commit_and_wait(client, idle[1], {(topic, 0): 10, (topic, 1): 2})
    active = f"it-gpass-active-{tag}"
    stop, ready = threading.Event(), threading.Event()

    def consume() -> None:
        consumer = dev.make_consumer(
            cluster_client(),
            active,
            **{"auto.offset.reset": "earliest", "enable.auto.commit": False},
        )
        consumer.subscribe([topic])
        read = 0
        while not stop.is_set():
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                read += 1
                if read == 30:
                    consumer.commit(asynchronous=False)
                    ready.set()
        consumer.close()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    assert ready.wait(60), "the active member did not read its 30 records"
    yield {"topic": topic, "tag": tag, "groups": [*idle, active]}
    stop.set()
    thread.join(15)


@pytest.fixture
def lease(stack, settings):
    """This test holds the `local` cluster's sampling lease, as a sampler process would."""
    from groups.lag import store

    settings.REDIS_URL = stack["redis_url"]
    wait_for(lambda: store.hold_lease("local", OWNER, 60), timeout=60, what="the lease")
    yield
    store.release_lease("local", OWNER)


def _rows(client, query: str = "") -> dict[str, dict]:
    answer = client.get(f"{URL}{query}")
    assert answer.status_code == 200, answer.content
    return {row["group_id"]: row for row in answer.json()}


def test_the_list_from_the_latest_pass_equals_a_live_read(viewer_client, groups, lease):
    from console.clusters import get_cluster
    from groups.lag.sampler import ClusterSampler

    sampler = ClusterSampler(get_cluster("local"), interval_s=30.0)
    assert sampler.run_pass().ok
    passed, live = _rows(viewer_client), _rows(viewer_client, "?fresh=true")
    for group in groups["groups"]:
        assert {k: passed[group][k] for k in COMPARED} == {k: live[group][k] for k in COMPARED}
    idle, _, active = groups["groups"]
    assert passed[idle]["total_lag"] == 18 and passed[idle]["state"] == "Empty"
    assert passed[active]["member_count"] == 1 and passed[active]["state"] == "Stable"
    assert passed[active]["total_lag"] == 0 and passed[active]["topics"] == [groups["topic"]]
    # The pass's time, not this request's; a live read says its own (later) time.
    pass_at = datetime.fromisoformat(passed[idle]["sampled_at"])
    assert pass_at < datetime.fromisoformat(live[idle]["sampled_at"])

    # No Kafka call: a group made after the pass is listed only by a live read.
    later = f"it-gpass-later-{groups['tag']}"
    commit_and_wait(cluster_client(), later, {(groups["topic"], 0): 1})
    assert later not in _rows(viewer_client)
    assert later in _rows(viewer_client, "?fresh=true")
    assert sampler.run_pass().ok
    assert later in _rows(viewer_client)  # the next pass has it


def test_a_stale_pass_or_no_sampler_means_a_live_read(viewer_client, groups, lease, stack):
    from console.clusters import get_cluster
    from groups.lag import store
    from groups.lag.sampler import ClusterSampler

    assert ClusterSampler(get_cluster("local"), interval_s=1.0).run_pass().ok
    later = f"it-gpass-stale-{groups['tag']}"
    commit_and_wait(cluster_client(), later, {(groups["topic"], 0): 1})
    # Older than two intervals of 1 s: read live, the new group in it.
    time.sleep(2.2)
    rows = _rows(viewer_client)
    assert later in rows
    assert (
        datetime.now().astimezone() - datetime.fromisoformat(rows[later]["sampled_at"])
    ).total_seconds() < 5
    # A recent pass, but no sampler holds the cluster any more: read live too.
    assert ClusterSampler(get_cluster("local"), interval_s=30.0).run_pass().ok
    gone = f"it-gpass-nolease-{groups['tag']}"
    commit_and_wait(cluster_client(), gone, {(groups["topic"], 0): 1})
    assert gone not in _rows(viewer_client)  # the lease is held: the pass answers
    store.release_lease("local", OWNER)
    assert gone in _rows(viewer_client)
