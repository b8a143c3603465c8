"""topic-replay: copy a range of records (optionally some keys only) into another topic."""

from __future__ import annotations

from typing import Any

from common import ranges_result, read_range, run
from pyspark import StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    params = spec["params"]
    records = read_range(spark, spec)
    if params.get("keys"):
        records = records.where(F.col("key").cast("string").isin(params["keys"]))
    columns = ["key", "value", "headers"]
    if params["preserve_partitions"]:
        columns.append("partition")  # the sink writes to this partition number
    # Kept, so the counts and the write see the same records and Kafka is read once.
    out = records.select(*columns).persist(StorageLevel.MEMORY_AND_DISK)
    if params["preserve_partitions"]:
        counts = {
            str(r["partition"]): int(r["count"]) for r in out.groupBy("partition").count().collect()
        }
    else:
        counts = {"any": out.count()}
    (
        out.write.format("kafka")
        .options(**spec["kafka_options"])
        .option("topic", params["target_topic"])
        .save()
    )
    out.unpersist()
    return {
        "records": sum(counts.values()),
        "target_topic": params["target_topic"],
        "partitions": counts,
        "ranges": ranges_result(spec),
    }


if __name__ == "__main__":
    run(main)
