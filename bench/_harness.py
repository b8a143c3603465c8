"""Shared bits of the benchmarks: Django set up on a scratch database, an API client, timing."""

from __future__ import annotations

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
