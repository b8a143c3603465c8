"""What the Spark job tests share: a real console (daphne, its own SQLite) with the Procfile's
Celery worker running Spark against a chosen master, a topic of known records, and an
independent confluent-kafka read of a range."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any
from unittest import mock

import psutil

from console.kafka import dev
from tests.live_server import LiveConsole, start_console, stop_process
from tests.stack import ROOT, cluster_client, log_ends, procfile_command, wait_for

# The Spark conf of every test worker. The jobs here run for seconds on small data, where the
# JVM's C2 compiler costs more CPU than it saves: C1 alone cut the Spark tests' time by about
# a third on a 2-core machine. Four shuffle partitions instead of 200 for the same reason.
_C1_ONLY = "-XX:TieredStopAtLevel=1"
TEST_SPARK_CONF = json.dumps(
    {
        "spark.sql.shuffle.partitions": "4",
        "spark.log.level": "WARN",
        "spark.driver.extraJavaOptions": _C1_ONLY,
        "spark.executor.extraJavaOptions": _C1_ONLY,
    }
)
PARTITIONS = 2
RECORDS = 60


class Console:
    def __init__(self, live: LiveConsole, workdir: Path, roles: tuple[str, ...]):
        self.live, self.workdir = live, workdir
        users = live.tokens({f"spark-{role}": role for role in roles})
        self.tokens = {role: users[f"spark-{role}"] for role in roles}
        self.worker: subprocess.Popen | None = None
        self.started: dict[str, dict[str, Any]] = {}

    def start_worker(self, **env: str) -> None:
        """The Procfile's worker with the console's environment (plus `env`)."""
        log = (self.workdir / "worker.log").open("a")
        self.worker = subprocess.Popen(
            procfile_command("worker"),  # the one command that runs Spark jobs
            cwd=ROOT,
            env={**self.live.env, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop_worker(self) -> None:
        if self.worker is not None:
            stop_process(self.worker)
            self.worker = None

    def stop(self) -> None:
        self.stop_worker()
        self.live.stop()

    def call(self, method: str, path: str, body: Any = None, role: str = "operator") -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.live.base}/api/v1/{path}",
            data=data,
            method=method,
            headers={
                "Authorization": f"Token {self.tokens[role]}",
                "Content-Type": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw, status, kind = answer.read(), answer.status, answer.headers["Content-Type"]
        except urllib.error.HTTPError as exc:
            raw, status, kind = exc.read(), exc.code, exc.headers["Content-Type"]
        return status, (json.loads(raw) if "json" in kind else raw.decode())

    def download(self, path: str, role: str = "viewer") -> tuple[int, Any, bytes]:
        """GET `path` as bytes: (status, headers, body), for files (a job's download)."""
        request = urllib.request.Request(
            f"{self.live.base}/api/v1/{path}",
            headers={"Authorization": f"Token {self.tokens[role]}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, exc.read()

    def submit(self, job_type: str, params: dict[str, Any]) -> dict[str, Any]:
        status, job = self.call(
            "POST", "spark/jobs", {"job_type": job_type, "cluster": "local", "params": params}
        )
        assert status == 201, job
        assert job["state"] == "queued"
        return job

    def job(self, job_id: int) -> dict[str, Any]:
        status, job = self.call("GET", f"spark/jobs/{job_id}")
        assert status == 200, job
        return job

    def wait(self, job_id: int, states: set[str], timeout: float) -> dict[str, Any]:
        return wait_for(
            lambda: (job := self.job(job_id))["state"] in states and job,
            timeout=timeout,
            what=f"job {job_id} to be {states}",
            every=0.5,
        )

    def job_count(self) -> int:
        return self.live.count_rows("sparkjobs_sparkjob")

    def job_processes(self, job_id: int) -> list[psutil.Process]:
        spec = str(self.workdir / "work" / str(job_id) / "spec.json")
        found = []
        for proc in psutil.process_iter(["cmdline"]):
            if spec in (proc.info["cmdline"] or []):
                found.append(proc)
        return found


def maintenance_topic_names() -> dict[str, str]:
    """Fresh names for a maintenance backfill's alarms, work orders and predictions topics."""
    suffix = uuid.uuid4().hex[:8]
    return {
        "alarms": f"pm-alarms-{suffix}",
        "work_orders": f"pm-work-orders-{suffix}",
        "predictions": f"pm-predictions-{suffix}",
    }


def start_spark_console(
    workdir: Path,
    redis_url: str,
    redis_db: int,
    master: str,
    roles: tuple[str, ...] = ("viewer", "operator"),
    **env: str,
) -> Console:
    """A console (API tokens for `roles`) and its worker running jobs on `master`; Celery on a
    Redis database of its own (`redis_db`), so no other worker takes these tasks."""
    redis = f"{redis_url.rsplit('/', 1)[0]}/{redis_db}"
    extra = {
        "CELERY_BROKER_URL": redis,
        "CELERY_RESULT_BACKEND": redis,
        "SPARK_MASTER": master,
        "SPARK_WORK_DIR": str(workdir / "work"),
        "SPARK_OUTPUT_DIR": str(workdir / "output"),
        "SPARK_CONF": TEST_SPARK_CONF,
        **env,
    }
    with mock.patch.dict(os.environ, extra):
        live = start_console(workdir)
    console = Console(live, workdir, roles)
    console.start_worker()
    return console


def seq_values() -> dict[int, list[int]]:
    """Per partition, the sequence numbers written: a gap of 2 (missing 2), a reversal."""
    per = RECORDS // PARTITIONS
    values = {p: list(range(per)) for p in range(PARTITIONS)}
    values[0][10:] = [v + 2 for v in values[0][10:]]  # 10 -> 12: one gap, two missing
    values[1][5], values[1][6] = values[1][6], values[1][5]  # one out of order
    return values


def seed_topics() -> dict[str, str]:
    """A source topic with known records (some null keys, some exact duplicates, sequence
    numbers; RECORDS over PARTITIONS) and an empty target topic of as many partitions."""
    client = cluster_client()
    source, target = f"spark-src-{uuid.uuid4().hex[:8]}", f"spark-dst-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(source, PARTITIONS, 3, {}), (target, PARTITIONS, 3, {})])
    log_ends(client, [(source, p) for p in range(PARTITIONS)])
    log_ends(client, [(target, p) for p in range(PARTITIONS)])
    producer = dev.make_producer(client, acks="all")
    for partition, seqs in seq_values().items():
        for i in range(len(seqs)):
            # Records 20..23 repeat records 16..19 exactly (key and value): 4 duplicates.
            src = i - 4 if 20 <= i < 24 else i
            key = None if src % 7 == 3 else f"k{src % 4}".encode()
            value = json.dumps({"seq": seqs[src], "n": src}).encode()
            producer.produce(source, key=key, value=value, partition=partition)
    assert producer.flush(30) == 0
    wait_for(
        lambda: all(
            v == RECORDS // PARTITIONS
            for v in log_ends(client, [(source, p) for p in range(PARTITIONS)]).values()
        ),
        timeout=30,
        what="the records to be written",
    )
    return {"source": source, "target": target}


def read_records(topic: str, ranges: dict[int, tuple[int, int]]) -> list[tuple]:
    """(partition, offset, key, value) of exactly these ranges, read with confluent-kafka."""
    consumer = dev.make_consumer(
        cluster_client(), f"spark-check-{uuid.uuid4().hex[:8]}", **{"enable.auto.commit": False}
    )
    wanted = {p: r for p, r in ranges.items() if r[1] > r[0]}
    dev.assign_from(consumer, topic, {p: r[0] for p, r in wanted.items()})
    out: list[tuple] = []
    deadline = time.monotonic() + 30
    remaining = dict(wanted)
    while remaining and time.monotonic() < deadline:
        for msg in consumer.consume(num_messages=500, timeout=1):
            if msg.error():
                continue
            p = msg.partition()
            if p in remaining and msg.offset() < remaining[p][1]:
                out.append((p, msg.offset(), msg.key(), msg.value()))
                if msg.offset() + 1 >= remaining[p][1]:
                    remaining.pop(p)
    consumer.close()
    assert not remaining, f"could not read {remaining}"
    return sorted(out)
