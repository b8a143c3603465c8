"""Shared bits of the benchmarks: Django set up on a scratch database, an API client, timing."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def setup_django() -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench-")) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def api_client():
    """A DRF client acting as an admin through a real token (auth and permissions included)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from console.roles import grant_role

    user, _ = get_user_model().objects.get_or_create(username="bench")
    grant_role(user, "admin")
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return samples


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95_index = max(0, round(0.95 * len(ordered)) - 1)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(ordered[p95_index] * 1000, 1),
    }


def load_average() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages: a benchmark's figures need them."""
    return [round(x, 2) for x in os.getloadavg()]


def spark_worker_env(prefix: str, redis_db: int, master: str) -> Path:
    """A scratch directory, and the environment this process and its Celery worker share for
    a Spark benchmark: Celery on its own Redis database (no other worker takes the job),
    `master` as SPARK_MASTER, Spark's work and output directories in the scratch."""
    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    redis_base = os.environ.get("REDIS_URL", "redis://127.0.0.1:16379/0").rsplit("/", 1)[0]
    os.environ.update(
        {
            "CELERY_BROKER_URL": f"{redis_base}/{redis_db}",
            "CELERY_RESULT_BACKEND": f"{redis_base}/{redis_db}",
            "SPARK_MASTER": master,
            "SPARK_WORK_DIR": str(scratch / "work"),
            "SPARK_OUTPUT_DIR": str(scratch / "output"),
        }
    )
    return scratch


# --- the lag benchmarks' cluster: topics of a few records each, lagging groups ---------------
def add_layout_args(
    parser: argparse.ArgumentParser, *, topics: int, partitions: int, groups: int
) -> None:
    """`--topics` topics of `--partitions` partitions each, and `--groups` consumer groups."""
    parser.add_argument("--topics", type=int, default=topics)
    parser.add_argument("--partitions", type=int, default=partitions)
    parser.add_argument("--groups", type=int, default=groups)


def produce_waiting(producer: Any, *args: Any, wait: float = 0.05, **kwargs: Any) -> None:
    """`producer.produce(*args, **kwargs)`, polling `wait` seconds at a time while librdkafka's
    local queue is full (a fill loop outruns the brokers)."""
    while True:
        try:
            producer.produce(*args, **kwargs)
            return
        except BufferError:
            producer.poll(wait)


def make_topics_with_records(admin: Any, topics: list[str], partitions: int) -> None:
    """The topics that are missing (replication factor 1, 250 per request), and three records
    in every partition (topping up a partition an interrupted run left short)."""
    from console import kafka
    from console.kafka import dev

    existing = {t.name for t in admin.topic_metadata()}
    missing = [t for t in topics if t not in existing]
    for i in range(0, len(missing), 250):
        dev.create_topics(
            admin, [(t, partitions, 1, {}) for t in missing[i : i + 250]], timeout=120
        )
    tps = [(t, p) for t in topics for p in range(partitions)]
    ends = admin.list_offsets(tps, "latest")
    producer = dev.make_producer(admin, **{"linger.ms": 50})
    for tp in tps:
        end = ends[tp].offset if isinstance(ends[tp], kafka.OffsetResult) else 0
        for i in range(end, 3):
            for _ in range(600):
                try:
                    producer.produce(tp[0], value=str(i).encode(), partition=tp[1])
                    break
                except BufferError:  # librdkafka's queue is full: let it drain
                    producer.poll(0.5)
                except Exception as exc:  # a topic just (re)created: not in its metadata yet
                    if "Unknown partition" not in str(exc):
                        raise
                    producer.poll(0.5)
    producer.flush(300)


def commit_group_offsets(admin: Any, groups: list[str], topics: list[str], partitions: int) -> None:
    """Each group commits on every partition of one topic (the topics in turn), at offset
    partition % 3 of the 3 records written: most partitions lag."""
    for index, group in enumerate(groups):
        topic = topics[index % len(topics)]
        offsets = {(topic, p): p % 3 for p in range(partitions)}
        # A topic made a moment ago may not be known to its group's coordinator yet: the
        # commit answers a per-partition error (not an exception) and is tried again.
        for attempt in range(10):
            errors = {tp: e for tp, e in admin.commit_offsets(group, offsets).items() if e}
            if not errors:
                break
            time.sleep(0.2 * (attempt + 1))
        else:
            raise SystemExit(f"group {group} could not commit: {errors}")


def delete_groups(admin: Any, groups: list[str]) -> None:
    """The benchmark's groups deleted; one that is already gone is no error."""
    from console import kafka

    for group in groups:
        try:
            admin.delete_group(group)
        except kafka.KafkaAdapterError:
            pass


def devstack_tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "devstack", "tool", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )


def worker_command() -> list[str]:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("worker:"):
            cmd = shlex.split(line.split(":", 1)[1])
            return [str(ROOT / cmd[0]), *cmd[1:]]
    raise SystemExit("Procfile has no worker line")


def wait_for_worker(timeout: float = 60.0) -> None:
    from project.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(timeout=1.0):
            return
    raise SystemExit("the Celery worker did not answer a ping; see its log")


@contextlib.contextmanager
def running_worker(log_path: Path) -> Iterator[None]:
    """The Procfile's worker line as a subprocess (its output to `log_path`), answering a
    ping before the block runs; its whole process group is stopped afterwards."""
    worker = subprocess.Popen(
        worker_command(),
        cwd=ROOT,
        env=dict(os.environ),
        stdout=log_path.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for_worker()
        yield
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(timeout=60)
