"""A registered cluster that does not answer is a 504 on every read, never an empty 200."""

from __future__ import annotations

import pytest

from console.clusters import parse_registry
from tests.conftest import assert_error

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

READS = [
    "/api/v1/clusters/dead",
    "/api/v1/clusters/dead/brokers",
    "/api/v1/clusters/dead/topics",
    "/api/v1/clusters/dead/topics/t",
    "/api/v1/clusters/dead/groups",
    "/api/v1/clusters/dead/groups/g",
    "/api/v1/clusters/dead/groups/g/offsets.csv",
]


@pytest.fixture
def dead_cluster(settings):
    dead = parse_registry([{"name": "dead", "bootstrap_servers": "127.0.0.1:1"}], {})
    settings.KAFKA_CLUSTERS = {**settings.KAFKA_CLUSTERS, **dead}
    settings.KAFKA_TIMEOUT_SECONDS = 2


@pytest.mark.parametrize("url", READS)
def test_every_read_of_an_unreachable_cluster_is_504(viewer_client, dead_cluster, url):
    assert_error(viewer_client.get(url), 504, "kafka_timeout")


def test_the_cluster_list_marks_it_unreachable(viewer_client, dead_cluster):
    listed = {c["name"]: c for c in viewer_client.get("/api/v1/clusters").json()}
    assert listed["dead"]["reachable"] is False
