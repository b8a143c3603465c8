"""score: one failure probability per equipment for one day of features, written to the
predictions topic with Spark's Kafka sink (maintenance/jobs/pm_model.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_model import score, step_result
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    inputs = spec["inputs"]
    return score(
        spark,
        spec["kafka_options"],
        spec["params"],
        step_result(inputs["model_id"], "train-model"),
        step_result(inputs["features_job"], "window-features"),
    )


if __name__ == "__main__":
    run(main)
