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


def test_registry_entries_of_one_kafka_cluster_name_each_other(
    viewer_client, settings, monkeypatch
):
    """The dev registry's `local` (PLAINTEXT) and `local-secure` (SASL_SSL) reach the same
    brokers: DescribeCluster gives both the same cluster id, and the list says so."""
    from console import kafka
    from topics import cluster_overview

    ids = {"local": "MkU3", "other": "T3Ro", "local-secure": "MkU3", "gone": None}
    settings.KAFKA_CLUSTERS = {name: ClusterConfig(name, f"{name}:9092") for name in ids}

    class Client:
        def __init__(self, cfg: ClusterConfig):
            self.cfg = cfg

        def describe_cluster(self) -> kafka.ClusterDescription:
            if ids[self.cfg.name] is None:
                raise kafka.KafkaTimeout("Kafka did not answer.", code="kafka_timeout")
            return kafka.ClusterDescription(ids[self.cfg.name], 1, [])

    monkeypatch.setattr(cluster_overview.kafka, "for_cluster", lambda cfg, timeout: Client(cfg))
    rows = viewer_client.get("/api/v1/clusters").json()
    assert [(r["name"], r["same_cluster_as"]) for r in rows] == [
        ("local", ["local-secure"]),
        ("other", []),
        ("local-secure", ["local"]),
        ("gone", []),  # unreachable: no id to compare
    ]
