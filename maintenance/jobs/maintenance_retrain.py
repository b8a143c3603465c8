"""maintenance-retrain: the pipeline's steps up to the model with a rolling cut-off, then the
challenge, in one Spark application, each step tracked (job_steps.py).

The cut-off is not a param: it is rolled from the features' last day so that the test part is
the newest `training.test_days` labelled days (rolling.py), and the training
set's result says which day it was. The challenge measures the new model and the champion
(`champion_id`, the active model at submit) on that test part. The steps are those of
pipeline_steps.RETRAIN_STEPS; output paths are the pipeline's, with this job's id (the model
id is the job id).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from common import run
from job_steps import StepRunner
from pipeline_steps import CHALLENGE_STEP, RETRAIN_KEYS, RETRAIN_STEPS
from pm_challenge import challenge
from pm_features import failure_labels, window_features
from pm_model import train_model, training_set
from pyspark.sql import SparkSession
from rolling import rolling_cutoff


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params, job_id = spec["params"], spec["job_id"]
    kafka_options, base = spec["kafka_options"], str(spec["output_dir"]).rstrip("/")

    def path(step: str) -> str:
        return f"{base}/maintenance/{step}-{job_id}"

    def own(step: str) -> dict[str, Any]:
        return dict(params[RETRAIN_KEYS[step]])

    runner = StepRunner(spark, job_id, RETRAIN_STEPS, RETRAIN_KEYS, params)
    step = runner.run
    features = step(
        "window-features",
        lambda: window_features(
            spark, kafka_options, own("window-features"), path("window-features")
        ),
    )
    labels = step(
        "failure-labels",
        lambda: failure_labels(spark, kafka_options, own("failure-labels"), path("failure-labels")),
    )

    def training_step() -> dict[str, Any]:
        wanted = own("training-set")
        test_days = int(wanted.pop("test_days"))
        cutoff = rolling_cutoff(
            date.fromisoformat(str(features["last_day"])), int(labels["horizon_days"]), test_days
        )
        wired = {**wanted, "cutoff_date": cutoff.isoformat()}
        try:
            return training_set(spark, wired, features, labels, path("training-set"))
        except ValueError as exc:
            # The cut-off is rolled from test_days: the field to change is that one.
            raise ValueError(
                f"{str(exc).replace('params.cutoff_date', 'params.test_days', 1)} "
                f"({test_days} test days roll the cut-off to {cutoff}.)"
            ) from exc

    training = step("training-set", training_step)
    model = step(
        "train-model",
        lambda: train_model(
            spark,
            {**own("train-model"), "training_set_job": job_id},
            training,
            f"{base}/models/{job_id}",
            job_id,
        ),
    )
    step(
        CHALLENGE_STEP,
        lambda: challenge(
            spark,
            training,
            model,
            params.get("champion_id"),
            spec["inputs"].get("champion_id"),
        ),
    )
    return runner.results


if __name__ == "__main__":
    run(main)
