"""Executing a preview executes exactly its plan, or is refused when the plan no longer holds."""

from __future__ import annotations

import pytest

from console.kafka import dev
from console.models import AuditEntry
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "reset-execute"
GROUP = "reset-execute-g"
START = {(TOPIC, 0): 3, (TOPIC, 1): 4}


@pytest.fixture
def group(stack):
    client = cluster_client()
    dev.create_topics(client, [(TOPIC, 2, 3, {})])
    if any(offset < 10 for offset in log_ends(client, list(START)).values()):
        producer = dev.make_producer(client, acks="all")
        for partition in (0, 1):
            for i in range(10):
                producer.produce(TOPIC, value=b"x%d" % i, partition=partition)
        assert producer.flush(30) == 0
    commit_and_wait(client, GROUP, START)
    return client


def _preview(operator_client) -> dict:
    response = operator_client.post(
        f"/api/v1/clusters/local/groups/{GROUP}/offset-resets",
        {
            "scope": {"topics": [{"topic": TOPIC, "partitions": None}]},
            "strategy": {"type": "to_offset", "offset": 7},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_execute_commits_exactly_the_previewed_plan_once(operator_client, group):
    preview = _preview(operator_client)
    assert [r["new_offset"] for r in preview["plan"]] == [7, 7]
    response = operator_client.post(
        f"/api/v1/offset-resets/{preview['id']}/execute", {"reason": "ticket 42"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["id"] == preview["id"] and body["executed"] and body["state"] == "succeeded"
    assert body["reason"] == "ticket 42"
    assert group.committed_offsets({GROUP: None})[GROUP] == dict.fromkeys(START, 7)
    again = operator_client.post(f"/api/v1/offset-resets/{preview['id']}/execute", {}, "json")
    assert_error(again, 409, "already_executed")


def test_execute_is_refused_when_offsets_moved_since_the_preview(operator_client, group):
    preview = _preview(operator_client)
    moved = {(TOPIC, 0): 9, (TOPIC, 1): 4}  # a consumer ran meanwhile, on partition 0
    commit_and_wait(group, GROUP, moved)
    before_audit = AuditEntry.objects.count()
    response = operator_client.post(f"/api/v1/offset-resets/{preview['id']}/execute", {}, "json")
    error = assert_error(response, 409, "plan_stale")
    assert error["details"]["changes"] == [
        {
            "topic": TOPIC,
            "partition": 0,
            "planned_current_offset": 3,
            "current_offset": 9,
            "new_offset": 7,
            "log_start_offset": 0,
            "log_end_offset": error["details"]["changes"][0]["log_end_offset"],
        }
    ]
    assert group.committed_offsets({GROUP: None})[GROUP] == moved  # nothing changed
    entry = AuditEntry.objects.order_by("-id").first()
    assert AuditEntry.objects.count() == before_audit + 1
    assert (entry.action, entry.outcome) == ("offsets.reset.execute", "refused")
    detail = operator_client.get(f"/api/v1/offset-resets/{preview['id']}").json()
    assert detail["executed"] is False and detail["state"] == "planned"


def test_viewer_cannot_execute(viewer_client, operator_client, group):
    preview = _preview(operator_client)
    response = viewer_client.post(f"/api/v1/offset-resets/{preview['id']}/execute", {}, "json")
    assert_error(response, 403)
