"""Limits on work a user can start: active Spark jobs per user, writes per minute; a submit
and its audit entry commit together. No service: the cluster snapshot is a fixed one and the
Celery queueing is replaced by a list (what is checked is what the console commits)."""

from __future__ import annotations

import json
import time

import pytest

from console import kafka
from console.metadata import ClusterSnapshot
from console.models import AuditEntry
from sparkjobs.models import SparkJob
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db(transaction=True)

BODY = {"job_type": "topic-export", "cluster": "local", "params": {"topic": "t"}}


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """Submits see topic `t`; queued job ids are collected instead of sent to Celery."""
    from console.metadata import cache
    from sparkjobs import service

    topic = kafka.TopicMeta("t", False, [kafka.PartitionMeta(0, 1, [1], [1])])
    snap = ClusterSnapshot(time.monotonic(), kafka.ClusterDescription("c", 1, []), {"t": topic})
    monkeypatch.setattr(cache, "snapshot", lambda cfg, max_age=0: snap)
    sent: list[int] = []
    monkeypatch.setattr(
        service,
        "enqueue",
        lambda job_id: service.transaction.on_commit(lambda: sent.append(job_id)),
    )
    return sent


def _submit(client):
    return client.post("/api/v1/spark/jobs", json.dumps(BODY), content_type="application/json")


def test_a_user_may_have_only_so_many_active_jobs(
    operator_client, admin_client_api, settings, queued
):
    settings.SPARK_MAX_ACTIVE_JOBS_PER_USER = 2
    assert [_submit(operator_client).status_code for _ in range(2)] == [201, 201]
    error = assert_error(_submit(operator_client), 429, "too_many_jobs")
    assert error["details"] == {"active": 2, "limit": 2}
    assert _submit(admin_client_api).status_code == 201  # another user: their own count
    SparkJob.objects.filter(created_by=operator_client.user).update(state="succeeded")
    assert _submit(operator_client).status_code == 201  # ended jobs no longer count
    assert len(queued) == 4 == SparkJob.objects.count()
    refused = AuditEntry.objects.filter(action="spark.job.submit", outcome="refused")
    assert refused.count() == 1


def test_a_job_is_not_saved_or_queued_when_its_audit_entry_cannot_be_written(
    operator_client, monkeypatch, queued
):
    from console import audit

    real = audit.record
    calls = []

    def failing(**kwargs):
        calls.append(kwargs["outcome"])
        if kwargs["outcome"] == "ok":
            raise RuntimeError("database is locked")
        return real(**kwargs)

    monkeypatch.setattr(audit, "record", failing)
    response = _submit(operator_client)
    assert response.status_code == 500
    assert calls == ["ok", "failed"]
    assert SparkJob.objects.count() == 0 and queued == []  # rolled back, never queued
    assert AuditEntry.objects.get().outcome == "failed"


def test_a_saved_job_has_its_entry_with_its_id(operator_client, queued):
    job_id = _submit(operator_client).json()["id"]
    entry = AuditEntry.objects.get(action="spark.job.submit")
    assert entry.outcome == "ok" and entry.details["job_id"] == job_id
    assert queued == [job_id]


def test_writes_per_user_are_rate_limited_reads_are_not(
    operator_client, viewer_client, monkeypatch
):
    from django.core.cache import cache

    from console.api.throttle import WriteRateThrottle

    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "3/min"})
    cache.clear()
    path = "/api/v1/clusters/local/groups/g/offset-resets"
    answers = [
        operator_client.post(path, "{}", content_type="application/json").status_code
        for _ in range(4)
    ]
    assert answers == [400, 400, 400, 429]  # refused writes count too
    limited = operator_client.post(path, "{}", content_type="application/json")
    assert_error(limited, 429, "throttled")
    assert int(limited["Retry-After"]) > 0
    # Another user has their own budget; reads are never limited.
    assert viewer_client.post(path, "{}", content_type="application/json").status_code == 403
    assert all(operator_client.get("/api/v1/me").status_code == 200 for _ in range(10))
    cache.clear()


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    from django.db import connection
    from django.db.backends.sqlite3.base import DatabaseWrapper

    if connection.vendor != "sqlite":
        pytest.skip("the SQLite settings only")  # PostgreSQL: nothing to check here
    # The test database lives in memory, which has no WAL: open a file with the same settings.
    wrapper = DatabaseWrapper({**connection.settings_dict, "NAME": str(tmp_path / "db.sqlite3")})
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
            cursor.execute("PRAGMA busy_timeout")
            assert cursor.fetchone()[0] == 20_000
    finally:
        wrapper.close()
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_writes_go_through_when_the_rate_limits_cache_fails(operator_client, monkeypatch):
    from console.api.throttle import WriteRateThrottle

    class Broken:
        def get(self, *args, **kwargs):
            raise ConnectionError("Redis is down")

        set = get

    monkeypatch.setattr(WriteRateThrottle, "cache", Broken())
    path = "/api/v1/clusters/local/groups/g/offset-resets"
    response = operator_client.post(path, "{}", content_type="application/json")
    assert response.status_code == 400  # read and refused for its body, not a 500


def test_a_browser_session_submits_too(operator_client, queued):
    """The SPA signs in with a session, whose user is a lazy proxy object (the limit's lookup
    once took its type for the model: every job submitted from a page answered 500)."""
    from rest_framework.test import APIClient

    browser = APIClient(enforce_csrf_checks=False)
    browser.force_login(operator_client.user)
    response = browser.post("/api/v1/spark/jobs", json.dumps(BODY), content_type="application/json")
    assert response.status_code == 201, response.content
    assert len(queued) == 1
