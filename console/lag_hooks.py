"""Listeners of the lag sampler's passes. An app (alerts) acts on every pass's evaluations
without the sampler knowing it, and without slowing it: `pass_done` only hands the pass over;
one thread of the sampler process runs the listeners, newest pass per cluster first-come
(a pass not yet handled when the next one ends is replaced by it: listeners see the latest
state, which is what alerts are about). A listener that fails is logged; the others still run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from django.db import close_old_connections, connections

log = logging.getLogger(__name__)

Listener = Callable[[str, Mapping[str, dict[str, Any]], float], object]

_listeners: list[Listener] = []
_pending: dict[str, tuple[Mapping[str, dict[str, Any]], float]] = {}
_ready = threading.Condition()
_thread: threading.Thread | None = None
_busy = False


def register(listener: Listener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def listeners() -> list[Listener]:
    return list(_listeners)


def pass_done(cluster: str, evaluations: Mapping[str, dict[str, Any]], at: float) -> None:
    """Hand a finished pass to the listeners; returns at once."""
    global _thread
    if not _listeners:
        return
    with _ready:
        _pending[cluster] = (evaluations, at)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="lag-pass-listeners", daemon=True)
            _thread.start()
        _ready.notify()


def run_now(cluster: str, evaluations: Mapping[str, dict[str, Any]], at: float) -> None:
    """Run every listener on this pass in the calling thread (tests, one-off tools)."""
    for listener in list(_listeners):
        try:
            listener(cluster, evaluations, at)
        except Exception:
            log.exception("lag pass listener %s failed for cluster %s", listener, cluster)


def idle(timeout: float = 10.0) -> bool:
    """Wait until every handed-over pass was handled (tests); False on timeout."""
    with _ready:
        return _ready.wait_for(lambda: not _pending and not _busy, timeout)


def _run() -> None:
    global _busy
    while True:
        with _ready:
            _ready.wait_for(lambda: bool(_pending))
            cluster, (evaluations, at) = next(iter(_pending.items()))
            del _pending[cluster]
            _busy = True
        try:
            close_old_connections()  # this thread's database connection may have gone stale
            run_now(cluster, evaluations, at)
        except Exception:
            # The thread lives on: the next pass may find the database back.
            log.exception("lag pass listeners could not run for cluster %s", cluster)
        finally:
            # No connection held between passes: an idle sampler keeps none open, and a
            # database being dropped or failed over finds no session of this thread on it.
            connections.close_all()
            # Nor the pass while waiting for the next one: a second copy of every group's
            # evaluation through the whole next pass.
            del evaluations
            with _ready:
                _busy = False
                _ready.notify_all()
