"""The retraining's cut-off and challenge (the `maintenance-retrain` job; see
docs/maintenance-loop.md, "Retraining and promotion").

- `challenge`: the new model (the challenger) and the model it must beat (the champion: the
  cluster's active model when the job was submitted) measured on the same rows, the
  challenger's test part. The challenger's metrics there are its own train-model metrics; the
  champion is loaded and judged at its own threshold. Whether the challenger is promoted is
  the console's decision (maintenance/challenge.py), from these measurements.

Imported on the Spark driver next to the job script (pm_model and the standard library).
"""

from __future__ import annotations

from typing import Any

from pm_model import evaluate, labelled_rows, step_result
from pyspark.ml import PipelineModel
from pyspark.sql import SparkSession

MEASURED = ("roc_auc", "pr_auc", "precision", "recall", "threshold")


def challenge(
    spark: SparkSession,
    training: dict[str, Any],
    challenger: dict[str, Any],
    champion_id: int | None,
    champion_result: dict[str, Any] | None,
) -> dict[str, Any]:
    metrics = challenger["metrics"]
    out: dict[str, Any] = {
        "cutoff_date": training["cutoff_date"],
        "rows": int(metrics["test_rows"]),
        "positives": int(metrics["test_positives"]),
        "challenger": {key: metrics.get(key) for key in MEASURED},
        "champion_id": champion_id,
        "champion": None,
        "champion_unscored": None,
    }
    if champion_id is None or champion_result is None:
        out["champion_unscored"] = "there was no active model to measure"
        return out
    champion = step_result(champion_result, "train-model")
    columns = list(champion.get("feature_columns") or ())
    missing = [c for c in columns if c not in training["feature_columns"]]
    if missing:
        out["champion_unscored"] = (
            f"model {champion_id} was trained on {len(missing)} feature column(s) this run did "
            f"not compute ({', '.join(missing[:5])})"
        )
        return out
    model = PipelineModel.load(champion["model_path"])
    threshold = float((champion.get("metrics") or {}).get("threshold", 0.5))
    measured, _ = evaluate(model, labelled_rows(spark, training["test_path"], columns), threshold)
    out["champion"] = {key: measured.get(key) for key in MEASURED}
    return out
