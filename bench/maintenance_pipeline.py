"""Benchmark: the predictive-maintenance pipeline over the demo history, step by step.

    .venv/bin/python bench/maintenance_pipeline.py [--equipment 200] [--days 60] [--master local[2]]
    .venv/bin/python bench/maintenance_pipeline.py --no-pattern      # the control run

Backfills the history (devtools/demo/maintenance_history.py: `--equipment` pieces of
equipment over `--days` days, the planted pattern unless `--no-pattern`) into fresh topics,
then runs the `maintenance-pipeline` job through the platform's own path: the Procfile's
Celery worker (its own Redis database, a scratch SQLite and output directory) and
`POST /api/v1/spark/jobs` (DRF's client, in this process), with the cut-off two thirds into
the data. Reported: the backfill's size and time, the job's wall time from submission to
`succeeded`, each step's wall time (its `started_at` to `finished_at` as the job tracked it),
each step's summary, and the model's metrics on the time-based test part. The topics and
scratch dirs are deleted unless --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
import uuid
from datetime import datetime, timedelta
from typing import Any

from _harness import api_client, load_average, running_worker, setup_django, spark_worker_env

REDIS_DB = 9  # the worker's own Celery database: no other worker takes the job
ENDED = ("succeeded", "failed", "cancelled", "lost")


def _seconds(step: dict[str, Any]) -> float | None:
    if not step.get("started_at") or not step.get("finished_at"):
        return None
    started = datetime.fromisoformat(step["started_at"].replace("Z", "+00:00"))
    finished = datetime.fromisoformat(step["finished_at"].replace("Z", "+00:00"))
    return round((finished - started).total_seconds(), 1)


def _summary(name: str, result: dict[str, Any]) -> dict[str, Any]:
    """The figures of a step's result worth a line (the full result is in the job)."""
    keep = {
        "window-features": ("rows", "equipment", "first_day", "last_day"),
        "failure-labels": ("rows", "positives", "censored_dropped", "horizon_days"),
        "training-set": ("cutoff_date", "train_rows", "test_rows", "before", "negative_ratio"),
        "train-model": ("algorithm", "train_rows", "metrics"),
        "score": ("predictions", "day", "predictions_topic"),
    }[name]
    return {k: result[k] for k in keep if k in result}


def run(client: Any, params: dict[str, Any]) -> dict[str, Any]:
    body = {"job_type": "maintenance-pipeline", "cluster": "local", "params": params}
    submitted = time.time()
    answer = client.post("/api/v1/spark/jobs", body, format="json")
    if answer.status_code != 201:
        raise SystemExit(f"submit failed: {answer.status_code} {answer.content[:500]!r}")
    job_id = answer.json()["id"]
    while True:
        job = client.get(f"/api/v1/spark/jobs/{job_id}").json()
        if job["state"] in ENDED:
            break
        time.sleep(0.5)
    wall = time.time() - submitted
    if job["state"] != "succeeded":
        raise SystemExit(f"job {job_id} {job['state']}: {job['error']}\n{job['log_tail'][-3000:]}")
    return {
        "job_id": job_id,
        "wall_s": round(wall, 1),
        "steps": [
            {
                "name": s["name"],
                "seconds": _seconds(s),
                "summary": _summary(s["name"], s["result"] or {}),
            }
            for s in job["steps"]
        ],
        "metrics": job["result"]["train-model"]["metrics"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--equipment", type=int, default=200)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-pattern", action="store_true", help="the control: no pattern")
    parser.add_argument("--master", default="local[2]", help="SPARK_MASTER of the worker")
    parser.add_argument("--keep", action="store_true", help="keep the topics and outputs")
    args = parser.parse_args()

    scratch = spark_worker_env("bench-pm-", REDIS_DB, args.master)
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from devtools.demo import maintenance_history

    cfg = get_cluster("local")
    suffix = uuid.uuid4().hex[:8]
    topics = {
        "alarms": f"bench-pm-alarms-{suffix}",
        "work_orders": f"bench-pm-work-orders-{suffix}",
        "predictions": f"bench-pm-predictions-{suffix}",
    }
    load = {"before": load_average()}
    history = maintenance_history.backfill(
        cfg,
        alarms_topic=topics["alarms"],
        work_orders_topic=topics["work_orders"],
        predictions_topic=topics["predictions"],
        equipment=args.equipment,
        days=args.days,
        seed=args.seed,
        pattern=not args.no_pattern,
    )
    first, last = history.first_day, history.anchor - timedelta(days=1)
    cutoff = first + (last - first) * 2 // 3
    params = {
        "features": {"alarms_topic": topics["alarms"]},
        "labels": {"alarms_topic": topics["alarms"], "work_orders_topic": topics["work_orders"]},
        "training": {"cutoff_date": cutoff.isoformat()},
        "model": {},
        "score": {"predictions_topic": topics["predictions"]},
    }
    with running_worker(scratch / "worker.log"):
        job = run(api_client(), params)
    load["after"] = load_average()
    report = {
        "equipment": args.equipment,
        "days": args.days,
        "pattern": not args.no_pattern,
        "master": args.master,
        "cpus": os.cpu_count(),
        "load_average_1_5_15": load,
        "backfill": {
            "alarms": history.alarms,
            "work_orders": history.work_orders,
            "seconds": round(history.seconds, 1),
            "days": f"{first} .. {last}",
        },
        "path": "POST /api/v1/spark/jobs -> Celery worker (Procfile) -> spark-submit",
        **job,
    }
    print(json.dumps(report, indent=2, default=str))
    if not args.keep:
        kafka.for_cluster(cfg, timeout=60).delete_topics(list(topics.values()))
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        print(f"kept topics {sorted(topics.values())} and {scratch}", file=sys.stderr)


if __name__ == "__main__":
    main()
