"""topic-export: a range of a topic's records as Parquet, partitioned by record date (UTC)."""

from __future__ import annotations

from typing import Any

from common import ranges_result, read_range, run
from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def _files_and_bytes(spark: SparkSession, path: str) -> tuple[int, int]:
    """Parquet files under `path` and their size, through Hadoop's FileSystem (any URI)."""
    jvm: Any = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    root = jvm.org.apache.hadoop.fs.Path(path)
    listing = root.getFileSystem(conf).listFiles(root, True)
    files = size = 0
    while listing.hasNext():
        status = listing.next()
        if status.getPath().getName().endswith(".parquet"):
            files += 1
            size += status.getLen()
    return files, size


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    name = spec["params"].get("output_name") or f"export-{spec['job_id']}"
    path = f"{spec['output_dir'].rstrip('/')}/{name}"
    records = read_range(spark, spec).select(
        "partition",
        "offset",
        "timestamp",
        "timestampType",
        "key",
        "value",
        "headers",
        F.to_date("timestamp").alias("date"),
    )
    # errorifexists: an earlier export is never overwritten.
    records.write.mode("errorifexists").partitionBy("date").parquet(path)
    # Counted from what was written, not from what was meant to be.
    counts = spark.read.parquet(path).groupBy("partition").count().collect()
    per_partition = {str(p): 0 for p in spec["ranges"]}
    per_partition.update({str(row["partition"]): int(row["count"]) for row in counts})
    files, size = _files_and_bytes(spark, path)
    return {
        "rows": sum(per_partition.values()),
        "bytes": size,
        "files": files,
        "output_path": path,
        "partitions": per_partition,
        "ranges": ranges_result(spec),
    }


if __name__ == "__main__":
    run(main)
