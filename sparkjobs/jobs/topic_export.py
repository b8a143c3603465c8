"""topic-export: a range of a topic's records as Parquet, partitioned by record date (UTC), and
beside it, when the output directory is local, one gzipped JSON-lines file to download
(docs/spark-jobs.md, "Downloading an export")."""

from __future__ import annotations

import traceback
from typing import Any

from common import ranges_result, read_range, run
from export_files import DOWNLOAD_DIR, DOWNLOAD_FORMAT, DOWNLOAD_PATH, export_dir_name, local_dir
from job_errors import describe
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

# Kafka's timestamp types, as Spark's Kafka source numbers them.
TIMESTAMP_TYPES = {0: "CreateTime", 1: "LogAppendTime"}


def _fs(spark: SparkSession, path: str) -> tuple[Any, Any]:
    """(Hadoop FileSystem, Path) of `path` (any URI Hadoop reads)."""
    jvm: Any = spark.sparkContext._jvm
    root = jvm.org.apache.hadoop.fs.Path(path)
    return root.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), root


def _files_and_bytes(spark: SparkSession, path: str) -> tuple[int, int]:
    """Parquet files under `path` and their size, through Hadoop's FileSystem (any URI)."""
    fs, root = _fs(spark, path)
    listing = fs.listFiles(root, True)
    files = size = 0
    while listing.hasNext():
        status = listing.next()
        if status.getPath().getName().endswith(".parquet"):
            files += 1
            size += status.getLen()
    return files, size


def _text_or_base64(column: Column, name: str) -> list[Column]:
    """`name`: the bytes as text when they are UTF-8, else base64; `name_encoding` says which
    ("utf-8", "base64"; null with a null `name`)."""
    text = F.when(F.is_valid_utf8(column.cast("string")), column.cast("string"))
    return [
        F.coalesce(text, F.base64(column)).alias(name),
        F.when(column.isNull(), F.lit(None))
        .when(text.isNotNull(), F.lit("utf-8"))
        .otherwise(F.lit("base64"))
        .alias(f"{name}_encoding"),
    ]


def json_lines(records: DataFrame) -> DataFrame:
    """One row per record, as the download has it: partition, offset, timestamp,
    timestamp_type, key and value (text or base64, with their encoding), headers."""
    kind = F.col("timestampType")
    headers = F.transform(
        F.coalesce(F.col("headers"), F.array()),  # no headers: [], as Kafka has it
        lambda h: F.struct(h["key"].alias("key"), *_text_or_base64(h["value"], "value")),
    )
    return records.select(
        "partition",
        "offset",
        "timestamp",
        F.coalesce(
            *(F.when(kind == number, F.lit(label)) for number, label in TIMESTAMP_TYPES.items()),
            kind.cast("string"),
        ).alias("timestamp_type"),
        *_text_or_base64(F.col("key"), "key"),
        *_text_or_base64(F.col("value"), "value"),
        headers.alias("headers"),
    )


def write_download(
    spark: SparkSession, path: str, parquet_bytes: int, rows: int, spec: dict[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    """Write the export's records (read back from its Parquet, so exactly what was written)
    as ONE gzipped JSON-lines file at `path`/DOWNLOAD_PATH. Returns (download, why not)."""
    cap = int(spec.get("download_max_bytes", 1 << 30))
    if not spec["params"].get("download", True):
        return None, "params.download is false: no download file was written."
    if local_dir(spec["output_dir"]) is None:
        return None, (
            f"The output directory {spec['output_dir']} is remote: a download file is only "
            "written to a local one (read the Parquet there)."
        )
    if cap <= 0:
        return None, "Download files are turned off (SPARK_DOWNLOAD_MAX_BYTES is 0)."
    if rows == 0:
        return None, "The export has no records: no download file was written."
    if parquet_bytes > cap:
        # gzipped JSON lines are rarely smaller than the Parquet: not even tried.
        return None, (
            f"The Parquet is {parquet_bytes} bytes, over SPARK_DOWNLOAD_MAX_BYTES ({cap}): "
            "no download file was written."
        )
    try:
        return _write_download(spark, path, rows, cap)
    except Exception as exc:  # the Parquet is written: the export stands without its download
        traceback.print_exc()
        fs, partial = _fs(spark, f"{path}/{DOWNLOAD_DIR}")
        fs.delete(partial, True)
        return None, f"Writing the download file failed: {describe(exc)}"


def _write_download(
    spark: SparkSession, path: str, rows: int, cap: int
) -> tuple[dict[str, Any] | None, str | None]:
    fs, parts_dir = _fs(spark, f"{path}/{DOWNLOAD_DIR}/.parts")
    _, target = _fs(spark, f"{path}/{DOWNLOAD_PATH}")
    # One task writes one part file, records in offset order within each partition.
    (
        json_lines(spark.read.parquet(path))
        .coalesce(1)
        .sortWithinPartitions("partition", "offset")
        .write.mode("errorifexists")
        .option("compression", "gzip")
        .option("ignoreNullFields", "false")  # a null key is "key": null, not missing
        .option("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")  # the session zone is UTC
        .json(parts_dir.toString())
    )
    parts = [
        s.getPath()
        for s in fs.listStatus(parts_dir)
        if s.isFile() and s.getPath().getName().startswith("part-")
    ]
    if len(parts) != 1:
        raise RuntimeError(f"expected one JSON part file in {parts_dir}, found {len(parts)}")
    if not fs.rename(parts[0], target):
        raise RuntimeError(f"could not move {parts[0]} to {target}")
    fs.delete(parts_dir, True)
    size = int(fs.getFileStatus(target).getLen())
    if size > cap:
        fs.delete(target, False)
        return None, (
            f"The download file was {size} bytes, over SPARK_DOWNLOAD_MAX_BYTES ({cap}): "
            "it was deleted."
        )
    return {"path": DOWNLOAD_PATH, "bytes": size, "records": rows, "format": DOWNLOAD_FORMAT}, None


def main(spark: SparkSession, spec: dict[str, Any]) -> dict[str, Any]:
    name = export_dir_name(spec["params"], spec["job_id"])
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
    rows = sum(per_partition.values())
    download, skipped = write_download(spark, path, size, rows, spec)
    return {
        "rows": rows,
        "bytes": size,
        "files": files,
        "output_path": path,
        "partitions": per_partition,
        "ranges": ranges_result(spec),
        "download": download,
        "download_skipped": skipped,
    }


if __name__ == "__main__":
    run(main)
