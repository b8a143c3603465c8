"""The sampler's pass listeners (console.lag_hooks): handing a pass over returns at once, a
slow listener sees the newest pass of a cluster (not a backlog), and a failing listener does
not stop the others."""

from __future__ import annotations

import threading
import time

import pytest

from console import lag_hooks


@pytest.fixture
def listeners(monkeypatch):
    monkeypatch.setattr(lag_hooks, "_listeners", [])
    yield lag_hooks
    assert lag_hooks.idle(10)


def test_handing_over_returns_at_once_and_a_slow_listener_gets_the_newest_pass(listeners):
    release = threading.Event()
    seen: list[float] = []

    def slow(cluster, evaluations, at):
        release.wait(10)
        seen.append(at)

    listeners.register(slow)
    started = time.monotonic()
    for at in (1.0, 2.0, 3.0, 4.0):
        listeners.pass_done("local", {}, at)
    # Blocked, the listener holds for 10 s: handing over did not wait for it.
    assert time.monotonic() - started < 5
    release.set()
    assert listeners.idle(10)
    # The listener ran at most twice (the pass it took first, then the newest): no backlog.
    assert seen[-1] == 4.0 and len(seen) <= 2 and seen == sorted(seen)


def test_a_failing_listener_is_logged_and_the_next_still_runs(listeners, caplog):
    got = []

    def broken(cluster, evaluations, at):
        raise RuntimeError("boom")

    listeners.register(broken)
    listeners.register(lambda cluster, evaluations, at: got.append((cluster, at)))
    listeners.pass_done("c1", {"g": {}}, 5.0)
    assert listeners.idle(10)
    assert got == [("c1", 5.0)]
    assert "boom" in caplog.text or "failed" in caplog.text


def test_without_listeners_nothing_runs(listeners):
    listeners.pass_done("local", {}, 1.0)
    assert lag_hooks._pending == {}


def test_the_thread_survives_a_database_error_and_closes_its_connections_after_each_pass(
    listeners, monkeypatch
):
    failures = iter([RuntimeError("database gone")])

    def close_old_once_broken():
        for error in failures:
            raise error

    closed_in: list[str] = []

    class Connections:
        def close_all(self):
            closed_in.append(threading.current_thread().name)

    monkeypatch.setattr(lag_hooks, "close_old_connections", close_old_once_broken)
    monkeypatch.setattr(lag_hooks, "connections", Connections())
    seen: list[float] = []
    listeners.register(lambda cluster, evaluations, at: seen.append(at))
    listeners.pass_done("local", {}, 1.0)
    assert listeners.idle(10)
    assert seen == []  # the first pass met the broken database
    listeners.pass_done("local", {}, 2.0)
    assert listeners.idle(10)
    assert seen == [2.0]  # the same thread went on with the next pass
    # Each pass, failed or not, left the listeners' thread with no connection open.
    assert closed_in == ["lag-pass-listeners", "lag-pass-listeners"]
