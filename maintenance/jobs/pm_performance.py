"""Predictive maintenance, realised performance: how good a model's past predictions turned
out (pure Spark, DataFrame API only; docs/maintenance-loop.md).

- Predictions: the predictions topic's records of the model (`model_id`), one per equipment
  and scored day (a day scored twice: the newest `scored_at` counts).
- Outcome: a prediction of day D is a failure when the equipment fails on a day in
  [D + 1, D + horizon] (a `FAILURE` alarm or a `failure` work order, as failure-labels has
  it); it is known when D + horizon is at most the last day of the alarms (else pending).
- Per scored day, over the known predictions: precision and recall at the model's threshold
  (a prediction at or above it is flagged), ROC AUC (the Mann-Whitney statistic with ties
  counted half: exactly the area under the ROC curve), and the counts; calibration over all
  known predictions in ten probability bands.
"""

from __future__ import annotations

from typing import Any

from pm_features import (
    FAILURE_CODE,
    FAILURE_WORK_ORDER,
    _events,
    read_topic,
)
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

DIGITS = 6
BANDS = 10

_PREDICTION = StructType(
    [
        StructField("equipment_id", StringType()),
        StructField("day", StringType()),
        StructField("failure_probability", DoubleType()),
        StructField("model_id", LongType()),
        StructField("scored_at", StringType()),
    ]
)


def _ratio(num: Any, den: Any) -> float | None:
    return None if not den else round(float(num) / float(den), DIGITS)


def predictions_of(
    spark: SparkSession, kafka_options: dict[str, Any], topic: str, model_id: int
) -> DataFrame:
    """(equipment_id, day, p) of the model's predictions, one per equipment and day."""
    parsed = (
        read_topic(spark, kafka_options, topic)
        .select(F.from_json(F.col("value").cast("string"), _PREDICTION).alias("v"))
        .select("v.*")
        .where(
            (F.col("model_id") == F.lit(model_id))
            & F.col("equipment_id").isNotNull()
            & F.col("failure_probability").isNotNull()
        )
        .withColumn("day", F.to_date("day"))
        .where(F.col("day").isNotNull())
    )
    return parsed.groupBy("equipment_id", "day").agg(
        F.max_by("failure_probability", F.coalesce(F.col("scored_at"), F.lit(""))).alias("p")
    )


def failure_days(
    spark: SparkSession, kafka_options: dict[str, Any], alarms_topic: str, work_orders_topic: str
) -> tuple[DataFrame, Any]:
    """((equipment_id, fail_day) of every failure, the last day of the alarms or None)."""
    alarms = _events(
        read_topic(spark, kafka_options, alarms_topic),
        StructType(
            [StructField("equipment_id", StringType()), StructField("fault_code", StringType())]
        ),
    ).cache()
    orders = _events(
        read_topic(spark, kafka_options, work_orders_topic),
        StructType([StructField("equipment_id", StringType()), StructField("type", StringType())]),
    )
    bounds = alarms.agg(F.max("day").alias("last")).first()
    failed = (
        alarms.where(F.col("fault_code") == FAILURE_CODE)
        .select("equipment_id", "day")
        .unionByName(
            orders.where(F.col("type") == FAILURE_WORK_ORDER).select("equipment_id", "day")
        )
        .distinct()
        .withColumnRenamed("day", "fail_day")
    )
    return failed, None if bounds is None else bounds["last"]


