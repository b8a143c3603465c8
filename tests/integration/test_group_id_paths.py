"""Group ids are free text in Kafka: ids with "/", quotes, ";" or non-ASCII letters are
reachable on every group endpoint, and their CSV download is safe."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from console.kafka import dev
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "odd-group-ids"
GROUPS = ["a/b", "team/app/v2", 'q"uote', "semi;colon", "üñí-çødé", "with space"]


@pytest.fixture(scope="module")
def committed(stack):
    client = cluster_client()
    dev.create_topics(client, [(TOPIC, 1, 3, {})])
    if log_ends(client, [(TOPIC, 0)])[(TOPIC, 0)] < 3:
        producer = dev.make_producer(client, acks="all")
        for i in range(3):
            producer.produce(TOPIC, value=b"%d" % i, partition=0)
        assert producer.flush(30) == 0
    for group in GROUPS:
        commit_and_wait(client, group, {(TOPIC, 0): 1})
    return GROUPS


@pytest.mark.parametrize("group", GROUPS)
def test_every_group_endpoint_reaches_the_group(operator_client, committed, group):
    base = f"/api/v1/clusters/local/groups/{quote(group, safe='')}"
    detail = operator_client.get(base)
    assert detail.status_code == 200, detail.content
    assert detail.json()["group_id"] == group
    assert [(o["topic"], o["committed_offset"]) for o in detail.json()["offsets"]] == [(TOPIC, 1)]

    csv = operator_client.get(f"{base}/offsets.csv")
    assert csv.status_code == 200
    assert csv.content.decode() == f"{TOPIC},0,1\n"
    disposition = csv["Content-Disposition"]
    assert "\n" not in disposition and disposition.count('"') == 2
    assert f"filename*=UTF-8''{quote(group + '-offsets.csv', safe='')}" in disposition

    resets = operator_client.get(f"{base}/offset-resets")
    assert resets.status_code == 200 and resets.json() == []
    preview = operator_client.post(
        f"{base}/offset-resets",
        {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}},
        format="json",
    )
    assert preview.status_code == 201, preview.content
    assert preview.json()["group_id"] == group
    assert [r["new_offset"] for r in preview.json()["plan"]] == [0]

    listed = {g["group_id"] for g in operator_client.get("/api/v1/clusters/local/groups").json()}
    assert group in listed
