"""Clusters and brokers against the real 3-broker dev cluster, including a broker going down."""

import pytest

from tests.conftest import assert_error
from tests.stack import devstack, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db, pytest.mark.restarts_brokers]


def _brokers(client) -> list[dict]:
    response = client.get("/api/v1/clusters/local/brokers")
    assert response.status_code == 200, response.content
    return response.json()


def _broker_ids_while_changing(client) -> list[int] | None:
    """Broker ids, or None while the cluster is answering 502/504 mid-failover."""
    response = client.get("/api/v1/clusters/local/brokers")
    if response.status_code in (502, 504):
        return None
    assert response.status_code == 200, response.content
    return [b["id"] for b in response.json()]


def test_local_cluster_has_three_brokers_and_a_controller(viewer_client, stack, demo_topics):
    clusters = {c["name"]: c for c in viewer_client.get("/api/v1/clusters").json()}
    local = clusters["local"]
    assert local["reachable"] is True
    assert local["broker_count"] == 3
    assert local["bootstrap_servers"] == stack["bootstrap_servers"]
    assert local["cluster_id"]

    detail = viewer_client.get("/api/v1/clusters/local").json()
    assert detail["controller_id"] in {b["id"] for b in detail["brokers"]}
    brokers = _brokers(viewer_client)
    assert [b["id"] for b in brokers] == [1, 2, 3]
    assert {b["port"] for b in brokers} == {b["port"] for b in stack["brokers"]}
    assert sum(b["is_controller"] for b in brokers) == 1
    # Every replica of every partition lives on some broker: RF-3 internal topics at least.
    assert all(b["replica_count"] > 0 for b in brokers)


def test_viewer_cannot_reach_without_token(anon_client):
    assert_error(anon_client.get("/api/v1/clusters/local/brokers"), 401)


def test_stopped_broker_disappears_and_comes_back(viewer_client, stack):
    before = viewer_client.get("/api/v1/clusters/local").json()
    # Stop the controller on purpose: the remaining brokers must elect another one.
    victim = before["controller_id"]
    devstack("stop-broker", str(victim))
    try:
        ids_after = wait_for(
            lambda: (ids := _broker_ids_while_changing(viewer_client)) and len(ids) == 2 and ids,
            timeout=60,
            what=f"broker {victim} to leave the brokers list",
        )
        assert victim not in ids_after
        after = viewer_client.get("/api/v1/clusters/local").json()
        assert after["broker_count"] == 2
        assert after["controller_id"] in ids_after
        assert sum(b["is_controller"] for b in after["brokers"]) == 1
    finally:
        devstack("start-broker", str(victim))
    wait_for(
        lambda: len(_broker_ids_while_changing(viewer_client) or []) == 3,
        timeout=90,
        what=f"broker {victim} to return",
    )


def test_controller_is_the_kraft_quorum_leader(viewer_client, stack):
    """The console's controller is what Apache Kafka's kafka-metadata-quorum calls LeaderId."""
    out = kafka_tool("kafka-metadata-quorum", "describe", "--status").stdout
    leader = int(next(ln for ln in out.splitlines() if ln.startswith("LeaderId:")).split()[1])
    assert viewer_client.get("/api/v1/clusters/local").json()["controller_id"] == leader
