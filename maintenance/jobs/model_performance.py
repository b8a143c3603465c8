"""model-performance: how a model's past predictions turned out, per scored day
(maintenance/jobs/pm_performance.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_model import step_result
from pm_performance import realised_performance
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    model = step_result(spec["inputs"]["model_id"], "train-model")
    return realised_performance(spark, spec["kafka_options"], spec["params"], model)


if __name__ == "__main__":
    run(main)
