"""Bad input against the real cluster: where Kafka (or librdkafka) would answer 500, 502 or
504 for something that is really bad input, the console answers 400 naming the field; and
what Kafka itself accepts in group ids, checked, so docs/api.md states it correctly."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from console.kafka import dev
from groups.models import OffsetReset
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "hardening-live"
GROUP = "hardening-live-group"
LONG_GROUP = "hardening-" + "l" * 990  # 1,000 characters: legal in Kafka
# The protocol carries 32,767 bytes, but Kafka cannot describe a group whose id is within 31
# bytes of that (its own error message about the group no longer fits: UNKNOWN_SERVER_ERROR).
MAX_GROUP = "M" * 32_736
CONTROL_GROUPS = ["hardening-ctl\nlf", "hardening-ctl\ttab", "hardening-ctl\x7fdel"]


@pytest.fixture(scope="module")
def cluster(stack):
    client = cluster_client()
    dev.create_topics(client, [(TOPIC, 1, 3, {})])
    log_ends(client, [(TOPIC, 0)])
    for group in (GROUP, LONG_GROUP, MAX_GROUP):
        commit_and_wait(client, group, {(TOPIC, 0): 0})
    yield client
    for group in (GROUP, LONG_GROUP, MAX_GROUP, *CONTROL_GROUPS):
        try:
            client.delete_group(group)
        except Exception:  # noqa: BLE001 (cleanup: a group that is already gone is fine)
            pass


def group_url(group: str, suffix: str = "") -> str:
    return f"/api/v1/clusters/local/groups/{quote(group, safe='')}{suffix}"


@pytest.mark.parametrize("group", CONTROL_GROUPS, ids=["lf", "tab", "del"])
def test_kafka_accepts_control_characters_in_group_ids_the_api_refuses_them(
    cluster, operator_client, group
):
    # Kafka takes them (so the choice to refuse is ours, and documented) ...
    commit_and_wait(cluster, group, {(TOPIC, 0): 0})
    # ... the API answers 400 on every group endpoint, never a 404, 500 or a Kafka error.
    for suffix in ("", "/offsets.csv", "/offset-resets"):
        error = assert_error(operator_client.get(group_url(group, suffix)), 400)
        assert error["details"]["field"] == "group"


def test_a_nul_in_a_group_id_never_reaches_librdkafka(cluster, operator_client):
    # librdkafka reads names as C strings: "x\0y" would act on group "x". Refused first.
    error = assert_error(operator_client.delete(group_url(GROUP + "\x00other")), 400)
    assert error["details"]["field"] == "group"
    assert cluster.committed_offsets({GROUP: [(TOPIC, 0)]})[GROUP] == {(TOPIC, 0): 0}


@pytest.mark.parametrize("group", [LONG_GROUP, MAX_GROUP], ids=["1000-chars", "32736-bytes"])
def test_long_group_ids_are_readable(cluster, operator_client, group):
    detail = operator_client.get(group_url(group))
    assert detail.status_code == 200, detail.content[:300]
    assert detail.json()["group_id"] == group
    csv = operator_client.get(group_url(group, "/offsets.csv"))
    assert csv.status_code == 200 and csv.content.decode() == f"{TOPIC},0,0\n"
    assert len(csv["Content-Disposition"]) < 1000  # a file name, not the whole id
    assert operator_client.get(group_url(group, "/offset-resets")).json() == []


def test_a_reset_of_a_group_id_too_long_to_store_is_a_400(cluster, operator_client):
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}}
    response = operator_client.post(group_url(LONG_GROUP, "/offset-resets"), body, format="json")
    assert assert_error(response, 400)["details"]["field"] == "group"
    assert not OffsetReset.objects.exists()


def test_a_group_id_longer_than_kafka_carries_is_a_400_not_a_504(cluster, operator_client):
    error = assert_error(operator_client.get(group_url("N" * 32_768)), 400)
    assert error["details"]["field"] == "group"


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
    response = operator_client.post(group_url(GROUP, "/offset-resets"), body, format="json")
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
            {"name": "hardening-huge", "partitions": 2**31 - 1, "replication_factor": 1},
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
