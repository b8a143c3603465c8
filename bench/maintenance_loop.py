"""Simulation: 30 days of the predictive-maintenance loop in accelerated time.

    .venv/bin/python bench/maintenance_loop.py [--equipment 40] [--warmup-days 60] [--days 30]

What runs is the product's own loop, on the dev stack's Kafka and real Spark, through the
Procfile's Celery worker (its own Redis database, a scratch SQLite and output directory):

1. A history (devtools/demo/maintenance_history.py, the planted precursor) of
   `--warmup-days + --days` days is generated; its first `--warmup-days` are written into
   fresh topics, the rest arrive one day at a time (`write_days`), as they would in
   production.
2. The first model: a `maintenance-pipeline` job over the warm-up (cut-off two thirds in),
   promoted by hand (`POST spark/models/{id}/promote`). That first promotion creates the
   cluster's schedules exactly as for a user: the daily score (01:30 UTC), the daily realised
   performance (03:30) and the weekly retraining (Sundays 02:30), docs/maintenance-loop.md.
3. A fake clock drives the schedules: each simulated day, the day before is written, then
   the clock jumps to each schedule's next run time in turn and the scheduler's own tick
   (`sparkjobs.schedules.run_due(now)`) submits what is due, like the scheduler process
   would at that moment; the clock waits for those jobs to end before it moves on (a day of
   the loop takes about a minute instead of a day).

Reported per simulated day: the active model (and how it became active), the day's score,
the realised precision and recall of the active model's predictions whose horizon has passed
(the day's `model-performance` job), and on retraining days the challenge: both ROC AUCs on
the same days and whether the new model was promoted. The topics and scratch dirs are deleted
unless --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time
from typing import Any

from _harness import api_client, load_average, running_worker, setup_django, spark_worker_env

REDIS_DB = 9  # the worker's own Celery database: no other worker takes the jobs
ENDED = ("succeeded", "failed", "cancelled", "lost")
JOB_TIMEOUT_S = 900
HORIZON_DAYS = 7  # the pipeline's default label horizon, which the schedules inherit


def _midnight(day: date) -> datetime:
    return datetime.combine(day, day_time(), UTC)


def _wait(job_ids: list[int]) -> list[Any]:
    from sparkjobs.models import SparkJob

    deadline = time.monotonic() + JOB_TIMEOUT_S
    while True:
        jobs = list(SparkJob.objects.filter(pk__in=job_ids).order_by("id"))
        if all(job.state in ENDED for job in jobs):
            return jobs
        if time.monotonic() > deadline:
            raise SystemExit(f"jobs {job_ids} did not end within {JOB_TIMEOUT_S} s")
        time.sleep(0.5)


def _run_day(day: date) -> list[Any]:
    """The fake clock through one day: each due slot in time order, its jobs waited for."""
    from sparkjobs.models import Schedule
    from sparkjobs.schedules import run_due

    end = _midnight(day + timedelta(days=1))
    ended = []
    while True:
        due = (
            Schedule.objects.filter(enabled=True, next_run_at__lt=end)
            .order_by("next_run_at")
            .values_list("next_run_at", flat=True)
            .first()
        )
        if due is None:
            return ended
        runs = run_due(now=due)
        ended += _wait([run.job_id for run in runs if run.job_id is not None])
        for run in runs:
            if run.job_id is None:
                print(f"  {due:%H:%M} {run.schedule.job_type}: {run.outcome} {run.reason}")


def _predictions(client: Any, topic: str) -> list[dict[str, Any]]:
    from console.kafka import dev

    return [json.loads(r.value) for r in dev.read_topic(client, topic) if r.value]


def _thresholds() -> dict[int, float]:
    """{model id: its threshold} of every model so far."""
    from maintenance import lifecycle

    return {
        m["id"]: float(m["metrics"].get("threshold") or 0.5) for m in lifecycle.list_models(1000)
    }


def _pipeline(client: Any, params: dict[str, Any]) -> int:
    answer = client.post(
        "/api/v1/spark/jobs",
        {"job_type": "maintenance-pipeline", "cluster": "local", "params": params},
        format="json",
    )
    if answer.status_code != 201:
        raise SystemExit(f"submit failed: {answer.status_code} {answer.content[:500]!r}")
    (job,) = _wait([answer.json()["id"]])
    if job.state != "succeeded":
        raise SystemExit(f"pipeline {job.pk} {job.state}: {job.error}")
    return int(job.pk)


def _day_row(day: date, jobs: list[Any], written: int) -> dict[str, Any]:
    from maintenance import lifecycle

    row: dict[str, Any] = {"day": day.isoformat(), "records_written": written}
    for job in jobs:
        if job.state != "succeeded":
            row.setdefault("failed", []).append(f"{job.job_type} {job.pk}: {job.error[:200]}")
            continue
        if job.job_type == "maintenance-score":
            row["scored_day"] = job.result["score"]["day"]
            row["scored_by"] = job.result["score"]["model_id"]
        elif job.job_type == "model-performance":
            totals = job.result.get("totals") or {}
            row["performance_of"] = job.params.get("model_id")
            row["realised"] = {
                k: totals.get(k) for k in ("known", "pending", "failures", "precision", "recall")
            }
        elif job.job_type == "maintenance-retrain":
            outcome = lifecycle.get_model(job.pk)["challenge"]
            row["retrain"] = {
                "model": job.pk,
                "challenger_roc_auc": outcome["challenger_roc_auc"],
                "champion": outcome["champion_id"],
                "champion_roc_auc": outcome["champion_roc_auc"],
                "promoted": outcome["promoted"],
                "reason": outcome["reason"],
            }
    state = lifecycle.active_model("local")
    row["active_model"] = state["model"]["id"] if state["model"] else None
    row["active_how"] = state["how"]
    return row


def _loop_realised(
    predictions: list[dict[str, Any]],
    failures: dict[str, set[date]],
    thresholds: dict[int, float],
    day: date,
    horizon: int,
) -> dict[str, Any] | None:
    """How the loop's predictions of `day` turned out (whatever model made them), from the
    history's own failure days: a prediction is right when the equipment fails within the
    next `horizon` days (the labels' rule), flagged when its probability reaches its model's
    threshold. The ground truth the generator knows, independent of the product's jobs."""
    scored = [p for p in predictions if p["day"] == day.isoformat()]
    if not scored:
        return None
    tp = flagged = positives = 0
    for p in scored:
        fails = any(
            day < failure <= day + timedelta(days=horizon)
            for failure in failures.get(p["equipment_id"], ())
        )
        hit = p["failure_probability"] >= thresholds.get(p["model_id"], 0.5)
        positives += fails
        flagged += hit
        tp += fails and hit
    return {
        "day": day.isoformat(),
        "predictions": len(scored),
        "failures": positives,
        "flagged": flagged,
        "true_positives": tp,
        "precision": round(tp / flagged, 3) if flagged else None,
        "recall": round(tp / positives, 3) if positives else None,
    }


def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall over every judged day of the run (the loop's predictions)."""
    judged = [r["loop_realised"] for r in rows if r.get("loop_realised")]
    tp = sum(j["true_positives"] for j in judged)
    flagged = sum(j["flagged"] for j in judged)
    failures = sum(j["failures"] for j in judged)
    return {
        "days": len(judged),
        "predictions": sum(j["predictions"] for j in judged),
        "failures": failures,
        "flagged": flagged,
        "precision": round(tp / flagged, 3) if flagged else None,
        "recall": round(tp / failures, 3) if failures else None,
    }


def _line(row: dict[str, Any]) -> str:
    realised = row.get("realised") or {}

    def figure(key: str) -> str:
        value = realised.get(key)
        return "  -  " if value is None else f"{value:.3f}"

    retrain = row.get("retrain")
    retrained = ""
    if retrain:
        champion = retrain["champion_roc_auc"]
        retrained = (
            f"retrain {retrain['model']}: AUC {retrain['challenger_roc_auc']:.3f} vs "
            f"{'-' if champion is None else f'{champion:.3f}'} -> "
            f"{'PROMOTED' if retrain['promoted'] else 'candidate'}"
        )
    failed = f"  FAILED {row['failed']}" if row.get("failed") else ""
    loop = row.get("loop_realised") or {}

    def loop_figure(key: str) -> str:
        value = loop.get(key)
        return "  -  " if value is None else f"{value:.3f}"

    return (
        f"{row['day']}  active {row['active_model']!s:>4} ({row['active_how']!s:6})  "
        f"its known {realised.get('known', '-')!s:>4} P {figure('precision')} "
        f"R {figure('recall')}  | loop day {loop.get('day', '-')}: "
        f"P {loop_figure('precision')} R {loop_figure('recall')}  {retrained}{failed}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--equipment", type=int, default=40)
    parser.add_argument("--warmup-days", type=int, default=60)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--master", default="local[2]", help="SPARK_MASTER of the worker")
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--keep", action="store_true", help="keep the topics and outputs")
    args = parser.parse_args()

    scratch = spark_worker_env("bench-loop-", REDIS_DB, args.master)
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from devtools.demo import maintenance_history
    from sparkjobs.models import Schedule
    from sparkjobs.schedule_times import next_run
    from sparkjobs.schedules import timing_of

    cfg = get_cluster("local")
    suffix = uuid.uuid4().hex[:8]
    topics = {
        "alarms": f"bench-loop-alarms-{suffix}",
        "work_orders": f"bench-loop-work-orders-{suffix}",
        "predictions": f"bench-loop-predictions-{suffix}",
    }
    started = time.monotonic()
    load = {"before": load_average()}
    history = maintenance_history.generate(
        args.equipment, args.warmup_days + args.days, args.seed, pattern=True
    )
    first = history.first_day
    failures = {
        eq: {first + timedelta(days=n) for n in days} for eq, days in history.failures.items()
    }
    sim_start = first + timedelta(days=args.warmup_days)
    client = kafka.for_cluster(cfg, timeout=60)
    maintenance_history.ensure_topics(client, *topics.values())
    warm = maintenance_history.write_days(
        cfg, history, topics["alarms"], topics["work_orders"], first, sim_start
    )
    api = api_client()
    rows: list[dict[str, Any]] = []
    try:
        with running_worker(scratch / "worker.log"):
            cutoff = first + timedelta(days=args.warmup_days * 2 // 3)
            model = _pipeline(
                api,
                {
                    "features": {"alarms_topic": topics["alarms"]},
                    "labels": {
                        "alarms_topic": topics["alarms"],
                        "work_orders_topic": topics["work_orders"],
                    },
                    "training": {"cutoff_date": cutoff.isoformat()},
                    "model": {},
                    "score": {"predictions_topic": topics["predictions"]},
                },
            )
            answer = api.post(
                f"/api/v1/spark/models/{model}/promote",
                {"reason": "the first model (the simulation's warm-up)"},
                format="json",
            )
            if answer.status_code != 200:
                raise SystemExit(f"promote failed: {answer.status_code} {answer.content!r}")
            schedules = list(Schedule.objects.all())
            print(
                f"warm-up: {warm} records over {first} .. {sim_start - timedelta(days=1)}; "
                f"model {model} active; schedules: "
                + ", ".join(f"{s.job_type} ({s.cron})" for s in schedules),
                file=sys.stderr,
            )
            # The fake clock starts at the first simulated day's midnight.
            for schedule in schedules:
                schedule.next_run_at = next_run(timing_of(schedule), _midnight(sim_start))
                schedule.save(update_fields=["next_run_at"])
            for n in range(args.days):
                today = sim_start + timedelta(days=n)
                written = 0
                if n > 0:  # the day that just ended arrives
                    written = maintenance_history.write_days(
                        cfg,
                        history,
                        topics["alarms"],
                        topics["work_orders"],
                        today - timedelta(days=1),
                        today,
                    )
                row = _day_row(today, _run_day(today), written)
                # The day whose horizon has just passed: the data now runs to yesterday.
                judged = today - timedelta(days=HORIZON_DAYS + 1)
                row["loop_realised"] = _loop_realised(
                    _predictions(client, topics["predictions"]),
                    failures,
                    _thresholds(),
                    judged,
                    HORIZON_DAYS,
                )
                rows.append(row)
                print(_line(row), file=sys.stderr, flush=True)
    finally:
        load["after"] = load_average()
        report = {
            "equipment": args.equipment,
            "warmup_days": args.warmup_days,
            "days": args.days,
            "seed": args.seed,
            "master": args.master,
            "cpus": os.cpu_count(),
            "load_average_1_5_15": load,
            "wall_s": round(time.monotonic() - started, 1),
            "promotions": sum(1 for r in rows if (r.get("retrain") or {}).get("promoted")),
            "loop_realised_total": _totals(rows),
            "retrains": sum(1 for r in rows if r.get("retrain")),
            "days_run": rows,
        }
        text = json.dumps(report, indent=2, default=str)
        print(text)
        if args.json:
            with open(args.json, "w") as out:
                out.write(text)
        if not args.keep:
            client.delete_topics(list(topics.values()))
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            print(f"kept topics {sorted(topics.values())} and {scratch}", file=sys.stderr)


if __name__ == "__main__":
    main()
