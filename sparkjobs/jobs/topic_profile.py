"""topic-profile: counts, key cardinality, top keys, value sizes, duplicates, sequence checks.

Duplicates are records whose key and value an earlier record in the range also had (so a
record written three times counts 2). With `sequence_field`, each record that has the field
(a number in a top-level field of a JSON value) is compared with the previous such record of
its scope (the partition, or the key), in offset order: a step above 1 is a gap (`missing`
counts the numbers skipped), a step below 0 is out of order.
"""

from __future__ import annotations

from typing import Any

from common import ranges_result, read_range, run, table
from pyspark import StorageLevel
from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

MAX_SEQUENCE_ROWS = 100  # scopes listed in the sequence table (those with most issues)
TOP_KEYS = 20  # keys listed in the top-keys table (most records first)


def _iso(column: Any) -> Any:
    """ISO-8601 in UTC, formatted by Spark (Python would convert to its own local zone)."""
    return F.date_format(column, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")


def _sequence(records: DataFrame, field: str, scope: str) -> tuple[dict[str, int], list[Any]]:
    seq = F.get_json_object(F.col("value").cast("string"), f"$.{field}").cast("long")
    scope_col = F.col("partition").cast("string") if scope == "partition" else F.col("key")
    rows = records.select(
        scope_col.alias("scope"), "partition", "offset", seq.alias("seq")
    ).withColumn("has_field", F.col("seq").isNotNull())
    order = Window.partitionBy("scope").orderBy("partition", "offset")
    checked = rows.where("has_field").withColumn("step", F.col("seq") - F.lag("seq").over(order))
    per_scope = checked.groupBy("scope").agg(
        F.count(F.lit(1)).alias("checked"),
        F.sum(F.when(F.col("step") > 1, 1).otherwise(0)).alias("gaps"),
        F.sum(F.when(F.col("step") > 1, F.col("step") - 1).otherwise(0)).alias("missing"),
        F.sum(F.when(F.col("step") < 0, 1).otherwise(0)).alias("out_of_order"),
    )
    no_field = rows.where(~F.col("has_field")).groupBy("scope").agg(F.count(F.lit(1)).alias("nf"))
    joined = (
        per_scope.join(no_field, "scope", "full_outer")
        .fillna(0, ["checked", "gaps", "missing", "out_of_order", "nf"])
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    totals = joined.agg(
        F.sum("gaps").alias("gaps"),
        F.sum("missing").alias("missing"),
        F.sum("out_of_order").alias("out_of_order"),
    ).first()
    worst = (
        joined.orderBy(F.desc(F.col("gaps") + F.col("out_of_order")), "scope")
        .limit(MAX_SEQUENCE_ROWS)
        .collect()
    )
    summary = {
        "sequence_gaps": int((totals and totals["gaps"]) or 0),
        "sequence_missing": int((totals and totals["missing"]) or 0),
        "sequence_out_of_order": int((totals and totals["out_of_order"]) or 0),
    }
    table_rows = [
        [
            r["scope"].decode("utf-8", "replace")
            if isinstance(r["scope"], bytearray)
            else r["scope"],
            int(r["checked"]),
            int(r["gaps"]),
            int(r["missing"]),
            int(r["out_of_order"]),
            int(r["nf"]),
        ]
        for r in worst
    ]
    return summary, table_rows


def _top_keys(records: DataFrame, total: int) -> list[list[Any]]:
    """The keys with most records, as [key, records, bytes, share, partitions]: bytes are the
    keys' and values' sizes, share the fraction of all records, partitions those the key is
    in. They explain a skewed partition (one hot key fills it). Aggregated per key in Spark:
    only TOP_KEYS rows reach the driver, however many keys the topic has."""
    size = F.coalesce(F.length("key"), F.lit(0)) + F.coalesce(F.length("value"), F.lit(0))
    per_key = records.groupBy("key").agg(
        F.count(F.lit(1)).alias("records"),
        F.sum(size).alias("bytes"),
        # A key is in few partitions (one, with the default partitioner): a small set.
        F.array_sort(F.collect_set("partition")).alias("partitions"),
    )
    top = (
        per_key.orderBy(F.desc("records"), F.desc("bytes"), F.asc_nulls_last("key"))
        .limit(TOP_KEYS)
        .select(F.col("key").cast("string").alias("key"), "records", "bytes", "partitions")
        .collect()
    )
    return [
        [
            r["key"],
            int(r["records"]),
            int(r["bytes"] or 0),
            round(int(r["records"]) / total, 4) if total else 0.0,
            [int(p) for p in r["partitions"]],
        ]
        for r in top
    ]


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params = spec["params"]
    # Read Kafka once; every aggregate below works on this copy.
    records = read_range(spark, spec).persist(StorageLevel.MEMORY_AND_DISK)
    null_key = F.col("key").isNull()
    per_partition = (
        records.groupBy("partition")
        .agg(
            F.count(F.lit(1)).alias("records"),
            F.sum(F.when(null_key, 1).otherwise(0)).alias("null_keys"),
            _iso(F.min("timestamp")).alias("first_ts"),
            _iso(F.max("timestamp")).alias("last_ts"),
        )
        .orderBy("partition")
        .collect()
    )
    hours = (
        records.groupBy(_iso(F.date_trunc("hour", "timestamp")).alias("hour"))
        .count()
        .orderBy("hour")
        .collect()
    )
    size = F.length("value")
    overall = records.agg(
        F.count(F.lit(1)).alias("records"),
        F.countDistinct("key").alias("distinct_keys"),
        F.sum(F.when(null_key, 1).otherwise(0)).alias("null_keys"),
        F.sum(F.when(F.col("value").isNull(), 1).otherwise(0)).alias("null_values"),
        F.min(size).alias("min"),
        F.max(size).alias("max"),
        F.avg(size).alias("mean"),
        F.percentile_approx(size, [0.5, 0.9, 0.99]).alias("pct"),
    ).first()
    copies = records.groupBy("key", "value").count().where("count > 1")
    duplicates = copies.agg(F.sum(F.col("count") - 1).alias("extra")).first()
    top = (
        copies.orderBy(F.desc("count"), "key")
        .limit(int(params["top_duplicates"]))
        .select(F.col("key").cast("string"), F.length("value").alias("bytes"), "count")
        .collect()
    )
    assert overall is not None
    pct = overall["pct"] or [None, None, None]
    summary: dict[str, Any] = {
        "records": int(overall["records"]),
        "distinct_keys": int(overall["distinct_keys"]),
        "null_keys": int(overall["null_keys"] or 0),
        "null_values": int(overall["null_values"] or 0),
        "duplicate_records": int((duplicates and duplicates["extra"]) or 0),
        "sequence_gaps": None,
        "sequence_missing": None,
        "sequence_out_of_order": None,
    }
    tables = {
        "partitions": table(
            ["partition", "records", "null_keys", "first_ts", "last_ts"],
            [
                [
                    r["partition"],
                    r["records"],
                    r["null_keys"],
                    r["first_ts"],
                    r["last_ts"],
                ]
                for r in per_partition
            ],
        ),
        "hours": table(["hour", "records"], [[r["hour"], r["count"]] for r in hours]),
        "value_sizes": table(
            ["stat", "bytes"],
            [
                ["min", overall["min"]],
                ["p50", pct[0]],
                ["p90", pct[1]],
                ["p99", pct[2]],
                ["max", overall["max"]],
                ["mean", None if overall["mean"] is None else round(float(overall["mean"]), 2)],
            ],
        ),
        "duplicates": table(
            ["key", "value_bytes", "copies"], [[r["key"], r["bytes"], r["count"]] for r in top]
        ),
        "top_keys": table(
            ["key", "records", "bytes", "share", "partitions"],
            _top_keys(records, summary["records"]),
        ),
    }
    if params.get("sequence_field"):
        seq_summary, seq_rows = _sequence(
            records, params["sequence_field"], params["sequence_scope"]
        )
        summary.update(seq_summary)
        tables["sequence"] = table(
            ["scope", "checked", "gaps", "missing", "out_of_order", "no_field"], seq_rows
        )
    records.unpersist()
    return {"summary": summary, "tables": tables, "ranges": ranges_result(spec)}


if __name__ == "__main__":
    run(main)
