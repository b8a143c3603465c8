"""The Spark jobs API without services: roles, refusals before Kafka, cancel, audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from console.models import AuditEntry
from sparkjobs import log_lines, runner, service
from sparkjobs.choices import JobState
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


# --- the driver log and the lines that explain a failure ------------------------------------------

DRIVER_LOG = Path(__file__).parent / "spark_logs" / "task_failure_driver.log"


def _log_job(tmp_path: Path, text: str | None = None) -> SparkJob:
    path = tmp_path / "driver.log"
    path.write_text(DRIVER_LOG.read_text() if text is None else text)
    return SparkJob.objects.create(
        job_type="topic-profile", cluster="local", state="failed", log_path=str(path)
    )


def _text(response) -> str:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode()


def test_the_log_whole_filtered_or_its_last_lines(viewer_client, tmp_path):
    job = _log_job(tmp_path)
    whole = DRIVER_LOG.read_text()
    lines = whole.splitlines(keepends=True)
    warn = log_lines.filtered(lines, "warn")
    url = f"/api/v1/spark/jobs/{job.pk}/log"
    assert _text(viewer_client.get(url)) == whole
    assert _text(viewer_client.get(f"{url}?level=all")) == whole
    assert _text(viewer_client.get(f"{url}?level=warn")) == "".join(warn)
    assert len(warn) < len(lines) and " INFO " not in "".join(warn[:5])
    assert _text(viewer_client.get(f"{url}?lines=3")) == "".join(lines[-3:])
    assert _text(viewer_client.get(f"{url}?level=warn&lines=4")) == "".join(warn[-4:])
    assert _text(viewer_client.get(f"{url}?level=warn&lines=10000")) == "".join(warn)
    assert _text(viewer_client.get(f"{url}?level=&lines=")) == whole  # empty: the default


def test_the_log_falls_back_to_the_kept_tail(viewer_client):
    tail = "26/11/25 16:06:52 INFO A: chatter\n26/11/25 16:06:52 WARN B: careful\nprinted\n"
    job = SparkJob.objects.create(job_type="topic-profile", cluster="local", log_tail=tail)
    url = f"/api/v1/spark/jobs/{job.pk}/log"
    assert _text(viewer_client.get(url)) == tail
    assert _text(viewer_client.get(f"{url}?level=warn")) == (
        "26/11/25 16:06:52 WARN B: careful\nprinted\n"
    )
    assert _text(viewer_client.get(f"{url}?lines=1")) == "printed\n"


def test_a_long_line_is_cut_when_the_log_is_read_line_by_line(viewer_client, tmp_path):
    size = service.LOG_LINE_CHARS
    long = "26/11/25 16:06:52 WARN Planner: " + "x" * (3 * size)
    exact = "y" * size  # no cut: its line end only comes after the limit
    job = _log_job(tmp_path, f"{long}\n{exact}\nlast\n")
    url = f"/api/v1/spark/jobs/{job.pk}/log"
    assert _text(viewer_client.get(f"{url}?lines=3")) == f"{long[:size]}…\n{exact}\nlast\n"
    assert _text(viewer_client.get(url)) == f"{long}\n{exact}\nlast\n"  # the whole log: as is


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("level=info", "level"),
        ("level=WARN", "level"),
        ("lines=0", "lines"),
        ("lines=10001", "lines"),
        ("lines=-1", "lines"),
        ("lines=ten", "lines"),
        ("lines=%C2%B2", "lines"),  # "²": isdigit() but not a number
        ("level=warn&level=all", "level"),
        ("levels=warn", "levels"),
        ("tail=10", "tail"),
    ],
)
def test_a_bad_log_query_is_a_400_naming_it(viewer_client, tmp_path, query, field):
    job = _log_job(tmp_path)
    response = viewer_client.get(f"/api/v1/spark/jobs/{job.pk}/log?{query}")
    assert assert_error(response, 400)["details"]["field"] == field


def test_the_log_s_parameters_are_documented(viewer_client):
    operation = viewer_client.get("/api/v1/schema/?format=json").json()["paths"][
        "/api/v1/spark/jobs/{job_id}/log"
    ]["get"]
    params = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
    assert set(params) == {"level", "lines"}
    assert params["level"]["schema"] == {"type": "string", "enum": ["all", "warn"]}
    assert params["lines"]["schema"]["type"] == "integer"


def test_a_job_has_its_failure_lines(viewer_client):
    lines = ["26/11/25 16:06:52 ERROR TaskSetManager: Task 0 failed", "ValueError: bad"]
    failed = SparkJob.objects.create(
        job_type="topic-profile", cluster="local", state="failed", failure_lines=lines
    )
    queued = SparkJob.objects.create(job_type="topic-profile", cluster="local")
    assert viewer_client.get(f"/api/v1/spark/jobs/{failed.pk}").json()["failure_lines"] == lines
    assert viewer_client.get(f"/api/v1/spark/jobs/{queued.pk}").json()["failure_lines"] == []
    rows = viewer_client.get("/api/v1/spark/jobs").json()
    assert [r["failure_lines"] for r in rows] == [[], lines]


class _Exited:
    def __init__(self, returncode: int):
        self.returncode = returncode

    def wait(self) -> int:
        return self.returncode


@pytest.mark.parametrize("script_error", ["", "Py4JJavaError: An error occurred while calling x."])
def test_the_runner_keeps_a_failed_job_s_failure_lines(tmp_path, script_error):
    job = SparkJob.objects.create(job_type="topic-profile", cluster="local", state="running")
    (tmp_path / "driver.log").write_text(DRIVER_LOG.read_text())
    if script_error:
        (tmp_path / "error.txt").write_text(script_error)
    out = runner.DriverOutput()
    assert runner._finish(job, _Exited(1), out, "exited", tmp_path) == JobState.FAILED
    job.refresh_from_db()
    assert job.error == (
        "IllegalArgumentException: Invalid UUID string: not-a-uuid — while calling "
        "o39.collectToPython"
    )
    expected = log_lines.failure_lines(DRIVER_LOG.read_text().splitlines())
    assert job.failure_lines == expected
    assert expected[-1] == "Caused by: java.lang.reflect.InvocationTargetException"


def test_a_job_that_succeeded_has_no_failure_lines(tmp_path):
    job = SparkJob.objects.create(job_type="topic-export", cluster="local", state="running")
    (tmp_path / "driver.log").write_text(DRIVER_LOG.read_text())  # ERROR lines, yet it succeeded
    result = {
        "rows": 57,
        "bytes": 5321,
        "files": 2,
        "output_path": "/data/spark/output/export-7",
        "partitions": {"0": 27, "1": 30},
        "ranges": {"0": [3, 30], "1": [0, 30]},
        "download": {
            "path": "_download/export.jsonl.gz",
            "bytes": 4096,
            "records": 57,
            "format": "jsonl.gz",
        },
    }
    (tmp_path / "result.json").write_text(json.dumps(result))
    state = runner._finish(job, _Exited(0), runner.DriverOutput(), "exited", tmp_path)
    job.refresh_from_db()
    assert (state, job.failure_lines) == (JobState.SUCCEEDED, [])
