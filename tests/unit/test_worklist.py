"""The maintenance worklist without Kafka: which events are an outcome and which outcome a
prediction shows, the crew's marks (the newest holds), and the API's refusals before Kafka.
The real reads (predictions, alarms and work orders) are tests/integration/test_pm_model.py."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from console.models import AuditEntry
from devtools.demo import maintenance_history as history
from maintenance import worklist
from maintenance.jobs import JOBS_DIR
from maintenance.models import WorklistMark
from tests.conftest import assert_error
from tests.unit.conftest import module_from_file

DAY = "2026-03-30"
AFTER = int(datetime(2026, 3, 31, tzinfo=UTC).timestamp() * 1000)  # the next UTC midnight


def _value(**fields: object) -> bytes:
    return json.dumps(fields).encode()


def test_the_failure_signs_are_those_the_history_writes_and_the_labels_read():
    features = module_from_file(JOBS_DIR / "pm_features.py")
    assert worklist.FAILURE_CODE == history.FAILURE == features.FAILURE_CODE
    assert worklist.FAILURE_WORK_ORDER == features.FAILURE_WORK_ORDER
    assert worklist.FAILURE_WORK_ORDER in {kind for kind, _ in history.FAILURE_KINDS} | {"failure"}


def test_failures_come_from_failure_alarms_and_failure_work_orders_only():
    alarms = worklist.alarm_events(
        [
            (b"eq-1", _value(equipment_id="eq-1", fault_code="FAILURE"), AFTER + 5),
            (b"eq-1", _value(equipment_id="eq-1", fault_code="E303-VIBRATION"), AFTER + 6),
            (b"eq-2", b"not json", AFTER),
            (b"eq-3", _value(equipment_id="eq-3", fault_code="FAILURE"), None),  # no time
        ]
    )
    assert alarms == [worklist.Event("eq-1", "failure", AFTER + 5, "FAILURE")]
    orders = worklist.work_order_events(
        [
            (b"eq-1", _value(equipment_id="eq-1", type="failure"), AFTER + 1),
            (b"eq-2", _value(equipment_id="eq-2", type="inspection"), AFTER + 2),
            (b"__backfill__", _value(kind="marker", state="complete"), AFTER),
        ]
    )
    assert orders == [
        worklist.Event("eq-1", "failure", AFTER + 1, "failure"),
        worklist.Event("eq-2", "work_order", AFTER + 2, "inspection"),
    ]


def test_the_outcome_is_what_happened_after_the_scored_day_a_failure_first():
    prediction = {"equipment_id": "eq-1", "day": DAY}
    events = [
        worklist.Event("eq-1", "failure", AFTER - 1, "FAILURE"),  # on the scored day: before
        worklist.Event("eq-1", "work_order", AFTER + 10, "inspection"),
        worklist.Event("eq-1", "failure", AFTER + 500, "failure"),
        worklist.Event("eq-1", "failure", AFTER + 300, "FAILURE"),
        worklist.Event("eq-2", "failure", AFTER + 1, "FAILURE"),  # another equipment
    ]
    outcome = worklist.outcome_of(prediction, events)
    assert outcome == {
        "outcome": "failure",
        "outcome_at": datetime.fromtimestamp((AFTER + 300) / 1000, UTC),
        "outcome_detail": "FAILURE",
    }
    assert worklist.outcome_of(prediction, events[:2])["outcome"] == "work_order"
    assert worklist.outcome_of(prediction, events[:1])["outcome"] is None
    assert worklist.outcome_of({"equipment_id": "eq-1", "day": None}, events)["outcome"] is None
    assert worklist.after_day_ms(DAY) == AFTER
    assert worklist.after_day_ms("30/03/2026") is None


@pytest.mark.django_db
def test_the_newest_mark_of_an_equipment_is_its_status(django_user_model):
    crew = django_user_model.objects.create_user("crew")
    first = WorklistMark.objects.create(
        cluster="local", equipment_id="eq-1", status="acknowledged", note="seen", marked_by=crew
    )
    WorklistMark.objects.create(cluster="local", equipment_id="eq-1", status="inspected")
    WorklistMark.objects.create(cluster="other", equipment_id="eq-2", status="dismissed")
    marks = worklist.latest_marks("local", ["eq-1", "eq-2"])
    assert set(marks) == {"eq-1"} and marks["eq-1"].status == "inspected"
    assert first.pk in WorklistMark.objects.values_list("pk", flat=True)  # history kept

    predictions = [
        {"equipment_id": "eq-1", "day": DAY, "failure_probability": 0.9},
        {"equipment_id": "eq-2", "day": DAY, "failure_probability": 0.4},
    ]
    rows = worklist.items(predictions, [], marks)
    assert [(r["equipment_id"], r["status"]) for r in rows] == [
        ("eq-1", "inspected"),
        ("eq-2", "open"),  # its mark is on another cluster
    ]
    assert rows[1]["note"] == "" and rows[1]["marked_at"] is None


@pytest.mark.django_db
def test_the_api_refuses_before_reading_kafka_and_saves_nothing(viewer_client, operator_client):
    response = viewer_client.get("/api/v1/maintenance/worklist")
    assert assert_error(response, 400, "invalid")["details"]["field"] == "cluster"
    response = viewer_client.get("/api/v1/maintenance/worklist?cluster=local&alarms_topic=a%20b")
    assert assert_error(response, 400, "invalid")["details"]["field"] == "alarms_topic"
    response = viewer_client.get("/api/v1/maintenance/worklist?cluster=local&limit=0")
    assert assert_error(response, 400, "invalid")["details"]["field"] == "limit"
    response = viewer_client.post(
        "/api/v1/maintenance/worklist/eq-1?cluster=local",
        {"status": "acknowledged"},
        format="json",
    )
    assert_error(response, 403, "permission_denied")

    url = "/api/v1/maintenance/worklist/eq-1?cluster=local"
    for body, field in [
        ({"status": "fixed"}, "status"),
        ({}, "status"),
        ({"status": "acknowledged", "note": "x" * 1001}, "note"),
        ({"status": "acknowledged", "notes": "typo"}, "notes"),
    ]:
        response = operator_client.post(url, body, format="json")
        assert assert_error(response, 400, "invalid")["details"]["field"] == field, body
    response = operator_client.post(
        "/api/v1/maintenance/worklist/eq-1", {"status": "inspected"}, format="json"
    )
    assert assert_error(response, 400, "invalid")["details"]["field"] == "cluster"
    response = operator_client.post(
        "/api/v1/maintenance/worklist/eq-1?cluster=nowhere", {"status": "inspected"}, format="json"
    )
    assert_error(response, 404, "cluster_not_found")
    assert not WorklistMark.objects.exists()
    audited = AuditEntry.objects.filter(action="maintenance.worklist.mark")
    assert audited.count() == 6 and not audited.filter(outcome="ok").exists()
