"""Liveness (/healthz) and readiness (/readyz, console/health.py): what each checks, the
answer's shape, the timeouts, and what the answer never shows."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace

import pytest
from django.test import RequestFactory

from console import health
from groups.lag import store as lag_store

NOW = 1_800_000_000.0


class FakeRedis:
    """lag_store's client: GET of a cluster's pass record."""

    def __init__(self, metas: dict[str, dict]):
        self.metas = {lag_store.key(c, "meta"): json.dumps(m).encode() for c, m in metas.items()}

    def get(self, key: str) -> bytes | None:
        return self.metas.get(key)


@pytest.fixture
def services_up(monkeypatch, settings):
    """Database and Redis answer; the sampler finished a pass of `local` a second ago."""
    monkeypatch.setattr(health, "check_database", lambda: {})
    monkeypatch.setattr(health, "check_redis", lambda url, timeout_s: {})
    monkeypatch.setattr(lag_store, "_down_until", 0.0)
    fake = FakeRedis({"local": {"ts": time.time() - 1.5, "duration_s": 0.5, "ok": True}})
    monkeypatch.setattr(lag_store, "_client", lambda: fake)
    settings.READINESS_REQUIRE_SAMPLER = True
    settings.LAG_SAMPLE_SECONDS = 5
    return fake


# --- liveness ------------------------------------------------------------------------------


def test_healthz_checks_nothing_but_the_process(client, settings):
    # No database access is allowed in this test and Redis points nowhere: still 200.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


# --- readiness through the URL -------------------------------------------------------------


def test_readyz_answers_200_listing_every_check(client, services_up):
    response = client.get("/readyz")  # no session, no token
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ready"] is True and body["failed"] == []
    assert {name: c["state"] for name, c in body["checks"].items()} == {
        "database": "ok",
        "redis": "ok",
        "sampler": "ok",
    }
    sampler = body["checks"]["sampler"]
    assert sampler["fresh"] == 1 and sampler["newest_pass_age_s"] == pytest.approx(1.0, abs=0.5)
    assert sampler["max_age_s"] == 10
    assert response["Cache-Control"] == "no-store"


def test_readyz_answers_503_naming_what_failed(client, services_up, monkeypatch):
    def redis_down(url, timeout_s):
        raise health.CheckFailed("Redis did not answer PING (ConnectionError)")

    monkeypatch.setattr(health, "check_redis", redis_down)
    services_up.metas.clear()  # the sampler never ran (or its record expired)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False and body["failed"] == ["redis", "sampler"]
    assert body["checks"]["database"]["state"] == "ok"
    assert body["checks"]["redis"] == {
        "state": "failed",
        "error": "Redis did not answer PING (ConnectionError)",
        "ms": body["checks"]["redis"]["ms"],
    }
    assert "younger than 10 s" in body["checks"]["sampler"]["error"]


@pytest.mark.django_db
def test_readyz_with_nothing_running_but_the_database(client, settings, monkeypatch):
    # The real checks: the test database answers, Redis (a closed port) does not, and the
    # sampler's records cannot be read. Nothing of REDIS_URL appears in the answer.
    monkeypatch.setattr(lag_store, "_down_until", 0.0)
    settings.REDIS_URL = "redis://:pa55w0rd-in-url@127.0.0.1:1/0"
    started = time.monotonic()
    response = client.get("/readyz")
    assert time.monotonic() - started < settings.READINESS_TIMEOUT_SECONDS + 1
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["redis", "sampler"]
    assert body["checks"]["database"]["state"] == "ok"
    assert body["checks"]["redis"]["error"].startswith("Redis did not answer PING (")
    assert body["checks"]["sampler"]["error"].startswith("the sampler's passes could not be read")
    assert "pa55w0rd" not in response.content.decode()
    assert "127.0.0.1" not in response.content.decode()


def test_readyz_without_a_sampler_meant_to_run(client, services_up, settings):
    settings.READINESS_REQUIRE_SAMPLER = False
    services_up.metas.clear()
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"]["sampler"] == {"state": "skipped"}


def test_readyz_is_read_only(client, services_up):
    response = client.post("/readyz")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_a_check_that_raises_unexpectedly_fails_without_its_message(monkeypatch, services_up):
    def broken():
        raise RuntimeError("secret detail at 10.1.2.3")

    monkeypatch.setattr(health, "check_database", broken)
    request = RequestFactory().get("/readyz")
    response = health.readiness_view(lambda name: None)(request)
    assert response.status_code == 503
    assert b"10.1.2.3" not in response.content
    assert b"unexpected error (RuntimeError)" in response.content


# --- timeouts ------------------------------------------------------------------------------


def test_a_hung_check_fails_in_time_and_the_others_still_answer():
    release = threading.Event()

    def hung() -> dict:
        release.wait(30)
        return {}

    started = time.monotonic()
    try:
        results = health.run_checks({"redis": hung, "database": lambda: {}, "x": None}, 0.3)
    finally:
        release.set()
    assert time.monotonic() - started < 1.5
    assert results["redis"] == {"state": "failed", "error": "no answer within 0.3 s"}
    assert results["database"]["state"] == "ok"
    assert results["x"] == {"state": "skipped"}


def test_redis_check_is_bounded_by_its_socket_timeouts():
    # A port that accepts nothing answers at once; the client's own timeouts are the bound.
    client = health._redis_client("redis://127.0.0.1:1/0", 0.5)
    kwargs = client.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] == 0.5 and kwargs["socket_connect_timeout"] == 0.5
    with pytest.raises(health.CheckFailed, match=r"Redis did not answer PING \("):
        health.check_redis("redis://127.0.0.1:1/0", 0.5)


@pytest.mark.django_db
def test_database_check_runs_a_query():
    assert health.run_checks({"database": health.check_database}, 5)["database"]["state"] == "ok"


# --- the sampler's last pass ---------------------------------------------------------------


def _sampler(metas: dict[str, dict | None], interval_s: float = 5.0, clusters=None) -> dict:
    names = list(metas) if clusters is None else clusters
    return health.check_sampler(names, metas.get, interval_s, NOW)


def test_one_fresh_cluster_is_enough():
    details = _sampler(
        {
            "a": {"ts": NOW - 60, "duration_s": 1, "ok": True},  # stale
            "b": {"ts": NOW - 9, "duration_s": 2, "ok": True},  # ended 7 s ago
            "c": None,  # never sampled
        }
    )
    assert details == {"clusters": 3, "fresh": 1, "newest_pass_age_s": 7.0, "max_age_s": 10.0}


def test_a_pass_that_could_not_reach_kafka_still_shows_the_sampler_runs():
    assert _sampler({"a": {"ts": NOW - 3, "duration_s": 8.0, "ok": False}})["fresh"] == 1


def test_the_age_is_counted_from_the_end_of_the_pass():
    # A slow pass (12 s on a 5 s interval) that ended 2 s ago is fresh.
    assert _sampler({"a": {"ts": NOW - 14, "duration_s": 12}})["newest_pass_age_s"] == 2.0
    # Two intervals without a pass is too old.
    with pytest.raises(health.CheckFailed) as failed:
        _sampler({"a": {"ts": NOW - 10, "duration_s": 0}})
    assert failed.value.details["fresh"] == 0


def test_a_clock_a_little_ahead_counts_as_fresh():
    assert _sampler({"a": {"ts": NOW + 2, "duration_s": 0.5}})["newest_pass_age_s"] == 0.0


def test_no_pass_anywhere_unreadable_records_and_no_clusters_fail():
    with pytest.raises(health.CheckFailed, match="younger than 10 s"):
        _sampler({"a": None, "b": {"ts": "garbage"}, "c": {"duration_s": 1}})
    with pytest.raises(health.CheckFailed, match="no cluster is registered"):
        _sampler({}, clusters=[])


def test_a_store_that_does_not_answer_fails_without_its_message():
    def down(name: str) -> dict:
        raise lag_store.StoreUnavailable("Redis: Error 111 connecting to 10.9.8.7:6379.")

    with pytest.raises(health.CheckFailed) as failed:
        health.check_sampler(["a"], down, 5.0, NOW)
    assert failed.value.message == "the sampler's passes could not be read (StoreUnavailable)"


def test_the_interval_comes_from_lag_sample_seconds(client, services_up, settings):
    settings.LAG_SAMPLE_SECONDS = 0.5  # the fixture's pass ended a second ago: too old now
    body = client.get("/readyz").json()
    assert body["failed"] == ["sampler"]
    assert body["checks"]["sampler"]["max_age_s"] == 1.0


# --- against a real Redis ------------------------------------------------------------------


@pytest.mark.redis
@pytest.mark.django_db
def test_readyz_against_a_real_redis(client, settings, monkeypatch):
    """REDIS_URL's Redis: PING, and the pass record the sampler writes (lag_store.write_meta),
    for a cluster of this test's own (other tests and samplers may share that Redis)."""
    monkeypatch.setattr(lag_store, "_down_until", 0.0)
    name = f"readyz-{time.time_ns()}"
    base = next(iter(settings.KAFKA_CLUSTERS.values()))
    settings.KAFKA_CLUSTERS = {name: replace(base, name=name)}
    settings.READINESS_REQUIRE_SAMPLER = True
    settings.LAG_SAMPLE_SECONDS = 5
    try:
        stale = client.get("/readyz")
        assert stale.status_code == 503, stale.content
        assert stale.json()["failed"] == ["sampler"]  # database and Redis are fine

        lag_store.write_meta(name, {"ts": time.time() - 1, "duration_s": 0.2, "ok": True}, 5)
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.content
        assert ready.json()["checks"]["redis"]["state"] == "ok"
        assert ready.json()["checks"]["sampler"]["fresh"] == 1

        lag_store.write_meta(name, {"ts": time.time() - 30, "duration_s": 0.2, "ok": True}, 5)
        assert client.get("/readyz").status_code == 503
    finally:
        lag_store._client().delete(lag_store.key(name, "meta"))
