"""The worker's watcher: every `EVERY_S`, each running reassignment is settled (completed and
its throttles removed once its partitions stop moving) and its progress pushed to the pages
watching it (read only when one does), a last time when it ends. Runs in every Celery
worker; settling is idempotent, so several workers (and pages reading a reassignment) may do
it at once."""

from __future__ import annotations

import logging
import threading
from functools import partial

from django.db import close_old_connections

from console.clusters import get_cluster
from reassign import live, progress
from reassign.execution import settle
from reassign.models import Reassignment

log = logging.getLogger(__name__)

EVERY_S = 2.0


def settle_all() -> int:
    """Settle every running reassignment; how many ended."""
    ended = 0
    for r in Reassignment.objects.filter(state=Reassignment.State.RUNNING):
        try:
            cfg = get_cluster(r.cluster)
            r = settle(cfg, r)
            if r.state != Reassignment.State.RUNNING:
                ended += 1
            live.publish_if_watched(r.pk, partial(progress.detail, cfg, r))
        except Exception:  # a cluster away for a while must not stop the watcher
            log.exception("could not settle reassignment %s", r.pk)
    return ended


def _loop(stop: threading.Event) -> None:
    while not stop.wait(EVERY_S):
        close_old_connections()
        try:
            settle_all()
        except Exception:
            log.exception("reassignment watcher pass failed")


def start_thread() -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=_loop, args=(stop,), name="reassign-watcher", daemon=True).start()
    return stop
