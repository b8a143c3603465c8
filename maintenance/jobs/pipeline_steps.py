"""The maintenance pipeline's steps: the one place they are written.

Each step is a job type of its own (its name is the step's name) and has one params object in
the pipeline's params, under its key. Everything else is derived from this list: the
pipeline's job type (its `steps`, its params and result schemas, sparkjobs' step tracking),
the pipeline script (maintenance_pipeline.py, next to this file, imports it as
`pipeline_steps`), and tests/unit/test_pm_step_list.py checks the places that cannot import
it (the SPA, the docs, the benchmark) against it.

Imported both by the console (`maintenance.jobs.pipeline_steps`) and by the pipeline script on
the Spark driver, where only the files next to the script are importable: the standard library
only, nothing of the console.
"""

from __future__ import annotations

# {step (= job type name): its params object's key in the pipeline's params}, in the order the
# pipeline runs them.
STEP_KEYS: dict[str, str] = {
    "window-features": "features",
    "failure-labels": "labels",
    "training-set": "training",
    "train-model": "model",
    "score": "score",
}

PIPELINE_STEPS: tuple[str, ...] = tuple(STEP_KEYS)

# The `maintenance-score` job (the daily scoring with the active model): fresh features, then
# scores; its params objects have the pipeline's keys for these steps.
SCORE_STEPS: tuple[str, ...] = ("window-features", "score")

# The `maintenance-retrain` job (the retraining a schedule runs): the pipeline's steps up to
# the model, its cut-off rolled to the newest labelled days, then the challenge (the new model
# and the cluster's active one measured on those same days). Only the challenge is not a job
# type of its own; its params object is `challenge`.
CHALLENGE_STEP = "challenge"
RETRAIN_STEPS: tuple[str, ...] = (
    *PIPELINE_STEPS[: PIPELINE_STEPS.index("train-model") + 1],
    CHALLENGE_STEP,
)
RETRAIN_KEYS: dict[str, str] = {
    **{step: STEP_KEYS[step] for step in RETRAIN_STEPS if step in STEP_KEYS},
    CHALLENGE_STEP: "challenge",
}
