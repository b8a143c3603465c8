"""A topic-export's download (GET spark/jobs/{id}/download): the file a job row points at,
under a temporary SPARK_OUTPUT_DIR, served to a viewer; every way of having none is a 404
`no_download`; a result's path never leads out of the export's directory."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from sparkjobs.catalog import JOB_TYPES
from sparkjobs.job_types import result_problem, validate_params
from sparkjobs.jobs.export_files import DOWNLOAD_PATH, export_dir_name, local_dir
from sparkjobs.models import SparkJob
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db

EXPORT = JOB_TYPES["topic-export"]
LINES = [
    {"partition": 0, "offset": 3, "key": "k", "key_encoding": "utf-8", "value": "v"},
    {"partition": 1, "offset": 0, "key": None, "key_encoding": None, "value": "/wA="},
]


@pytest.fixture
def output_dir(tmp_path, settings) -> Path:
    out = tmp_path / "output"
    out.mkdir()
    settings.SPARK_OUTPUT_DIR = str(out)
    return out


def _export(
    output_dir: Path, *, state: str = "succeeded", path: str = DOWNLOAD_PATH, **params
) -> SparkJob:
    """A succeeded export of topic `orders` whose download file exists, as the script
    writes it."""
    job = SparkJob.objects.create(
        job_type="topic-export",
        cluster="local",
        state=state,
        params=validate_params(EXPORT, {"topic": "orders", **params}),
    )
    where = output_dir / export_dir_name(job.params, job.pk)
    body = gzip.compress("".join(json.dumps(line) + "\n" for line in LINES).encode())
    if path == DOWNLOAD_PATH:
        (where / DOWNLOAD_PATH).parent.mkdir(parents=True)
        (where / DOWNLOAD_PATH).write_bytes(body)
    job.result = {
        "rows": 2,
        "bytes": 100,
        "files": 1,
        "output_path": str(where),
        "partitions": {"0": 1, "1": 1},
        "ranges": {"0": [3, 4], "1": [0, 1]},
        "download": {"path": path, "bytes": len(body), "records": 2, "format": "jsonl.gz"},
        "download_skipped": None,
    }
    assert result_problem(EXPORT, job.result) is None
    job.save()
    return job


def _url(job: SparkJob | int) -> str:
    return f"/api/v1/spark/jobs/{getattr(job, 'pk', job)}/download"


def test_a_viewer_downloads_the_file_with_its_name_and_size(viewer_client, output_dir):
    job = _export(output_dir)
    response = viewer_client.get(_url(job))
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert len(body) == job.result["download"]["bytes"]
    assert response["Content-Length"] == str(len(body))
    assert response["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in response  # the browser saves the .gz as it is
    disposition = response["Content-Disposition"]
    assert disposition.startswith(f'attachment; filename="orders-{job.pk}.jsonl.gz"')
    lines = gzip.decompress(body).decode().splitlines()
    assert [json.loads(line) for line in lines] == LINES


def test_an_export_with_an_output_name_is_found_there(viewer_client, output_dir):
    job = _export(output_dir, output_name="nightly")
    assert (output_dir / "nightly" / DOWNLOAD_PATH).is_file()
    assert viewer_client.get(_url(job)).status_code == 200


def test_anonymous_is_401(anon_client, output_dir):
    assert_error(anon_client.get(_url(_export(output_dir))), 401)


def test_an_unknown_job_is_404(viewer_client, output_dir):
    assert_error(viewer_client.get(_url(999999)), 404, "not_found")


def _reason(client, job) -> str:
    error = assert_error(client.get(_url(job)), 404, "no_download")
    assert error["details"]["job_id"] == job.pk
    return error["details"]["reason"]


def test_a_job_that_is_not_an_export_has_none(viewer_client, output_dir):
    job = SparkJob.objects.create(job_type="topic-profile", cluster="local", state="succeeded")
    assert _reason(viewer_client, job) == "not_export"


@pytest.mark.parametrize("state", ["queued", "running", "failed", "cancelled"])
def test_an_export_that_did_not_succeed_has_none(viewer_client, output_dir, state):
    assert _reason(viewer_client, _export(output_dir, state=state)) == "not_succeeded"


def test_an_export_that_wrote_none_says_why(viewer_client, output_dir):
    job = _export(output_dir)
    job.result = {
        **job.result,
        "download": None,
        "download_skipped": "The output directory hdfs://nn/exports is remote: ...",
    }
    assert result_problem(EXPORT, job.result) is None
    job.save()
    error = assert_error(viewer_client.get(_url(job)), 404, "no_download")
    assert error["details"]["reason"] == "not_written"
    assert "hdfs://nn/exports is remote" in error["message"]


def test_an_export_from_before_downloads_has_none(viewer_client, output_dir):
    job = _export(output_dir)
    job.result = {k: v for k, v in job.result.items() if not k.startswith("download")}
    job.save()
    assert _reason(viewer_client, job) == "not_written"


def test_a_remote_output_directory_serves_none(viewer_client, output_dir, settings):
    job = _export(output_dir)
    settings.SPARK_OUTPUT_DIR = "hdfs://namenode:8020/exports"
    assert _reason(viewer_client, job) == "remote_output"


def test_a_file_uri_output_directory_is_local(viewer_client, output_dir, settings):
    job = _export(output_dir)
    settings.SPARK_OUTPUT_DIR = output_dir.as_uri()  # file:///...
    assert viewer_client.get(_url(job)).status_code == 200


def test_a_deleted_file_is_gone(viewer_client, output_dir):
    job = _export(output_dir)
    (output_dir / f"export-{job.pk}" / DOWNLOAD_PATH).unlink()
    assert _reason(viewer_client, job) == "gone"


def test_a_directory_is_not_a_file(viewer_client, output_dir):
    job = _export(output_dir)
    job.result["download"]["path"] = "_download"
    job.save()
    assert _reason(viewer_client, job) == "gone"


@pytest.mark.parametrize(
    "path",
    ["../../secret.txt", "../secret.txt", "{secret}", "_download/../../secret.txt"],
)
def test_a_result_path_out_of_the_export_directory_is_refused(
    viewer_client, output_dir, tmp_path, path
):
    secret = tmp_path / "secret.txt"  # beside SPARK_OUTPUT_DIR, not in it
    secret.write_text("not yours")
    (output_dir / "secret.txt").write_text("another export's")
    job = _export(output_dir, path=path.format(secret=secret))
    (output_dir / f"export-{job.pk}" / "_download").mkdir(parents=True)
    response = viewer_client.get(_url(job))
    error = assert_error(response, 404, "no_download")
    assert error["details"]["reason"] == "outside_output_dir"
    assert b"not yours" not in response.content and b"another" not in response.content


def test_a_symlink_out_of_the_export_directory_is_refused(viewer_client, output_dir, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("not yours")
    job = _export(output_dir)
    target = output_dir / f"export-{job.pk}" / DOWNLOAD_PATH
    target.unlink()
    target.symlink_to(secret)
    assert _reason(viewer_client, job) == "outside_output_dir"


def test_an_output_name_out_of_the_output_directory_is_refused(viewer_client, output_dir):
    """Params are checked at submit; a row written otherwise is not trusted either."""
    job = _export(output_dir)
    job.params = {**job.params, "output_name": ".."}
    job.save()
    (output_dir.parent / DOWNLOAD_PATH).parent.mkdir(parents=True)
    (output_dir.parent / DOWNLOAD_PATH).write_bytes(b"outside")
    assert _reason(viewer_client, job) == "outside_output_dir"


@pytest.mark.parametrize(
    ("uri", "local"),
    [
        ("/data/spark/output", "/data/spark/output"),
        ("relative/output", "relative/output"),
        ("file:///data/out", "/data/out"),
        ("file:/data/out", "/data/out"),
        ("file://localhost/data/out", "/data/out"),
        ("file://otherhost/data/out", None),
        ("hdfs://namenode:8020/exports", None),
        ("s3a://bucket/exports", None),
    ],
)
def test_which_output_directories_are_local(uri, local):
    assert local_dir(uri) == local


def test_the_download_param_defaults_to_true():
    assert validate_params(EXPORT, {"topic": "t"})["download"] is True


@pytest.fixture
def export_script(driver_script):
    from sparkjobs.job_types import JOBS_DIR

    return driver_script(JOBS_DIR / "topic_export.py")


SPEC = {"params": {"download": True}, "output_dir": "/out", "download_max_bytes": 1000}


@pytest.mark.parametrize(
    ("spec", "parquet_bytes", "rows", "why"),
    [
        ({"params": {"download": False}}, 10, 1, "params.download is false"),
        ({"output_dir": "hdfs://nn/exports"}, 10, 1, "hdfs://nn/exports is remote"),
        ({"output_dir": "s3a://bucket/x"}, 10, 1, "is remote"),
        ({"download_max_bytes": 0}, 10, 1, "SPARK_DOWNLOAD_MAX_BYTES is 0"),
        ({}, 10, 0, "no records"),
        ({}, 1001, 1, "over SPARK_DOWNLOAD_MAX_BYTES (1000)"),
    ],
)
def test_the_script_says_why_it_writes_no_download(export_script, spec, parquet_bytes, rows, why):
    """Decided before Spark is asked for anything (`spark` is None here)."""
    full = {**SPEC, **spec}
    download, skipped = export_script.write_download(None, "/out/x", parquet_bytes, rows, full)
    assert download is None and why in skipped
