"""Running the steps of a multi-step maintenance job inside its Spark application (the
`maintenance-pipeline` and `maintenance-score` scripts).

Every step transition is one marker line on stdout (sparkjobs/steps.py turns them into the
job's `steps` and its progress); each step's Spark jobs run in a job group named after the
step, so the console can measure the running step's share of tasks. The job stops at the
first step that fails: later steps are `skipped`, and the job fails with that step's error,
which names the job's own field (`params.<key>.x`).

Imported on the Spark driver next to the scripts: the standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from job_errors import describe

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
    """A step's error about `params.x` names the job's field, `params.<key>.x`."""
    return re.sub(
        r"\bparams\.([A-Za-z_]\w*)",
        lambda m: f"params.{key}.{m[1]}" if m[1] in fields else m[0],
        message,
    )


class StepRunner:
    """Runs a job's steps in order: `run(name, call)` marks the step running, calls it in its
    job group, and marks it succeeded (keeping its result in `results`) or failed (and the
    steps after it skipped, then raises StepFailed)."""

    def __init__(
        self,
        spark: Any,
        job_id: int,
        steps: Sequence[str],
        keys: Mapping[str, str],
        params: Mapping[str, Any],
    ):
        self.spark, self.job_id = spark, job_id
        self.steps, self.keys, self.params = list(steps), keys, params
        self.results: dict[str, Any] = {}

    def run(self, name: str, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        mark(name, "running")
        self.spark.sparkContext.setJobGroup(name, f"{name} (job {self.job_id})")
        try:
            result = call()
        except Exception as exc:
            key = self.keys[name]
            error = in_pipeline(first_line(exc), key, self.params.get(key, {}))
            mark(name, "failed", error=error)
            for later in self.steps[self.steps.index(name) + 1 :]:
                mark(later, "skipped")
            raise StepFailed(f"step {name}: {error}") from exc
        mark(name, "succeeded", result=result)
        self.results[name] = result
        return result
