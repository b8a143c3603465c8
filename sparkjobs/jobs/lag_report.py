"""lag-report: per consumer group over a period, from the lag sampler's export topic
(groups/lag/export.py: one JSON record per group per sampling pass).

Method (docs/maintenance-pipeline.md):
- The samples are the records of the job's cluster whose `ts` is in [start, end); a sample
  written twice (a retried produce) counts once.
- p50 / p95 are exact percentiles with linear interpolation between the two nearest samples
  (Spark's `percentile`, numpy's default); samples without a value (no committed offset, no
  lag seconds) are left out of that figure.
- Time in each status: the time between a sample and the group's next one is the earlier
  sample's status, capped at MAX_GAP_INTERVALS sampling intervals (the sampler was down or a
  pass failed: the status of that gap is unknown, so only the first intervals count). The
  last sample of the period has no next one and adds nothing.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from common import run, table
from lag_report_table import COLUMNS, STATUSES
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

MAX_GAP_INTERVALS = 3
DEFAULT_INTERVAL_S = 5.0  # for records without `interval_s`
DAY_MS = 24 * 3600 * 1000
# Records are looked up by their timestamp this far outside the period (a producer's clock or
# a standby sampler may write slightly out of order); the exact cut is on `ts`.
SLACK_MS = 10 * 60 * 1000
VALUE = StructType(
    [
        StructField("cluster", StringType()),
        StructField("group", StringType()),
        StructField("ts", DoubleType()),
        StructField("interval_s", DoubleType()),
        StructField("status", StringType()),
        StructField("total_lag", LongType()),
        StructField("max_lag", LongType()),
        StructField("max_lag_seconds", DoubleType()),
    ]
)


def millis(text: str | None, default: int) -> int:
    if text is None:
        return default
    return int(datetime.fromisoformat(text.strip()).timestamp() * 1000)


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")


def number(value: Any, digits: int = 3) -> Any:
    return None if value is None else round(float(value), digits)


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params, cluster = spec["params"], spec.get("cluster")
    end_ms = millis(params.get("end_time"), int(time.time() * 1000))
    start_ms = millis(params.get("start_time"), end_ms - DAY_MS)
    topic = params["export_topic"]
    raw = (
        spark.read.format("kafka")
        .options(**spec["kafka_options"])
        .option("subscribe", topic)
        .option("startingTimestamp", str(max(start_ms - SLACK_MS, 0)))
        # A partition with nothing written since then starts (and ends) at its end.
        .option("startingOffsetsByTimestampStrategy", "latest")
        .option("endingTimestamp", str(end_ms + SLACK_MS))
        # Samples of the period deleted by retention before they were read fail the report
        # (docs/spark-jobs.md, "Records lost while a job reads"): it states its period.
        .option("failOnDataLoss", "true")
        .load()
    )
    samples = raw.select(F.from_json(F.col("value").cast("string"), VALUE).alias("v")).select("v.*")
    wanted = (
        F.col("group").isNotNull()
        & F.col("ts").isNotNull()
        & (F.col("ts") >= start_ms / 1000)
        & (F.col("ts") < end_ms / 1000)
    )
    if cluster is not None:
        wanted &= F.col("cluster") == cluster
    if params.get("groups"):
        wanted &= F.col("group").isin(list(params["groups"]))
    samples = samples.where(wanted).dropDuplicates(["group", "ts"])

    by_time = Window.partitionBy("group").orderBy("ts")
    interval = F.coalesce(F.col("interval_s"), F.lit(DEFAULT_INTERVAL_S))
    # least() skips nulls: the group's last sample (no next one) must add 0, not the cap.
    following = F.lead("ts").over(by_time) - F.col("ts")
    gap = F.when(following.isNotNull(), F.least(following, interval * MAX_GAP_INTERVALS))
    status = F.when(F.col("status").isin(list(STATUSES)), F.col("status")).otherwise("UNKNOWN")
    timed = samples.withColumn("gap", F.coalesce(gap, F.lit(0.0))).withColumn("st", status)

    lag, seconds = F.col("total_lag"), F.col("max_lag_seconds")
    per_group = timed.groupBy("group").agg(
        F.count(F.lit(1)).alias("samples"),
        F.percentile(lag, 0.5).alias("lag_p50"),
        F.percentile(lag, 0.95).alias("lag_p95"),
        F.max(lag).alias("lag_max"),
        F.percentile(seconds, 0.5).alias("lag_seconds_p50"),
        F.percentile(seconds, 0.95).alias("lag_seconds_p95"),
        F.max(seconds).alias("lag_seconds_max"),
        *(
            F.sum(F.when(F.col("st") == s, F.col("gap")).otherwise(0.0)).alias(f"s_{s}")
            for s in STATUSES
        ),
    )
    per_group = per_group.cache()
    totals = per_group.agg(
        F.count(F.lit(1)).alias("groups"), F.sum("samples").alias("records")
    ).first()
    rows = (
        per_group.orderBy(
            F.desc_nulls_last("lag_seconds_p95"), F.desc_nulls_last("lag_max"), "group"
        )
        .limit(int(params["limit"]))
        .collect()
    )
    return {
        "cluster": cluster,
        "export_topic": topic,
        "start_time": iso(start_ms),
        "end_time": iso(end_ms),
        "records": int((totals and totals["records"]) or 0),
        "groups_total": int((totals and totals["groups"]) or 0),
        "table": table(
            COLUMNS,
            [
                [
                    r["group"],
                    int(r["samples"]),
                    number(r["lag_p50"]),
                    number(r["lag_p95"]),
                    None if r["lag_max"] is None else int(r["lag_max"]),
                    number(r["lag_seconds_p50"]),
                    number(r["lag_seconds_p95"]),
                    number(r["lag_seconds_max"]),
                    *(number(r[f"s_{s}"]) for s in STATUSES),
                ]
                for r in rows
            ],
        ),
    }


if __name__ == "__main__":
    run(main)
