"""Group ids against the real cluster: what Kafka itself accepts in them (control characters,
ids of 1,000 characters and of 32,736 bytes), checked, so docs/api.md states it correctly; and
what the API refuses (control characters, a NUL, an id too long to store or longer than Kafka
carries) is a 400 naming the group, never a 404, 500 or 504 nor an act on another group.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from console.kafka import dev
from groups.models import OffsetReset
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "group-id-limits"
GROUP = "group-id-limits-group"
LONG_GROUP = "group-ids-" + "l" * 990  # 1,000 characters: legal in Kafka
# The protocol carries 32,767 bytes, but Kafka cannot describe a group whose id is within 31
# bytes of that (its own error message about the group no longer fits: UNKNOWN_SERVER_ERROR).
MAX_GROUP = "M" * 32_736
CONTROL_GROUPS = ["group-ids-ctl\nlf", "group-ids-ctl\ttab", "group-ids-ctl\x7fdel"]
GROUP_PATHS = ["", "/offsets.csv", "/offset-resets"]


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


@pytest.mark.parametrize("suffix", GROUP_PATHS, ids=["detail", "offsets-csv", "offset-resets"])
@pytest.mark.parametrize("group", CONTROL_GROUPS, ids=["lf", "tab", "del"])
def test_kafka_accepts_control_characters_in_group_ids_the_api_refuses_them(
    cluster, operator_client, group, suffix
):
    # Kafka takes them (so the choice to refuse is ours, and documented) ...
    commit_and_wait(cluster, group, {(TOPIC, 0): 0})
    # ... the API answers 400 on every group endpoint, never a 404, 500 or a Kafka error.
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
