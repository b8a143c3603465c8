"""Cluster endpoints where no Kafka is needed: unknown names and unreachable clusters."""

import time

import pytest

from console.clusters import ClusterConfig
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def unreachable_cluster(settings):
    # Port 1 on loopback: nothing listens, so Kafka never answers. The only cluster
    # registered: the cluster list asks every registered cluster, and a unit test asks no
    # real one.
    settings.KAFKA_CLUSTERS = {"gone": ClusterConfig("gone", "127.0.0.1:1")}
    settings.KAFKA_TIMEOUT_SECONDS = 2.0
    return "gone"


def test_unknown_cluster_is_404(viewer_client):
    error = assert_error(
        viewer_client.get("/api/v1/clusters/nosuch/brokers"), 404, "cluster_not_found"
    )
    assert "nosuch" in error["message"]


def test_unreachable_cluster_is_504_with_a_sentence(viewer_client, unreachable_cluster):
    started = time.monotonic()
    response = viewer_client.get(f"/api/v1/clusters/{unreachable_cluster}")
    error = assert_error(response, 504, "kafka_timeout")
    assert error["message"].startswith("Kafka did not answer")
    # Bounded by the configured timeout, not a hang.
    assert time.monotonic() - started < 30


def test_unreachable_cluster_is_listed_as_unreachable(viewer_client, unreachable_cluster):
    rows = {row["name"]: row for row in viewer_client.get("/api/v1/clusters").json()}
    assert rows["gone"]["reachable"] is False
    assert rows["gone"]["broker_count"] is None