def realised_performance(
    spark: SparkSession,
    kafka_options: dict[str, Any],
    params: dict[str, Any],
    model: dict[str, Any],
) -> dict[str, Any]:
    model_id, horizon = int(params["model_id"]), int(params["horizon_days"])
    metrics = model.get("metrics")
    metrics = metrics if isinstance(metrics, dict) else {}
    threshold = float(metrics.get("threshold") or 0.5)
    predictions = predictions_of(spark, kafka_options, params["predictions_topic"], model_id)
    failed, last_day = failure_days(
        spark, kafka_options, params["alarms_topic"], params["work_orders_topic"]
    )
    p = predictions.alias("p")
    f = failed.alias("f")
    window = (
        (F.col("f.equipment_id") == F.col("p.equipment_id"))
        & (F.col("f.fail_day") > F.col("p.day"))
        & (F.col("f.fail_day") <= F.date_add(F.col("p.day"), horizon))
    )
    labelled = (
        p.join(f, window, "left")
        .groupBy(
            F.col("p.equipment_id").alias("equipment_id"),
            F.col("p.day").alias("day"),
            F.col("p.p").alias("p"),
        )
        .agg(F.max(F.col("f.fail_day").isNotNull().cast("int")).alias("label"))
    )
    # Nothing is known before the alarms say how far the data goes.
    known = (
        F.date_add(F.col("day"), horizon) <= F.lit(last_day)
        if last_day is not None
        else F.lit(False)
    )
    rows = labelled.withColumn("known", known).cache()

    # The Mann-Whitney rank sum per day over the known predictions, ties at their mean rank.
    ranked = rows.where("known").withColumn(
        "rank",
        F.rank().over(Window.partitionBy("day").orderBy("p"))
        + (F.count(F.lit(1)).over(Window.partitionBy("day", "p")) - 1) / 2.0,
    )
    sums = {
        r["day"]: r["ranks"]
        for r in ranked.where("label = 1")
        .groupBy("day")
        .agg(F.sum("rank").alias("ranks"))
        .collect()
    }
    flagged = F.col("p") >= F.lit(threshold)
    per_day = (
        rows.groupBy("day")
        .agg(
            F.count(F.lit(1)).alias("predictions"),
            F.sum(F.col("known").cast("int")).alias("known"),
            F.sum(F.when(F.col("known") & (F.col("label") == 1), 1).otherwise(0)).alias(
                "positives"
            ),
            F.sum(F.when(F.col("known") & flagged, 1).otherwise(0)).alias("flagged"),
            F.sum(F.when(F.col("known") & flagged & (F.col("label") == 1), 1).otherwise(0)).alias(
                "tp"
            ),
        )
        .orderBy("day")
        .collect()
    )
    days = []
    totals = {"predictions": 0, "known": 0, "positives": 0, "flagged": 0, "tp": 0}
    for r in per_day:
        positives, known_n = int(r["positives"]), int(r["known"])
        negatives = known_n - positives
        auc = None
        if positives and negatives:
            auc = round(
                (sums.get(r["day"], 0.0) - positives * (positives + 1) / 2)
                / (positives * negatives),
                DIGITS,
            )
        days.append(
            {
                "day": r["day"].isoformat(),
                "predictions": int(r["predictions"]),
                "known": known_n,
                "pending": int(r["predictions"]) - known_n,
                "failures": positives,
                "flagged": int(r["flagged"]),
                "precision": _ratio(r["tp"], r["flagged"]),
                "recall": _ratio(r["tp"], positives),
                "roc_auc": auc,
            }
        )
        for key in totals:
            totals[key] += int(r[key])

    band = F.least(F.floor(F.col("p") * BANDS), F.lit(BANDS - 1)).cast("int")
    calibration = [
        [
            round(r["b"] / BANDS, 2),
            round((r["b"] + 1) / BANDS, 2),
            int(r["n"]),
            round(float(r["mean"]), DIGITS),
            round(float(r["rate"]), DIGITS),
        ]
        for r in rows.where("known")
        .groupBy(band.alias("b"))
        .agg(
            F.count(F.lit(1)).alias("n"),
            F.avg("p").alias("mean"),
            F.avg("label").alias("rate"),
        )
        .orderBy("b")
        .collect()
    ]
    rows.unpersist()
    return {
        "model_id": model_id,
        "threshold": threshold,
        "horizon_days": horizon,
        "last_day": None if last_day is None else last_day.isoformat(),
        "days": days,
        "totals": {
            "predictions": totals["predictions"],
            "known": totals["known"],
            "pending": totals["predictions"] - totals["known"],
            "failures": totals["positives"],
            "precision": _ratio(totals["tp"], totals["flagged"]),
            "recall": _ratio(totals["tp"], totals["positives"]),
        },
        "calibration": {
            "columns": ["band_low", "band_high", "predictions", "predicted", "observed"],
            "rows": calibration,
        },
    }
