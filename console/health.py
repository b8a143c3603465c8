"""Readiness: whether this web server can do its work (`GET /readyz`).

Liveness is `/healthz` (console/views.py): the process answers, nothing else is checked, so a
database or Redis outage never gets a web server that is fine restarted. Readiness checks
what a page needs behind the process:

- `database`: a trivial query (`SELECT 1`) on the default database;
- `redis`: `PING` on REDIS_URL (cache, sign-in limit, Channels layer, lag samples);
- `sampler`: the lag sampler's last pass (groups/lag/store.py keeps it per cluster in
  `kc:lag:{c}:meta`: `ts` when the pass started, `duration_s` how long it took). Ready when at
  least one registered cluster has a pass that ended less than two sampling intervals
  (LAG_SAMPLE_SECONDS) ago. A pass that could not reach Kafka counts: the sampler runs, and a
  Kafka outage is what the console is there to show. READINESS_REQUIRE_SAMPLER=false (an
  install without a sampler, or a probe that should not take the web servers out of a load
  balancer when the sampler stops) skips the check.

The checks run at once in a small pool of their own, each given READINESS_TIMEOUT_SECONDS in
all: a hung Redis or database answers "failed" in time instead of hanging the probe. Checks
that never return hold at most the pool's threads; later probes then fail waiting for one.
The answer, 200 or 503, lists every check with its state; what failed is named, never an
address, a URL or an exception's text (the endpoint is outside auth). The details go to the
log.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from console.clusters import all_clusters

log = logging.getLogger(__name__)

OK, FAILED, SKIPPED = "ok", "failed", "skipped"

# cluster name -> the sampler's last pass record, or None when there is none.
ReadPass = Callable[[str], Mapping[str, Any] | None]
Check = Callable[[], dict[str, Any]]

# Enough for a few probes' checks each stuck until their socket timeouts end them.
_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="readiness")
_redis_lock = threading.Lock()
_redis_clients: dict[tuple[str, float], redis.Redis] = {}


class CheckFailed(Exception):
    """A check's failure: `message` and `details` go into the unauthenticated answer."""

    def __init__(self, message: str, **details: Any):
        super().__init__(message)
        self.message = message
        self.details = details


# --- the checks ------------------------------------------------------------------------------


def check_database() -> dict[str, Any]:
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        log.warning("readiness: database: %s", exc)
        raise CheckFailed(f"the database did not answer ({type(exc).__name__})") from None
    return {}


def _redis_client(url: str, timeout_s: float) -> redis.Redis:
    # One pool per URL, kept between probes; its timeouts bound every call.
    with _redis_lock:
        client = _redis_clients.get((url, timeout_s))
        if client is None:
            client = _redis_clients[(url, timeout_s)] = redis.Redis.from_url(
                url,
                socket_timeout=timeout_s,
                socket_connect_timeout=timeout_s,
                retry_on_timeout=False,
            )
        return client


def check_redis(url: str, timeout_s: float) -> dict[str, Any]:
    try:
        _redis_client(url, timeout_s).ping()
    except (redis.RedisError, OSError) as exc:
        log.warning("readiness: redis: %s", exc)
        raise CheckFailed(f"Redis did not answer PING ({type(exc).__name__})") from None
    return {}


def pass_age(meta: Mapping[str, Any], now: float) -> float | None:
    """Seconds since the pass ended (`ts` + `duration_s`), None for a record it cannot read.
    Clocks of the sampler's host and this one may differ a little: a pass "in the future"
    is 0 s old."""
    try:
        ended = float(meta["ts"]) + float(meta.get("duration_s") or 0.0)
    except (KeyError, TypeError, ValueError):
        return None
    return max(0.0, now - ended)


