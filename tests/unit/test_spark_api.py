"""The Spark jobs API without services: roles, refusals before Kafka, cancel, audit."""

from __future__ import annotations

import pytest

from console.models import AuditEntry
from sparkjobs.models import SparkJob
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db


def _body(**overrides):
    return {"job_type": "topic-export", "cluster": "local", "params": {"topic": "t"}, **overrides}


def test_viewer_reads_but_may_not_submit_or_cancel(viewer_client):
    job = SparkJob.objects.create(job_type="topic-export", cluster="local")
    assert viewer_client.get("/api/v1/spark/job-types").status_code == 200
    assert viewer_client.get(f"/api/v1/spark/jobs/{job.pk}").json()["state"] == "queued"
    assert_error(viewer_client.post("/api/v1/spark/jobs", _body(), format="json"), 403)
    assert_error(viewer_client.post(f"/api/v1/spark/jobs/{job.pk}/cancel"), 403)
    assert SparkJob.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_body(job_type="nope"), "job_type"),
        (_body(cluster="nowhere"), "cluster"),
        (_body(params={"topic": "t", "partitions": "all"}), "params.partitions"),
        (_body(params={}), "params.topic"),
        ({"cluster": "local"}, "job_type"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_saves_nothing(operator_client, body, field):
    error = assert_error(operator_client.post("/api/v1/spark/jobs", body, format="json"), 400)
    assert error["details"]["field"] == field
    assert SparkJob.objects.count() == 0
    entry = AuditEntry.objects.get(action="spark.job.submit")
    assert entry.outcome == "refused"


def test_cancel_a_queued_job_then_again(operator_client):
    job = SparkJob.objects.create(job_type="topic-export", cluster="local")
    answer = operator_client.post(f"/api/v1/spark/jobs/{job.pk}/cancel")
    assert answer.status_code == 200 and answer.json()["state"] == "cancelled"
    assert_error(operator_client.post(f"/api/v1/spark/jobs/{job.pk}/cancel"), 409, "job_finished")
    assert list(AuditEntry.objects.values_list("action", "outcome").order_by("id")) == [
        ("spark.job.cancel", "ok"),
        ("spark.job.cancel", "refused"),
    ]


def test_list_filters_and_unknown_jobs(viewer_client):
    SparkJob.objects.create(job_type="topic-export", cluster="local", state="failed")
    SparkJob.objects.create(job_type="topic-profile", cluster="local")
    rows = viewer_client.get("/api/v1/spark/jobs?state=failed").json()
    assert [r["job_type"] for r in rows] == ["topic-export"]
    rows = viewer_client.get("/api/v1/spark/jobs?job_type=topic-profile").json()
    assert [r["state"] for r in rows] == ["queued"]
    assert_error(viewer_client.get("/api/v1/spark/jobs?state=done"), 400)
    assert_error(viewer_client.get("/api/v1/spark/jobs/999999"), 404)
    assert_error(viewer_client.get("/api/v1/spark/jobs/999999/log"), 404)
