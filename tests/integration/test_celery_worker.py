"""A real Celery worker on the dev stack's Redis runs a task and returns its result."""

import os
import signal
import subprocess
import sys

import pytest

from tests.stack import ROOT

pytestmark = pytest.mark.integration


@pytest.fixture
def celery_worker(stack):
    env = {**os.environ, "REDIS_URL": stack["redis_url"]}
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "project",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    yield worker
    os.killpg(worker.pid, signal.SIGTERM)
    worker.wait(timeout=30)


def test_task_round_trip_through_redis_and_worker(celery_worker, settings, stack):
    from console.tasks import ping

    assert settings.CELERY_BROKER_URL == stack["redis_url"]
    result = ping.delay()
    assert result.get(timeout=60) == "pong"
    assert result.state == "SUCCESS"
