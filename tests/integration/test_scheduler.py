"""Job schedules with two real scheduler processes (`manage.py scheduler`, as the Procfile and
the systemd units run them), a real console, Celery worker and Spark (local[2]), on the dev
stack's Redis and PostgreSQL.

One scheduler holds the lease and the other stands by. A slot made due a few seconds ahead
starts a job at its time, and the job runs on the worker like any submitted one (audited with
the schedule named). With the worker stopped the next job stays queued, so the slot after it
is skipped. The active scheduler is killed: the standby takes over and runs the next slot.
Then that one is killed too, a slot falls due with no scheduler running, and a scheduler
started again runs the missed slot once. Across all of it every slot has exactly one run and
every started run exactly one job.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import stop_process
from tests.spark_helpers import Console, start_spark_console
from tests.stack import ROOT, cluster_client, filled_topic, wait_for

pytestmark = pytest.mark.integration

CELERY_DB = 8  # others: test_topic_search 9, test_pm_features 10, ..., test_pm_model 15
TICK_S = 1.0


@pytest.fixture(scope="module")
def console(stack, tmp_path_factory) -> Any:
    c = start_spark_console(
        tmp_path_factory.mktemp("sched-console"), stack["redis_url"], CELERY_DB, "local[2]"
    )
    yield c
    c.stop()


class Scheduler:
    def __init__(self, console: Console, log: Path):
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "scheduler", "--tick", str(TICK_S)],
            cwd=ROOT,
            env=console.live.env,
            stdout=log.open("a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def said(self, text: str) -> bool:
        return text in self.log.read_text()

    def wait_until_it_says(self, text: str, timeout: float = 60) -> None:
        wait_for(lambda: self.said(text), timeout=timeout, what=f"{self.log.name}: {text!r}")


def _sql(console: Console, statement: str, *args: Any) -> list[tuple]:
    import psycopg

    with psycopg.connect(console.live.env["DATABASE_URL"]) as db:
        cursor = db.execute(statement, args)
        return cursor.fetchall() if cursor.description else []


def _due_in(console: Console, schedule_id: int, seconds: float) -> datetime:
    """Move the schedule's next slot to `seconds` from now (its timing rules have unit tests;
    here the question is what the processes do with a due slot)."""
    [(due,)] = _sql(
        console,
        "UPDATE sparkjobs_schedule SET next_run_at = now() + make_interval(secs => %s) "
        "WHERE id = %s RETURNING next_run_at",
        seconds,
        schedule_id,
    )
    return due


def _runs(console: Console, schedule_id: int) -> list[dict[str, Any]]:
    status, schedule = console.call("GET", f"spark/schedules/{schedule_id}", role="viewer")
    assert status == 200, schedule
    return schedule["runs"]


def _wait_for_runs(console: Console, schedule_id: int, count: int) -> list[dict[str, Any]]:
    return wait_for(
        lambda: len(runs := _runs(console, schedule_id)) >= count and runs,
        timeout=30,
        what=f"{count} runs of schedule {schedule_id}",
        every=0.3,
    )


def test_two_schedulers_run_each_slot_once_skip_overlaps_and_take_over(console, tmp_path):
    topic = f"sched-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    filled_topic(client, topic, partitions=1, replication=1, records=5)
    first = Scheduler(console, tmp_path / "scheduler-a.log")
    first.wait_until_it_says("scheduling (lease")
    second = Scheduler(console, tmp_path / "scheduler-b.log")
    second.wait_until_it_says("standing by")
    try:
        status, schedule = console.call(
            "POST",
            "spark/schedules",
            {
                "job_type": "topic-export",
                "cluster": "local",
                "params": {"topic": topic},
                "every_minutes": 60,
            },
        )
        assert status == 201, schedule
        sid = schedule["id"]

        # A slot due in 2 s: a job at its time, run on the worker like any other.
        due = _due_in(console, sid, 2.0)
        [run] = _wait_for_runs(console, sid, 1)
        assert run["outcome"] == "started", run
        job = console.job(run["job_id"])
        started_at = datetime.fromisoformat(job["created_at"])
        assert due <= started_at <= due + timedelta(seconds=5), (due, started_at)
        assert job["schedule_id"] == sid and job["created_by"] == "spark-operator"
        done = console.wait(job["id"], {"succeeded", "failed"}, timeout=180)
        assert done["state"] == "succeeded", done
        assert done["result"]["rows"] == 5
        status, detail = console.call("GET", f"spark/schedules/{sid}", role="viewer")
        next_at = datetime.fromisoformat(detail["next_run_at"])
        assert timedelta(minutes=59) < next_at - due <= timedelta(minutes=61)
        assert detail["last_job_id"] == job["id"]

        # The worker stopped: the next job stays queued, and the slot after it is skipped.
        console.stop_worker()
        _due_in(console, sid, 0)
        queued = _wait_for_runs(console, sid, 2)[0]
        assert queued["outcome"] == "started" and queued["job_state"] == "queued"
        _due_in(console, sid, 0)
        skipped = _wait_for_runs(console, sid, 3)[0]
        assert skipped["outcome"] == "skipped" and skipped["job_id"] == queued["job_id"]
        assert f"job {queued['job_id']} of this schedule is still queued" in skipped["reason"]

        # The active scheduler dies: the standby takes the lease and runs the next slot.
        stop_process(first.process, sig=9)
        second.wait_until_it_says("scheduling (lease", timeout=3 * TICK_S * 3 + 10)
        status, _ = console.call("POST", f"spark/jobs/{queued['job_id']}/cancel")
        assert status == 200
        _due_in(console, sid, 0)
        latest = _wait_for_runs(console, sid, 4)[0]
        assert latest["outcome"] == "started" and latest["job_id"] != queued["job_id"]

        # No scheduler at all (the machine restarted): a slot falls due while none runs. The
        # scheduler started again runs that missed slot once, at its start, and not the slot
        # it had already run.
        stop_process(second.process, sig=9)
        status, _ = console.call("POST", f"spark/jobs/{latest['job_id']}/cancel")
        assert status == 200
        ran = {r["due_at"] for r in _runs(console, sid)}
        missed_due = _due_in(console, sid, -3.0)
        third = Scheduler(console, tmp_path / "scheduler-c.log")
        third.wait_until_it_says("scheduling (lease", timeout=3 * TICK_S * 3 + 10)
        [missed] = [r for r in _wait_for_runs(console, sid, 5) if r["due_at"] not in ran]
        assert missed["outcome"] == "started" and missed["job_id"] != latest["job_id"]
        assert abs(datetime.fromisoformat(missed["due_at"]) - missed_due) < timedelta(seconds=1)
        time.sleep(3 * TICK_S)  # three more ticks of the restarted scheduler: nothing run again
        assert len(_runs(console, sid)) == 5 and third.process.poll() is None
        status, detail = console.call("GET", f"spark/schedules/{sid}", role="viewer")
        assert datetime.fromisoformat(detail["next_run_at"]) > missed_due + timedelta(minutes=59)
    finally:
        stop_process(first.process)
        stop_process(second.process)
        if "third" in locals():
            stop_process(third.process)
        client.delete_topics([topic])

    # Exactly once: one run per slot, one job per started run, one audit entry per job.
    runs = _runs(console, sid)
    assert len({r["due_at"] for r in runs}) == len(runs) == 5
    jobs = _sql(console, "SELECT id FROM sparkjobs_sparkjob WHERE schedule_id = %s", sid)
    started = {r["job_id"] for r in runs if r["outcome"] == "started"}
    assert {j for (j,) in jobs} == started and len(started) == 4
    audited = _sql(
        console,
        "SELECT count(*) FROM console_auditentry WHERE action = 'spark.job.submit' "
        "AND outcome = 'ok' AND details->>'schedule_id' = %s",
        str(sid),
    )
    assert audited == [(4,)]
