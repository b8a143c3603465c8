"""The scheduler process (`manage.py scheduler`): every few seconds, the due slots of every
schedule (sparkjobs/schedules.py `run_due`).

Run two (or more) for availability: they share one Redis lease, so one ticks and the others
stand by; when it stops or dies, another takes the lease within `LEASE_TICKS` ticks. The
lease saves work and keeps the log readable; the guarantee that a slot runs once is the
database's (a locked row and a unique run per slot), so even two schedulers ticking at once
during a Redis split would not run a slot twice.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid

import redis
from django.conf import settings
from django.db import close_old_connections

from console import leases
from sparkjobs import schedules

log = logging.getLogger(__name__)

LEASE_KEY = "kafka-console:scheduler:lease"
LEASE_TICKS = 3


class Scheduler:
    def __init__(self, tick_s: float):
        self.tick_s = tick_s
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stopping = threading.Event()
        self.redis = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=2.0, socket_connect_timeout=1.0
        )
        self.active: bool | None = None  # unknown until the first tick

    def stop(self) -> None:
        self.stopping.set()

    def _hold(self) -> bool | None:
        try:
            return leases.hold(self.redis, LEASE_KEY, self.owner, self.tick_s * LEASE_TICKS)
        except (redis.RedisError, OSError) as exc:
            log.warning("Redis did not answer, no tick until it does: %s", exc)
            return None

    def _say(self, active: bool) -> None:
        # Said once per change, also at start: a standby shows that it is in place.
        if active != self.active:
            if active:
                log.info("scheduling (lease %s)", self.owner)
            else:
                log.info("another scheduler holds the lease; standing by")
            self.active = active

    def tick(self) -> None:
        held = self._hold()
        if held is None:
            return
        self._say(held)
        if held:
            close_old_connections()  # a database restart must not end the scheduler
            try:
                schedules.run_due()
            except Exception:  # one bad tick must not end the scheduling
                log.exception("tick failed")

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                started = time.monotonic()
                self.tick()
                self.stopping.wait(max(0.0, self.tick_s - (time.monotonic() - started)))
        finally:
            try:
                leases.release(self.redis, LEASE_KEY, self.owner)
            except (redis.RedisError, OSError):
                pass  # it expires on its own
