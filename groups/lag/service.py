"""The lag sampler process: one thread per cluster, each sampling while it holds the
cluster's Redis lease.

- Passes never overlap: a thread starts its next pass an interval after the previous one
  started, or at once when the pass took longer than the interval.
- Metadata changes (brokers, controller, leaders, ISR, topics) are watched on a second
  thread per cluster, every interval while the lease is held: a pass stuck on a broker that
  went down (group reads wait out their timeout) must not delay the pages that show it.
- One active sampler per cluster: the lease lives `LEASE_INTERVALS` intervals and a
  heartbeat renews it every third of an interval, also during a slow pass; a standby asks
  every half interval, so it takes over within two intervals of the active one dying.
- Nothing stops it: Kafka down marks the sample missing, Redis down skips the pass, an
  unexpected error in one pass is logged and the next pass runs.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable

from console.clusters import ClusterConfig
from console.metadata_push import MetadataWatcher
from groups.lag import store
from groups.lag.sampler import ClusterSampler, PassResult

log = logging.getLogger(__name__)

LEASE_INTERVALS = 1.5


class SamplerService:
    def __init__(
        self,
        clusters: list[ClusterConfig],
        interval_s: float,
        window: int,
        retention_risk: float,
        on_pass: Callable[[str, PassResult], None] | None = None,
    ):
        self.clusters = clusters
        self.interval_s = interval_s
        self.window = window
        self.retention_risk = retention_risk
        self.on_pass = on_pass
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stopping = threading.Event()
        self._active: set[str] = set()
        self._lock = threading.Lock()

    @property
    def lease_ttl_s(self) -> float:
        return self.interval_s * LEASE_INTERVALS

    def active_clusters(self) -> set[str]:
        with self._lock:
            return set(self._active)

    def _set_active(self, cluster: str, active: bool) -> None:
        with self._lock:
            (self._active.add if active else self._active.discard)(cluster)

    def _hold(self, cluster: str) -> bool | None:
        """Whether this sampler holds the cluster's lease; None when Redis cannot say."""
        try:
            return store.hold_lease(cluster, self.owner, self.lease_ttl_s)
        except store.StoreUnavailable as exc:
            log.warning("%s: Redis unavailable, not sampling: %s", cluster, exc)
            return None

    def _heartbeat(self) -> None:
        while not self.stopping.wait(self.interval_s / 3):
            for cluster in self.active_clusters():
                if not self._hold(cluster):
                    self._set_active(cluster, False)

    def _cluster_loop(self, cfg: ClusterConfig) -> None:
        sampler: ClusterSampler | None = None
        standing_by = False
        while not self.stopping.is_set():
            started = time.monotonic()
            held = self._hold(cfg.name)
            if held:
                if sampler is None:
                    log.info("%s: sampling (lease %s)", cfg.name, self.owner)
                    sampler = ClusterSampler(cfg, self.interval_s, self.window, self.retention_risk)
                    sampler.restore()
                standing_by = False
                self._set_active(cfg.name, True)
                self._one_pass(cfg.name, sampler)
                pause = self.interval_s - (time.monotonic() - started)
            else:
                # Redis down (held is None): nobody can take the lease meanwhile, so the
                # windows and cached record timestamps are kept for the first pass after it.
                if held is False and not standing_by:
                    # Said once per change, also at start: a standby shows it is in place.
                    log.info("%s: another sampler holds the lease; standing by", cfg.name)
                    standing_by = True
                    sampler = None
                self._set_active(cfg.name, False)
                pause = self.interval_s / 2
            self.stopping.wait(max(0.0, pause))

    def _metadata_loop(self, cfg: ClusterConfig) -> None:
        watcher = MetadataWatcher(cfg)
        while not self.stopping.is_set():
            started = time.monotonic()
            if cfg.name in self.active_clusters():
                try:
                    watcher.tick()
                except Exception:  # one bad tick must not end the watching
                    log.exception("%s: metadata watch failed", cfg.name)
            else:
                watcher.forget()
            self.stopping.wait(max(0.0, self.interval_s - (time.monotonic() - started)))

    def _one_pass(self, cluster: str, sampler: ClusterSampler) -> None:
        try:
            result = sampler.run_pass()
        except store.StoreUnavailable as exc:
            log.warning("%s: pass not stored, Redis unavailable: %s", cluster, exc)
            return
        except Exception:  # one bad pass must not end the sampler
            log.exception("%s: sampling pass failed", cluster)
            return
        if not result.ok:
            log.warning("%s: sample missing: %s", cluster, result.error)
        if self.on_pass:
            self.on_pass(cluster, result)

    def run(self) -> None:
        """Sample until `stop()`; releases the leases it holds on the way out."""
        threads = [threading.Thread(target=self._heartbeat, name="lease", daemon=True)]
        threads += [
            threading.Thread(target=loop, args=(cfg,), name=f"{cfg.name}:{kind}", daemon=True)
            for cfg in self.clusters
            for kind, loop in (("lag", self._cluster_loop), ("metadata", self._metadata_loop))
        ]
        for thread in threads:
            thread.start()
        try:
            while not self.stopping.wait(0.5):
                pass
        finally:
            for cluster in self.active_clusters():
                try:
                    store.release_lease(cluster, self.owner)
                except store.StoreUnavailable:
                    pass

    def stop(self) -> None:
        self.stopping.set()
