"""Predictive maintenance, the data half: window features and failure labels (pure Spark).

The step functions are shared by the single job types (`window_features.py`,
`failure_labels.py`) and the `maintenance-pipeline` script. Each takes its own params
(validated, defaults filled), reads whole topics with Spark's Kafka source, writes Parquet to
`output_path` (never over an earlier job's) and returns its result, counted from what it
wrote (docs/maintenance-data.md). DataFrame API only: executors never import this module.

- Events are the alarms topic's JSON values with an `equipment_id`; anything else (not JSON,
  the backfill's marker) is skipped. An event's day is the UTC date of its record timestamp
  (the backfill writes it as the event time; the session time zone is UTC, common.py).
- The grid: one row per equipment per day from its first event day to the last day of the
  data (the latest event day of any equipment), days without events included.
- window-features: per window w (days) the trailing window of day D is the days
  [D - w + 1, D]; counts and the severity sum are 0 over days without events, a sensor's
  maximum over a window without a reading is 0.0 (null would break the model's assembler).
- failure-labels: 1 when the equipment fails on a day in [D + 1, D + horizon] (a `FAILURE`
  alarm or a `failure` work order), else 0; days with D + horizon after the last day of the
  data are censored (their future is not known) and dropped.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import (
    DoubleType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

FAILURE_CODE = "FAILURE"
FAILURE_WORK_ORDER = "failure"
SAMPLE_ROWS = 10
DIGITS = 6


def slug(text: str) -> str:
    """A fault code as part of a column name: lower case, non-alphanumerics -> `_`."""
    return re.sub(r"[^a-z0-9]", "_", text.lower())


def feature_columns(params: dict[str, Any]) -> list[str]:
    """The feature columns in output order: per window, per code counts, the severity sum,
    per sensor the maximum."""
    out: list[str] = []
    for w in params["windows"]:
        out += [f"count_{slug(c)}_{w}d" for c in params["fault_codes"]]
        out.append(f"severity_sum_{w}d")
        out += [f"max_{s}_{w}d" for s in params["sensors"]]
    return out


def _millis(text: str) -> int:
    return int(datetime.fromisoformat(text.strip()).timestamp() * 1000)


def read_topic(
    spark: SparkSession,
    kafka_options: dict[str, Any],
    topic: str,
    start_time: str | None = None,
    end_time: str | None = None,
) -> DataFrame:
    """The topic's records from its log start (or from `start_time`) to its log end as the
    read is planned, every partition, cut exactly to [start_time, end_time) on the record
    timestamp.

    A start time is looked up by timestamp (the first offset whose timestamp is at or after
    it: every record before it is older, even when timestamps are out of order). The end is
    always the log end: a backfill appends old timestamps after newer live records, so the
    first offset at or after an end time can come before records that belong in the range."""
    reader = (
        spark.read.format("kafka")
        .options(**kafka_options)
        .option("subscribe", topic)
        .option("endingOffsets", "latest")
        # Records deleted by retention between planning and reading fail the step, naming the
        # cause (docs/spark-jobs.md, "Records lost while a job reads").
        .option("failOnDataLoss", "true")
    )
    if start_time is not None:
        reader = reader.option("startingTimestamp", str(_millis(start_time))).option(
            # A partition with nothing at or after it starts (and ends) at its end.
            "startingOffsetsByTimestampStrategy",
            "latest",
        )
    else:
        reader = reader.option("startingOffsets", "earliest")
    records = reader.load()
    if start_time is not None:
        records = records.where(
            F.col("timestamp") >= F.timestamp_millis(F.lit(_millis(start_time)))
        )
    if end_time is not None:
        records = records.where(F.col("timestamp") < F.timestamp_millis(F.lit(_millis(end_time))))
    return records


def _events(records: DataFrame, schema: StructType) -> DataFrame:
    """Parsed values with an equipment id, and their day (UTC date of the record time)."""
    return (
        records.select(
            F.from_json(F.col("value").cast("string"), schema).alias("v"),
            F.to_date("timestamp").alias("day"),
        )
        .select("v.*", "day")
        .where(F.col("equipment_id").isNotNull() & (F.col("equipment_id") != ""))
    )


def _alarm_schema(sensors: list[str]) -> StructType:
    return StructType(
        [
            StructField("equipment_id", StringType()),
            StructField("fault_code", StringType()),
            StructField("severity", LongType()),
            *(StructField(s, DoubleType()) for s in sensors),
        ]
    )


def _grid(events: DataFrame, last_day: date) -> DataFrame:
    """(equipment_id, day, n): every day from the equipment's first event day to `last_day`,
    n = days since 1970-01-01 (what a range window orders by)."""
    firsts = events.groupBy("equipment_id").agg(F.min("day").alias("first"))
    return firsts.select(
        "equipment_id",
        F.explode(F.sequence("first", F.lit(last_day), F.expr("INTERVAL 1 DAY"))).alias("day"),
    ).withColumn("n", F.unix_date("day"))


def _num(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, date):
        return value.isoformat()
    return value


def _written(spark: SparkSession, path: str) -> DataFrame:
    return spark.read.parquet(path)


# --- window-features --------------------------------------------------------------------------
def window_features(
    spark: SparkSession, kafka_options: dict[str, Any], params: dict[str, Any], output_path: str
) -> dict[str, Any]:
    codes: list[str] = list(params["fault_codes"])
    sensors: list[str] = list(params["sensors"])
    windows: list[int] = list(params["windows"])
    records = read_topic(
        spark,
        kafka_options,
        params["alarms_topic"],
        params.get("start_time"),
        params.get("end_time"),
    )
    events = _events(records, _alarm_schema(sensors)).cache()
    bounds = events.agg(F.max("day").alias("last")).first()
    last_day = None if bounds is None else bounds["last"]
    columns = feature_columns(params)

    # Per equipment per day; a day without events gets counts 0 and null maxima below.
    daily = events.groupBy("equipment_id", "day").agg(
        *(F.count(F.when(F.col("fault_code") == c, 1)).alias(f"c{i}") for i, c in enumerate(codes)),
        F.sum(F.coalesce(F.col("severity"), F.lit(0))).alias("sev"),
        *(F.max(s).alias(f"m{i}") for i, s in enumerate(sensors)),
    )
    if last_day is None:
        # No event at all: an empty table with the right columns.
        filled = spark.createDataFrame([], "equipment_id string, day date").select(
            "equipment_id", "day", *(F.lit(None).cast("double").alias(c) for c in columns)
        )
    else:
        grid = _grid(events, last_day).join(daily, ["equipment_id", "day"], "left")
        selected: list[Column] = [F.col("equipment_id"), F.col("day")]
        for w in windows:
            over = Window.partitionBy("equipment_id").orderBy("n").rangeBetween(-(w - 1), 0)
            for i, c in enumerate(codes):
                total = F.sum(F.coalesce(F.col(f"c{i}"), F.lit(0))).over(over)
                selected.append(total.cast("long").alias(f"count_{slug(c)}_{w}d"))
            sev = F.sum(F.coalesce(F.col("sev"), F.lit(0))).over(over)
            selected.append(sev.cast("long").alias(f"severity_sum_{w}d"))
            for i, s in enumerate(sensors):
                top = F.coalesce(F.max(f"m{i}").over(over), F.lit(0.0))
                selected.append(top.cast("double").alias(f"max_{s}_{w}d"))
        filled = grid.select(*selected)
    filled.write.mode("errorifexists").parquet(output_path)
    events.unpersist()

    # Counted from what was written.
    written = _written(spark, output_path)
    summary = written.agg(
        F.count(F.lit(1)).alias("rows"),
        F.countDistinct("equipment_id").alias("equipment"),
        F.min("day").alias("first"),
        F.max("day").alias("last"),
    ).first()
    assert summary is not None
    sample_columns = ["equipment_id", "day", *columns]
    # The latest day's rows: what a score would read.
    sample = (
        written.orderBy(F.col("day").desc(), "equipment_id").limit(SAMPLE_ROWS).collect()
        if summary["rows"]
        else []
    )
    return {
        "rows": int(summary["rows"]),
        "equipment": int(summary["equipment"]),
        "feature_columns": columns,
        "fault_codes": codes,
        "first_day": _num(summary["first"]),
        "last_day": _num(summary["last"]),
        "output_path": output_path,
        "sample": {
            "columns": sample_columns,
            "rows": [[_num(row[c]) for c in sample_columns] for row in sample],
        },
    }


# --- failure-labels ---------------------------------------------------------------------------
def failure_labels(
    spark: SparkSession, kafka_options: dict[str, Any], params: dict[str, Any], output_path: str
) -> dict[str, Any]:
    horizon = int(params["horizon_days"])
    alarms = _events(
        read_topic(spark, kafka_options, params["alarms_topic"]), _alarm_schema([])
    ).cache()
    orders = _events(
        read_topic(spark, kafka_options, params["work_orders_topic"]),
        StructType([StructField("equipment_id", StringType()), StructField("type", StringType())]),
    )
    bounds = alarms.agg(F.max("day").alias("last")).first()
    last_day = None if bounds is None else bounds["last"]
    censored = 0
    if last_day is None:
        labelled = spark.createDataFrame([], "equipment_id string, day date, label int")
    else:
        failed = (
            alarms.where(F.col("fault_code") == FAILURE_CODE)
            .select("equipment_id", "day")
            .unionByName(
                orders.where(F.col("type") == FAILURE_WORK_ORDER).select("equipment_id", "day")
            )
            .distinct()
            .withColumn("failed", F.lit(1))
        )
        grid = _grid(alarms, last_day).join(failed, ["equipment_id", "day"], "left")
        ahead = Window.partitionBy("equipment_id").orderBy("n").rangeBetween(1, horizon)
        labels = grid.select(
            "equipment_id",
            "day",
            F.coalesce(F.max("failed").over(ahead), F.lit(0)).cast(IntegerType()).alias("label"),
        )
        # Censored: the label window reaches past the data, so a 0 would be a guess.
        known = F.date_add(F.col("day"), horizon) <= F.lit(last_day)
        counted = grid.agg(F.sum(F.when(~known, 1).otherwise(0)).alias("censored")).first()
        censored = int((counted["censored"] if counted is not None else 0) or 0)
        labelled = labels.where(known)
    labelled.write.mode("errorifexists").parquet(output_path)
    alarms.unpersist()

    summary = (
        _written(spark, output_path)
        .agg(
            F.count(F.lit(1)).alias("rows"),
            F.sum(F.col("label")).alias("positives"),
        )
        .first()
    )
    assert summary is not None
    rows, positives = int(summary["rows"]), int(summary["positives"] or 0)
    return {
        "rows": rows,
        "positives": positives,
        "negatives": rows - positives,
        "censored_dropped": censored,
        "horizon_days": horizon,
        "last_day": _num(last_day),
        "output_path": output_path,
    }
