"""200 Spark submits at once against one live console (daphne, SQLite): every one is answered
201 or 429, every 201 has its audit entry, none is a 500 (`database is locked` once answered
500 after the job was queued: it ran unaudited and its client never learned its id).

No worker runs: the jobs stay queued, on a Redis database of their own that is emptied after.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest import mock

import pytest
import redis

from console.kafka import dev
from tests.live_server import start_console
from tests.stack import cluster_client

pytestmark = [pytest.mark.integration]

STORM_REDIS_DB = 7  # the Spark modules use 8-15, each its own
USERS, PER_USER, LIMIT = 4, 50, 30


@pytest.fixture(scope="module")
def console(tmp_path_factory, stack):
    url = f"{stack['redis_url'].rsplit('/', 1)[0]}/{STORM_REDIS_DB}"
    env = {
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "SPARK_MAX_ACTIVE_JOBS_PER_USER": str(LIMIT),
    }
    with mock.patch.dict("os.environ", env):
        live = start_console(tmp_path_factory.mktemp("storm"))
    yield live
    live.stop()
    redis.Redis.from_url(url).flushdb()


def _call(base: str, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{base}/api/v1/{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


AUDITOR = {"storm-auditor": "operator"}


def test_parallel_submits_are_201_or_429_and_every_201_is_audited(console):
    topic = f"storm-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(topic, 1, 1, {})])
    users = console.tokens({f"storm-{i}": "operator" for i in range(USERS)} | AUDITOR)
    tokens = [users[f"storm-{i}"] for i in range(USERS)]
    body = {"job_type": "topic-export", "cluster": "local", "params": {"topic": topic}}
    try:
        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(
                pool.map(
                    lambda token: _call(console.base, token, "POST", "spark/jobs", body),
                    [t for t in tokens for _ in range(PER_USER)],
                )
            )
    finally:
        client.delete_topics([topic])
    statuses = Counter(status for status, _ in answers)
    print("storm:", dict(statuses))
    assert set(statuses) <= {201, 429}, [a for a in answers if a[0] not in (201, 429)][:3]
    assert statuses[201] == USERS * LIMIT  # each user up to the limit, not one more
    created = {answer["id"] for status, answer in answers if status == 201}
    admin = users["storm-auditor"]
    status, jobs = _call(console.base, admin, "GET", "spark/jobs?limit=500")
    assert status == 200 and {job["id"] for job in jobs} == created
    status, entries = _call(console.base, admin, "GET", "audit?action=spark.job.submit&limit=1000")
    assert status == 200
    audited = {e["details"].get("job_id") for e in entries if e["outcome"] == "ok"}
    assert audited == created
    refused = [e for e in entries if e["outcome"] == "refused"]
    assert len(refused) == statuses[429]
