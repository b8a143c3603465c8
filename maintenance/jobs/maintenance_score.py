"""maintenance-score: fresh window features from the alarms topic, then one failure
probability per equipment for their latest day (or `score.day`) with a trained model (the
cluster's active one unless the job names another), in one Spark application, each step
tracked (job_steps.py). The same step functions as the single job types and the pipeline;
the features are written to `{output_dir}/maintenance/window-features-{job_id}`.
"""

from __future__ import annotations

from typing import Any

from common import run
from job_steps import StepRunner
from pipeline_steps import SCORE_STEPS, STEP_KEYS
from pm_features import window_features
from pm_model import score, step_result
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params, job_id = spec["params"], spec["job_id"]
    kafka_options, base = spec["kafka_options"], str(spec["output_dir"]).rstrip("/")
    model = step_result(spec["inputs"]["model_id"], "train-model")
    runner = StepRunner(spark, job_id, SCORE_STEPS, STEP_KEYS, params)
    step = runner.run

    features = step(
        "window-features",
        lambda: window_features(
            spark,
            kafka_options,
            params[STEP_KEYS["window-features"]],
            f"{base}/maintenance/window-features-{job_id}",
        ),
    )
    step(
        "score",
        lambda: score(
            spark,
            kafka_options,
            {**params[STEP_KEYS["score"]], "model_id": params["model_id"], "features_job": job_id},
            model,
            features,
        ),
    )
    return runner.results


if __name__ == "__main__":
    run(main)
