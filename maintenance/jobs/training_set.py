"""training-set: features joined with labels, split at a cut-off date, training negatives cut
to a ratio per positive (maintenance/jobs/pm_model.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_model import step_result, training_set
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    inputs = spec["inputs"]
    path = f"{str(spec['output_dir']).rstrip('/')}/maintenance/training-set-{spec['job_id']}"
    return training_set(
        spark,
        spec["params"],
        step_result(inputs["features_job"], "window-features"),
        step_result(inputs["labels_job"], "failure-labels"),
        path,
    )


if __name__ == "__main__":
    run(main)
