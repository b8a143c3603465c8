"""A topic-export's download file (GET spark/jobs/{id}/download; docs/spark-jobs.md,
"Downloading an export"): found from the job, never from a path taken as given.

The job's result is data a script wrote: its `download.path` is only ever joined to the
export's own directory under SPARK_OUTPUT_DIR, and what that resolves to (symlinks followed)
must be a file inside that directory, else there is no download.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from django.conf import settings

from console.errors import NotFound
from sparkjobs.choices import JobState
from sparkjobs.jobs.export_files import export_dir_name, local_dir
from sparkjobs.models import SparkJob

log = logging.getLogger(__name__)

EXPORT_JOB_TYPE = "topic-export"
CONTENT_TYPE = "application/gzip"


@dataclass(frozen=True)
class Download:
    path: Path  # resolved, inside the export's directory
    filename: str  # what the browser saves it as


def _none(job: SparkJob, reason: str, message: str) -> NoReturn:
    raise NotFound(message, code="no_download", details={"job_id": job.pk, "reason": reason})


def export_download(job: SparkJob) -> Download:
    """The job's download file, or NotFound `no_download` with `details.reason`: not_export,
    not_succeeded, not_written (download_skipped's text in the message), remote_output, gone,
    outside_output_dir."""
    if job.job_type != EXPORT_JOB_TYPE:
        _none(
            job,
            "not_export",
            f"Spark job {job.pk} is a {job.job_type} job: only a "
            f"{EXPORT_JOB_TYPE} has a file to download.",
        )
    if job.state != JobState.SUCCEEDED:
        _none(
            job,
            "not_succeeded",
            f"Spark job {job.pk} is {job.state}: only a succeeded export has a file to download.",
        )
    result = job.result if isinstance(job.result, dict) else {}
    download = result.get("download")
    relative = download.get("path") if isinstance(download, dict) else None
    if not isinstance(relative, str) or not relative:
        why = result.get("download_skipped")
        _none(
            job,
            "not_written",
            f"Spark job {job.pk} wrote no file to download"
            + (f": {why}" if isinstance(why, str) and why else "."),
        )
    base = local_dir(str(settings.SPARK_OUTPUT_DIR))
    if base is None:
        _none(
            job,
            "remote_output",
            f"The export directory {settings.SPARK_OUTPUT_DIR} is "
            "remote: the console serves downloads from a local one only.",
        )
    params = job.params if isinstance(job.params, dict) else {}
    gone = (
        f"Spark job {job.pk}'s download file is no longer in {settings.SPARK_OUTPUT_DIR} "
        "(deleted or moved)."
    )
    try:
        root = Path(base).resolve(strict=True)
        export_dir = (root / export_dir_name(params, job.pk)).resolve(strict=True)
        path = (export_dir / relative).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a symlink loop, a NUL byte
        _none(job, "gone", gone)
    if not (export_dir.is_relative_to(root) and path.is_relative_to(export_dir)):
        log.warning("job %s: download path %r leads out of its export directory", job.pk, relative)
        _none(
            job,
            "outside_output_dir",
            f"Spark job {job.pk}'s download path leads out of "
            "its export directory: it is not served.",
        )
    if not path.is_file():
        _none(job, "gone", gone)
    topic = params.get("topic") if isinstance(params.get("topic"), str) else "export"
    return Download(path=path, filename=f"{topic}-{job.pk}.jsonl.gz")
