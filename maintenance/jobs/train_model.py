"""train-model: a VectorAssembler + GBT or random forest pipeline fitted on a training set,
evaluated on its test part, saved under models/<job id> (maintenance/jobs/pm_model.py)."""

from __future__ import annotations

from typing import Any

from common import run
from pm_model import step_result, train_model
from pyspark.sql import SparkSession


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    job_id = int(spec["job_id"])
    return train_model(
        spark,
        spec["params"],
        step_result(spec["inputs"]["training_set_job"], "training-set"),
        f"{str(spec['output_dir']).rstrip('/')}/models/{job_id}",
        job_id,
    )


if __name__ == "__main__":
    run(main)
