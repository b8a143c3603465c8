"""Benchmark: a `topic-export` job against a plain confluent-kafka consumer on the same range.

    .venv/bin/python bench/spark_export.py [--records 5000000] [--partitions 6] [--value-bytes 100]
    .venv/bin/python bench/spark_export.py --records 1000000 --master local[2] --keep

Writes `--records` records (keys `k0..k999`, values of `--value-bytes`) round-robin over a
topic of `--partitions` partitions, replication factor 1, with a batching confluent-kafka
producer (a topic left by `--keep` with exactly that many records is reused). Then:

1. The baseline: one confluent-kafka Consumer assigned every partition at its first offset,
   `consume(batch)` until each partition's end offset, checking each record for an error
   and nothing more: the read limit of this machine for one Python process. Best of
   `--baseline-runs`.
2. The job, through the platform's own path: the Procfile's Celery worker (its own Redis
   database and a scratch SQLite), the job submitted with `POST /api/v1/spark/jobs` (DRF's
   client, in this process) and polled in the database until it ends. The worker runs the
   same spark-submit as always (`SPARK_MASTER` is `--master`).

Reported: the job's wall time from submission to `succeeded`, its fixed start-up cost
(submission to the first task launched, read from the driver's REST API while the job runs;
split into the Celery pick-up, spark-submit to the application's start, and the planning up
to the first task), records/s over the wall time and over the wall time without the start-up,
and that rate as a share of the baseline's (the target is 60 % or more). The topic, the
export and the scratch dirs are deleted unless --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
import urllib.request
from datetime import datetime
from typing import Any

from _harness import (
    api_client,
    load_average,
    produce_waiting,
    running_worker,
    setup_django,
    spark_worker_env,
)

PREFIX = "bench-spark-export-"
REST_ERRORS: list[str] = []  # the driver's REST API's failures, reported if it never answered
REDIS_DB = 14  # the worker's own Celery database: no other worker takes the job
_LOG_TIME = re.compile(r"^(\d\d/\d\d/\d\d \d\d:\d\d:\d\d) INFO TaskSetManager: Starting task")


# --- the topic ------------------------------------------------------------------------------
def topic_size(admin: Any, topic: str, partitions: int) -> dict[int, tuple[int, int]] | None:
    from console import kafka

    if topic not in {t.name for t in admin.topic_metadata()}:
        return None
    tps = [(topic, p) for p in range(partitions)]
    first = admin.list_offsets(tps, "earliest")
    last = admin.list_offsets(tps, "latest")
    out = {}
    for tp in tps:
        if not isinstance(first[tp], kafka.OffsetResult) or not isinstance(
            last[tp], kafka.OffsetResult
        ):
            return None
        out[tp[1]] = (first[tp].offset, last[tp].offset)
    return out


def produce(admin: Any, topic: str, records: int, partitions: int, value_bytes: int) -> float:
    """Write the records as fast as librdkafka batches them; returns the seconds it took."""
    from console.kafka import dev

    producer = dev.make_producer(
        admin,
        **{
            "acks": "1",
            "linger.ms": 50,
            "batch.size": 1_000_000,
            "batch.num.messages": 100_000,
            "queue.buffering.max.messages": 2_000_000,
            "queue.buffering.max.kbytes": 1_048_576,
            "compression.type": "none",
        },
    )
    filler = b"x" * max(0, value_bytes - 20)
    keys = [f"k{i}".encode() for i in range(1000)]
    started = time.perf_counter()
    for i in range(records):
        value = b"%020d" % i + filler
        produce_waiting(producer, topic, value, keys[i % 1000], i % partitions)
        if i % 100_000 == 0:
            producer.poll(0)
    left = producer.flush(300)
    if left:
        raise SystemExit(f"{left} records were not delivered")
    return time.perf_counter() - started


# --- the baseline ---------------------------------------------------------------------------
def consume_all(
    admin: Any, topic: str, ranges: dict[int, tuple[int, int]], value_bytes: int
) -> dict[str, Any]:
    """One Consumer, every partition assigned at its first offset, until every end offset.

    As fast as Python can take them: each record is only checked for an error (the range
    ends at the log end, so counting finds the end; the positions are checked afterwards).
    """
    from console.kafka import dev

    consumer = dev.make_consumer(
        admin,
        f"{PREFIX}baseline",
        **{
            "enable.auto.commit": False,
            "fetch.max.bytes": 52_428_800,
            "max.partition.fetch.bytes": 4_194_304,
            "queued.max.messages.kbytes": 262_144,
            "fetch.wait.max.ms": 10,
        },
    )
    wanted = {p: r for p, r in ranges.items() if r[1] > r[0]}
    total = sum(end - first for first, end in wanted.values())
    assigned = dev.assign_from(consumer, topic, {p: r[0] for p, r in wanted.items()})
    count = errors = 0
    started = time.perf_counter()
    while count < total:
        batch = consumer.consume(num_messages=100_000, timeout=1.0)
        bad = sum(1 for msg in batch if msg.error() is not None)
        count, errors = count + len(batch) - bad, errors + bad
    elapsed = time.perf_counter() - started
    positions = {tp.partition: tp.offset for tp in consumer.position(assigned)}
    consumer.close()
    if count != total or positions != {p: r[1] for p, r in wanted.items()}:
        raise SystemExit(f"the baseline read {count} of {total}, ending at {positions}")
    return {
        "records": count,
        "seconds": round(elapsed, 2),
        "records_per_s": round(count / elapsed),
        "value_mb_per_s": round(count * value_bytes / elapsed / 1e6, 1),
        "errors": errors,
    }


# --- the job --------------------------------------------------------------------------------
def _spark_time(text: str | None) -> float | None:
    """Spark's REST times, e.g. `2026-11-22T22:25:38.123GMT`, as epoch seconds."""
    if not text:
        return None
    return datetime.strptime(text.replace("GMT", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def _stages(ui_url: str, app_id: str) -> list[dict[str, Any]] | None:
    port = ui_url.rsplit(":", 1)[-1].strip("/")
    url = f"http://127.0.0.1:{port}/api/v1/applications/{app_id}/stages"
    try:
        with urllib.request.urlopen(url, timeout=2.0) as answer:
            data = json.load(answer)
    except (OSError, ValueError) as exc:
        REST_ERRORS.append(f"{url}: {exc}")
        return None
    return data if isinstance(data, list) else None


def _ui_from_log(log_path: str) -> str:
    """The UI address from the driver's log. The job's `spark_ui_url` stays empty when Spark
    logs the application id before the UI address (standalone: "Connected to Spark cluster")."""
    from sparkjobs.spark_submit import parse_ui_url

    try:
        with open(log_path, errors="replace") as f:
            return next((url for line in f if (url := parse_ui_url(line))), "")
    except OSError:
        return ""


def _first_task_from_log(log_path: str) -> float | None:
    """Fallback (1 s resolution): the driver log's first `Starting task` line, local time."""
    try:
        with open(log_path, errors="replace") as f:
            for line in f:
                if match := _LOG_TIME.match(line):
                    return time.mktime(time.strptime(match[1], "%y/%m/%d %H:%M:%S"))
    except OSError:
        return None
    return None


def run_job(
    client: Any, topic: str, job_type: str = "topic-export", **params: Any
) -> dict[str, Any]:
    """Submit a job over `topic` (more `params` if given) and follow it to its end. Its
    records are the result's `rows` (an export) or `records` (a search)."""
    from sparkjobs.models import SparkJob

    body = {"job_type": job_type, "cluster": "local", "params": {"topic": topic, **params}}
    submitted_at = time.time()
    answer = client.post("/api/v1/spark/jobs", body, format="json")
    if answer.status_code != 201:
        raise SystemExit(f"submit failed: {answer.status_code} {answer.content[:500]!r}")
    job_id = answer.json()["id"]
    seen: dict[str, float] = {}
    stages: list[dict[str, Any]] = []
    ui_url = ""
    while True:
        job = SparkJob.objects.get(pk=job_id)
        seen.setdefault(job.state, time.time())
        if job.state in ("succeeded", "failed", "cancelled", "lost"):
            break
        ui_url = ui_url or job.spark_ui_url or _ui_from_log(job.log_path)
        if job.spark_app_id and ui_url:
            stages = _stages(ui_url, job.spark_app_id) or stages
        time.sleep(0.2)
    ended_at = seen[job.state]
    if job.state != "succeeded":
        raise SystemExit(f"job {job_id} {job.state}: {job.error}\n{job.log_tail[-3000:]}")
    launched = [_spark_time(s.get("firstTaskLaunchedTime")) for s in stages]
    first_task = min((t for t in launched if t), default=None)
    first_task_source = "driver REST API (stages.firstTaskLaunchedTime)"
    if first_task is None:
        first_task, first_task_source = _first_task_from_log(job.log_path), "driver log (1 s)"
    wall = ended_at - submitted_at
    startup = (first_task - submitted_at) if first_task else None
    result = job.result or {}
    rows = int(result.get("rows", result.get("records", 0)))
    ranked = sorted(stages, key=lambda s: s.get("stageId", 0))
    first = ranked[0] if ranked else {}
    write_s = _delta(
        _spark_time(first.get("completionTime")), _spark_time(first.get("submissionTime"))
    )
    return {
        "job_id": job_id,
        "spark_app_id": job.spark_app_id,
        "rows": rows,
        "output_bytes": result.get("bytes"),
        "output_files": result.get("files"),
        "output_path": result.get("output_path"),
        "wall_s": round(wall, 2),
        "startup_s": round(startup, 2) if startup is not None else None,
        "startup_source": first_task_source,
        **({"rest_errors": REST_ERRORS[-3:]} if not stages else {}),
        "startup_split_s": {
            # Polled every 0.2 s; `running` is set once the driver printed its application id.
            "celery_pickup": _delta(seen.get("submitted"), submitted_at),
            "spark_submit_to_app": _delta(seen.get("running"), seen.get("submitted")),
            "app_to_first_task": _delta(first_task, seen.get("running")),
        },
        "records_per_s_wall": round(rows / wall),
        "records_per_s_after_startup": round(rows / (wall - startup)) if startup else None,
        # The first stage reads Kafka and writes the Parquet files; the rest counts what was
        # written, lists the files and stops Spark.
        "write_stage_s": write_s,
        "write_stage_records_per_s": round(rows / write_s) if write_s else None,
        "after_write_stage_s": _delta(wall - write_s, startup) if write_s and startup else None,
        "stages": [
            {
                "id": s.get("stageId"),
                "name": str(s.get("name", ""))[:60],
                "tasks": s.get("numTasks"),
                "status": s.get("status"),
                "executor_run_s": round((s.get("executorRunTime") or 0) / 1000, 2),
                "seconds": _delta(
                    _spark_time(s.get("completionTime")), _spark_time(s.get("submissionTime"))
                ),
            }
            for s in ranked
        ],
    }


def _delta(later: float | None, earlier: float | None) -> float | None:
    return round(later - earlier, 2) if later is not None and earlier is not None else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=5_000_000)
    parser.add_argument("--partitions", type=int, default=6)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--master", default="local[2]", help="SPARK_MASTER of the worker")
    parser.add_argument("--baseline-runs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the topic and the export")
    args = parser.parse_args()

    scratch = spark_worker_env("bench-spark-export-", REDIS_DB, args.master)
    setup_django()  # a scratch SQLite: DATABASE_URL is in os.environ for the worker too
    from console import kafka
    from console.clusters import get_cluster
    from console.kafka import dev

    admin = kafka.for_cluster(get_cluster("local"), timeout=60)
    topic = f"{PREFIX}{args.records}-p{args.partitions}-v{args.value_bytes}"
    load = {"before": load_average()}

    ranges = topic_size(admin, topic, args.partitions)
    produce_s = None
    if ranges is None or sum(e - s for s, e in ranges.values()) != args.records:
        if ranges is not None:
            admin.delete_topics([topic])
            time.sleep(2)
        dev.create_topics(admin, [(topic, args.partitions, 1, {"min.insync.replicas": "1"})])
        produce_s = produce(admin, topic, args.records, args.partitions, args.value_bytes)
        ranges = topic_size(admin, topic, args.partitions)
    assert ranges is not None and sum(e - s for s, e in ranges.values()) == args.records

    worker_log = scratch / "worker.log"
    with running_worker(worker_log):
        baselines = [
            consume_all(admin, topic, ranges, args.value_bytes) for _ in range(args.baseline_runs)
        ]
        baseline = max(baselines, key=lambda b: b["records_per_s"])
        job = run_job(api_client(), topic)
    load["after"] = load_average()

    after_startup = job["records_per_s_after_startup"]
    report = {
        "records": args.records,
        "partitions": args.partitions,
        "value_bytes": args.value_bytes,
        "master": args.master,
        "cpus": os.cpu_count(),
        "load_average_1_5_15": load,
        "produce_s": round(produce_s, 1) if produce_s is not None else "reused topic",
        "path": "POST /api/v1/spark/jobs -> Celery worker (Procfile) -> spark-submit",
        "baseline_consumer": {**baseline, "runs": [b["records_per_s"] for b in baselines]},
        "export": job,
        "ratio_after_startup": (
            round(after_startup / baseline["records_per_s"], 3) if after_startup else None
        ),
        "ratio_wall": round(job["records_per_s_wall"] / baseline["records_per_s"], 3),
        "target_ratio": 0.6,
    }
    print(json.dumps(report, indent=2))
    if not args.keep:
        admin.delete_topics([topic])
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        print(f"kept topic {topic} and {scratch}", file=sys.stderr)


if __name__ == "__main__":
    main()
