"""Where a topic-export writes, written once for both sides: the script (topic_export.py
imports it from its own directory, as the Spark driver runs it) and the console (the download
endpoint, sparkjobs/downloads.py). Pure Python: the console imports it without Spark."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

# The download file, relative to the export's directory. Under a directory whose name starts
# with `_`, which Spark's and pyarrow's Parquet readers skip: the export directory still reads
# as one Parquet dataset.
DOWNLOAD_DIR = "_download"
DOWNLOAD_PATH = f"{DOWNLOAD_DIR}/export.jsonl.gz"
DOWNLOAD_FORMAT = "jsonl.gz"


def export_dir_name(params: dict[str, Any], job_id: int) -> str:
    """The export's directory under the output directory: `output_name`, else export-<job id>."""
    return params.get("output_name") or f"export-{job_id}"


def local_dir(uri: str) -> str | None:
    """The local path an output directory names: a plain path or a `file:` URI (no host, or
    localhost); None when it is remote (hdfs://, s3a://, any other scheme)."""
    parsed = urlparse(uri)
    if parsed.scheme == "":
        return uri
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost") and parsed.path:
        return parsed.path
    return None
