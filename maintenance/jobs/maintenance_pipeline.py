"""maintenance-pipeline: window features -> failure labels -> training set -> model -> scores,
in one Spark application, by calling the same step functions as the single job types.

The steps and their params keys come from pipeline_steps.py, next to this script (the one
list, which the console's job type reads too). Every step transition is one marker line on
stdout (sparkjobs/steps.py: the console turns them into the job's `steps` and its progress);
each step's Spark jobs run in a job group named after the step, so the console can measure the
running step's share of tasks. The pipeline stops at the first step that fails: later steps
are `skipped`, and the job fails with that step's error. Its result is `{step: the step's
result}`.

Output paths are the single job types' with this job's id: `{output_dir}/maintenance/
{step}-{job_id}`, the model under `{output_dir}/models/{job_id}` (the model id is the job id).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from common import run
from job_errors import describe
from pipeline_steps import PIPELINE_STEPS, STEP_KEYS
from pm_features import failure_labels, window_features
from pm_model import score, train_model, training_set
from pyspark.sql import SparkSession

STEP_MARKER = "KAFKA_CONSOLE_STEP"  # sparkjobs/steps.py parses these lines


class StepFailed(Exception):
    pass


def mark(step: str, state: str, **extra: Any) -> None:
    print(f"{STEP_MARKER} {json.dumps({'step': step, 'state': state, **extra})}", flush=True)


def first_line(exc: BaseException) -> str:
    """A step's error: its root cause on one line (job_errors.describe), so a step whose
    Kafka read failed names the Java exception, not py4j's "An error occurred while calling"."""
    return describe(exc)


def in_pipeline(message: str, key: str, fields: Any) -> str:
    """A step's error about `params.x` names the pipeline's field, `params.<key>.x`."""
    return re.sub(
        r"\bparams\.([A-Za-z_]\w*)",
        lambda m: f"params.{key}.{m[1]}" if m[1] in fields else m[0],
        message,
    )


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params, job_id = spec["params"], spec["job_id"]
    kafka_options, base = spec["kafka_options"], str(spec["output_dir"]).rstrip("/")
    results: dict[str, Any] = {}

    def path(step: str) -> str:
        return f"{base}/maintenance/{step}-{job_id}"

    def step_params(step: str, **inputs: Any) -> dict[str, Any]:
        # The single job type's params: this step's object, and its input params naming this
        # job (the step functions get the earlier results themselves).
        return {**params[STEP_KEYS[step]], **inputs}

    def step(name: str, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        mark(name, "running")
        spark.sparkContext.setJobGroup(name, f"{name} (pipeline job {job_id})")
        try:
            result = call()
        except Exception as exc:
            error = in_pipeline(first_line(exc), STEP_KEYS[name], params[STEP_KEYS[name]])
            mark(name, "failed", error=error)
            for later in PIPELINE_STEPS[PIPELINE_STEPS.index(name) + 1 :]:
                mark(later, "skipped")
            raise StepFailed(f"step {name}: {error}") from exc
        mark(name, "succeeded", result=result)
        results[name] = result
        return result

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
    return results


if __name__ == "__main__":
    run(main)
