"""window-features: per equipment per day, trailing-window counts of fault codes, the severity
sum and sensor maxima from the alarms topic (maintenance/jobs/pm_features.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_features import window_features
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    path = f"{str(spec['output_dir']).rstrip('/')}/maintenance/window-features-{spec['job_id']}"
    return window_features(spark, spec["kafka_options"], spec["params"], path)


if __name__ == "__main__":
    run(main)
