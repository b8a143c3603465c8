"""maintenance-pipeline: window features -> failure labels -> training set -> model -> scores,
in one Spark application, by calling the same step functions as the single job types.

The steps and their params keys come from pipeline_steps.py, next to this script (the one
list, which the console's job type reads too); job_steps.py runs and marks them (the
console turns the marks into the job's `steps` and its progress). The pipeline stops at the
first step that fails: later steps are `skipped`, and the job fails with that step's error.
Its result is `{step: the step's result}`.

Output paths are the single job types' with this job's id: `{output_dir}/maintenance/
{step}-{job_id}`, the model under `{output_dir}/models/{job_id}` (the model id is the job id).
"""

from __future__ import annotations

from typing import Any

from common import run
from job_steps import STEP_MARKER, StepRunner, first_line, in_pipeline
from pipeline_steps import PIPELINE_STEPS, STEP_KEYS
from pm_features import failure_labels, window_features
from pm_model import score, train_model, training_set
from pyspark.sql import SparkSession

# Re-exported: tests load this script and check what it prints and how it names fields.
__all__ = ["STEP_MARKER", "first_line", "in_pipeline", "main"]


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params, job_id = spec["params"], spec["job_id"]
    kafka_options, base = spec["kafka_options"], str(spec["output_dir"]).rstrip("/")

    def path(step: str) -> str:
        return f"{base}/maintenance/{step}-{job_id}"

    def step_params(step: str, **inputs: Any) -> dict[str, Any]:
        # The single job type's params: this step's object, and its input params naming this
        # job (the step functions get the earlier results themselves).
        return {**params[STEP_KEYS[step]], **inputs}

    runner = StepRunner(spark, job_id, PIPELINE_STEPS, STEP_KEYS, params)
    step = runner.run

    features = step(
        "window-features",
        lambda: window_features(
            spark, kafka_options, step_params("window-features"), path("window-features")
        ),
    )
    labels = step(
        "failure-labels",
        lambda: failure_labels(
            spark, kafka_options, step_params("failure-labels"), path("failure-labels")
        ),
    )

    def training_step() -> dict[str, Any]:
        # training_set refuses a cut-off outside the features' days itself; `step` names
        # the error's field params.training.cutoff_date.
        wired = step_params("training-set", features_job=job_id, labels_job=job_id)
        return training_set(spark, wired, features, labels, path("training-set"))

    training = step("training-set", training_step)
    model = step(
        "train-model",
        lambda: train_model(
            spark,
            step_params("train-model", training_set_job=job_id),
            training,
            f"{base}/models/{job_id}",
            job_id,
        ),
    )
    step(
        "score",
        lambda: score(
            spark,
            kafka_options,
            step_params("score", model_id=job_id, features_job=job_id),
            model,
            features,
        ),
    )
    return runner.results


if __name__ == "__main__":
    run(main)
