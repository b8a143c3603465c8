"""failure-labels: per equipment per day, 1 when it fails within the next horizon days (a
FAILURE alarm or a failure work order), censored days dropped
(maintenance/jobs/pm_features.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_features import failure_labels
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    path = f"{str(spec['output_dir']).rstrip('/')}/maintenance/failure-labels-{spec['job_id']}"
    return failure_labels(spark, spec["kafka_options"], spec["params"], path)


if __name__ == "__main__":
    run(main)
