"""Values bound for Kafka against the real cluster: where Kafka (or librdkafka) would answer
500, 502 or 504 for what is really bad input (a reset duration past what offsets-for-times
takes, a config value longer than Kafka's answer can carry, a partition count librdkafka
refuses), the console answers 400 naming the field, and nothing changes.
"""

from __future__ import annotations

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "kafka-bound-values"
GROUP = "kafka-bound-values-group"


@pytest.fixture(scope="module")
def cluster(stack):
    client = cluster_client()
    dev.create_topics(client, [(TOPIC, 1, 3, {})])
    log_ends(client, [(TOPIC, 0)])
    commit_and_wait(client, GROUP, {(TOPIC, 0): 0})
    yield client
    try:
        client.delete_group(GROUP)
    except Exception:  # noqa: BLE001 (cleanup: a group that is already gone is fine)
        pass


@pytest.mark.parametrize(
    "duration",
    ["-P1000000000000000000000000000000D", "PT-99999999999999999999999999S", "-P106000000000D"],
    ids=["future-1e30-days", "future-1e28-seconds", "past-year-9999"],
)
def test_durations_into_the_far_future_are_a_400_not_a_500(cluster, operator_client, duration):
    body = {
        "scope": {"all_topics": True},
        "strategy": {"type": "by_duration", "duration": duration},
    }
    url = f"/api/v1/clusters/local/groups/{GROUP}/offset-resets"
    response = operator_client.post(url, body, format="json")
    assert assert_error(response, 400)["details"]["field"] == "strategy.duration"


@pytest.mark.parametrize(
    "configs, field",
    [
        ({"retention.ms": "1" * 30_000}, "set"),  # Kafka's own refusal still fits its answer
        ({"retention.ms": "1" * 32_700}, "set.retention.ms"),  # was 502 UNKNOWN
        ({"cleanup.policy": "é" * 16_000}, "set.cleanup.policy"),  # 32,000 bytes: was 504
    ],
    ids=["kafka-refuses-30000", "over-30000-bytes", "multibyte-over-30000-bytes"],
)
def test_long_config_values_are_a_400(cluster, admin_client_api, configs, field):
    url = f"/api/v1/clusters/local/topics/{TOPIC}/configs"
    response = admin_client_api.patch(url, {"set": configs}, format="json")
    assert assert_error(response, 400)["details"]["field"] == field
    detail = admin_client_api.get(f"/api/v1/clusters/local/topics/{TOPIC}").json()
    assert detail["configs"]["retention.ms"] != configs.get("retention.ms")  # nothing changed


@pytest.mark.parametrize(
    "url, body, field",
    [
        (
            "/api/v1/clusters/local/topics",
            {"name": "kafka-bound-values-huge", "partitions": 2**31 - 1, "replication_factor": 1},
            "partitions",
        ),
        (f"/api/v1/clusters/local/topics/{TOPIC}/partitions", {"count": 2**31 - 1}, "count"),
    ],
    ids=["create-int32-max", "add-int32-max"],
)
def test_partition_counts_librdkafka_refuses_are_a_400_not_a_500(
    cluster, admin_client_api, url, body, field
):
    response = admin_client_api.post(url, body, format="json")
    assert assert_error(response, 400)["details"]["field"] == field
    assert len(cluster.topic_metadata(TOPIC)[0].partitions) == 1
