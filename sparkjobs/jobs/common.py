"""What every job script shares: the spec file, reading a range with Spark's Kafka source,
the result file, and the line that tells the console which Spark application this is.

Contract: `spark-submit ... jobs/<script>.py <spec.json>`, with common.py and job_errors.py
shipped by `--py-files`. The spec (mode 0600, it holds the cluster's secrets) gives `params`,
`topic`, `ranges` ({partition: [first, end)}), `kafka_options`, `output_dir`,
`download_max_bytes` (SPARK_DOWNLOAD_MAX_BYTES, topic_export.py), `result_path` and
`error_path`.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

from job_errors import describe
from pyspark.sql import DataFrame, SparkSession

# The console's runner looks for this line to learn the application id and UI address.
MARKER = "KAFKA_CONSOLE_SPARK_APP"


def load_spec(path: str) -> dict[str, Any]:
    with open(path) as f:
        return json.load(f)


def write_json(path: str, value: Any) -> None:
    """Write then rename, so the console never reads half a result."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(value, f)
    os.replace(tmp, path)


def read_range(spark: SparkSession, spec: dict[str, Any]) -> DataFrame:
    """The spec's records, exactly its offsets, through Spark's Kafka source (batch)."""
    topic = spec["topic"]
    ranges = {int(p): bounds for p, bounds in spec["ranges"].items()}
    partitions = sorted(ranges)
    starting = {topic: {str(p): ranges[p][0] for p in partitions}}
    ending = {topic: {str(p): ranges[p][1] for p in partitions}}
    return (
        spark.read.format("kafka")
        .options(**spec["kafka_options"])
        .option("assign", json.dumps({topic: partitions}))
        .option("startingOffsets", json.dumps(starting))
        .option("endingOffsets", json.dumps(ending))
        .option("includeHeaders", "true")
        # Records the range names that retention deleted before they were read fail the job,
        # naming the cause (docs/spark-jobs.md, "Records lost while a job reads"): the result
        # states the exact range it covers.
        .option("failOnDataLoss", "true")
        .load()
    )


def ranges_result(spec: dict[str, Any]) -> dict[str, list[int]]:
    return {str(p): list(bounds) for p, bounds in spec["ranges"].items()}


def table(columns: list[str], rows: list[Any]) -> dict[str, Any]:
    return {"columns": columns, "rows": [list(r) for r in rows]}


def run(main: Callable[[SparkSession, dict[str, Any]], dict[str, Any]]) -> None:
    spec = load_spec(sys.argv[1])
    spark = (
        SparkSession.builder.appName(f"kafka-console job {spec['job_id']} {spec['job_type']}")
        .config("spark.sql.session.timeZone", "UTC")  # dates and hours in results are UTC
        .getOrCreate()
    )
    sc = spark.sparkContext
    print(f"{MARKER} app_id={sc.applicationId} ui={sc.uiWebUrl or ''}", flush=True)
    try:
        write_json(spec["result_path"], main(spark, spec))
    except BaseException as exc:
        # The console shows this line as the job's error: the root cause (the innermost
        # `Caused by:` of py4j's Java trace, not "An error occurred while calling o91...").
        # The log has the whole traceback.
        with open(spec["error_path"], "w") as f:
            f.write(describe(exc))
        traceback.print_exc()
        raise
    finally:
        spark.stop()