def check_sampler(
    clusters: Sequence[str], read_pass: ReadPass, interval_s: float, now: float
) -> dict[str, Any]:
    max_age = 2 * interval_s
    if not clusters:
        raise CheckFailed("no cluster is registered", clusters=0)
    ages: list[float] = []
    for name in clusters:
        try:
            meta = read_pass(name)
        except Exception as exc:  # lag_store.StoreUnavailable and anything else
            log.warning("readiness: sampler pass of %s: %s", name, exc)
            raise CheckFailed(
                f"the sampler's passes could not be read ({type(exc).__name__})"
            ) from None
        age = pass_age(meta, now) if meta else None
        if age is not None:
            ages.append(age)
    fresh = sum(1 for age in ages if age < max_age)
    details = {
        "clusters": len(clusters),
        "fresh": fresh,
        "newest_pass_age_s": round(min(ages), 1) if ages else None,
        "max_age_s": max_age,
    }
    if not fresh:
        raise CheckFailed(f"no cluster has a sampler pass younger than {max_age:g} s", **details)
    return details


# --- running them ----------------------------------------------------------------------------


def _run_one(check: Check) -> dict[str, Any]:
    started = time.monotonic()
    try:
        result = {"state": OK, **check()}
    except CheckFailed as exc:
        result = {"state": FAILED, "error": exc.message, **exc.details}
    except Exception as exc:  # a check's bug must answer "failed", not 500
        log.exception("readiness check failed unexpectedly")
        result = {"state": FAILED, "error": f"unexpected error ({type(exc).__name__})"}
    finally:
        # A pool thread is no request thread: nothing else would close its connections.
        connections.close_all()
    result["ms"] = round((time.monotonic() - started) * 1000, 1)
    return result


def run_checks(checks: Mapping[str, Check | None], timeout_s: float) -> dict[str, dict[str, Any]]:
    """Each check's result by name, all within `timeout_s`; a None check is skipped."""
    deadline = time.monotonic() + timeout_s
    futures = {name: _pool.submit(_run_one, c) for name, c in checks.items() if c is not None}
    results: dict[str, dict[str, Any]] = {}
    for name in checks:
        future = futures.get(name)
        if future is None:
            results[name] = {"state": SKIPPED}
            continue
        try:
            results[name] = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            future.cancel()  # still queued behind hung checks: never run it
            results[name] = {"state": FAILED, "error": f"no answer within {timeout_s:g} s"}
    return results


def readiness(read_pass: ReadPass, now: Callable[[], float] = time.time) -> dict[str, Any]:
    """The readiness answer's body: `ready`, `failed` (names) and `checks` (name -> state)."""
    timeout_s = float(settings.READINESS_TIMEOUT_SECONDS)
    redis_url: str = settings.REDIS_URL
    sampler: Check | None = None
    if settings.READINESS_REQUIRE_SAMPLER:
        names = [cfg.name for cfg in all_clusters()]
        interval_s = float(settings.LAG_SAMPLE_SECONDS)
        sampler = functools.partial(check_sampler, names, read_pass, interval_s, now())
    checks = run_checks(
        {
            "database": check_database,
            "redis": functools.partial(check_redis, redis_url, timeout_s),
            "sampler": sampler,
        },
        timeout_s,
    )
    failed = [name for name, result in checks.items() if result["state"] == FAILED]
    return {"ready": not failed, "failed": failed, "checks": checks}


def readiness_view(read_pass: ReadPass) -> Callable[[HttpRequest], HttpResponse]:
    """The `/readyz` view; `read_pass` reads the sampler's pass record (project/urls.py passes
    groups.lag.store.read_meta: the console package does not import the apps)."""

    @csrf_exempt  # changes nothing; a POST gets the JSON 405, not Django's HTML CSRF page
    def readyz(request: HttpRequest) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            body = {"error": {"code": "method_not_allowed", "message": "GET only.", "details": {}}}
            refused = JsonResponse(body, status=405)
            refused["Allow"] = "GET, HEAD"
            return refused
        body = readiness(read_pass)
        response = JsonResponse(body, status=200 if body["ready"] else 503)
        response["Cache-Control"] = "no-store"
        return response

    return readyz
