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
- The leases spread over the live sampler processes (groups/lag/spread.py): each publishes
  which clusters it serves and how many leases it holds (`store.publish_sampler`, every third
  of an interval, for `REGISTRY_INTERVALS`: a dead process drops out before its leases
  expire). A free lease is taken only by a process holding no more than the others serving
  the cluster; one holding two more than another gives one up between passes (at most one
  an interval) and stands by. With Redis down no lease changes hands.
- Nothing stops it: Kafka down marks the sample missing, Redis down skips the pass, an
  unexpected error in one pass is logged and the next pass runs.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable

from console.clusters import ClusterConfig
from console.metadata_push import MetadataWatcher
from groups.lag import gc_pause, spread, store
from groups.lag.sampler import ClusterSampler, PassResult

log = logging.getLogger(__name__)

LEASE_INTERVALS = 1.5
# How long a sampler's registry entry lives (renewed every third of an interval): shorter than
# a lease, so that when a sampler dies the others stop counting it before its leases expire.
REGISTRY_INTERVALS = 1.0


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
        # Held by the heartbeat while it renews a lease and by whoever gives one up: a renewal
        # of a lease just given up would take it again (renewing is taking when it is free).
        self._lease_lock = threading.Lock()
        self._last_given_up = -math.inf  # time.monotonic() of the last lease given up
        # One publisher at a time: an older count written last would stand for a heartbeat.
        self._publish_lock = threading.Lock()

    @property
    def lease_ttl_s(self) -> float:
        return self.interval_s * LEASE_INTERVALS

    def active_clusters(self) -> set[str]:
        with self._lock:
            return set(self._active)

    def _set_active(self, cluster: str, active: bool) -> bool:
        """Whether that changed what this sampler holds."""
        with self._lock:
            changed = (cluster in self._active) != active
            (self._active.add if active else self._active.discard)(cluster)
            return changed

    def _hold(self, cluster: str) -> bool | None:
        """Whether this sampler holds the cluster's lease; None when Redis cannot say."""
        try:
            return store.hold_lease(cluster, self.owner, self.lease_ttl_s)
        except store.StoreUnavailable as exc:
            log.warning("%s: Redis unavailable, not sampling: %s", cluster, exc)
            return None

    # --- spreading the leases (groups/lag/spread.py) -----------------------------------------

    def _publish(self) -> None:
        """This sampler's registry entry: alive, serving its clusters, holding so many."""
        names = [cfg.name for cfg in self.clusters]
        with self._publish_lock:
            held = len(self.active_clusters())
            try:
                store.publish_sampler(self.owner, names, held, self.interval_s * REGISTRY_INTERVALS)
            except store.StoreUnavailable:
                pass  # the lease calls say Redis is down; the heartbeat publishes again

    def _others_held(self, cluster: str) -> dict[str, int] | None:
        """Sampler id -> leases held, of the other live samplers that serve `cluster`; None
        when Redis cannot say."""
        try:
            samplers = store.live_samplers()
        except store.StoreUnavailable:
            return None
        return {
            owner: int(entry.get("held") or 0)
            for owner, entry in samplers.items()
            if owner != self.owner and cluster in (entry.get("clusters") or ())
        }

    def _may_ask(self, cluster: str) -> bool:
        """Whether to ask for the lease: to renew it always; a free one only when no other
        live sampler serving the cluster holds fewer (or Redis cannot say: then the lease call
        tells Redis down, as it did before the registry)."""
        if cluster in self.active_clusters():
            return True
        others = self._others_held(cluster)
        return others is None or spread.should_take(len(self.active_clusters()), others.values())

    def _give_up_to_balance(self, cluster: str, sampler: ClusterSampler) -> bool:
        """Between two passes: give the lease up when another live sampler serving the cluster
        holds at least two fewer; it takes it at its next ask. One lease an interval at most,
        so the taker's new count is published before this process decides again."""
        others = self._others_held(cluster)
        mine = len(self.active_clusters())
        if not others or not spread.should_release(mine, others.values()):
            return False
        with self._lock:
            now = time.monotonic()
            if now - self._last_given_up < self.interval_s:
                return False
            self._last_given_up = now
        fewest = min(others, key=others.__getitem__)
        log.info(
            "giving up the lease of %s: sampler %s holds %d fewer",
            cluster,
            fewest,
            mine - others[fewest],
        )
        if sampler.passes:  # (before its first pass, the stored ones are as good)
            try:
                # The taker restores the windows: this pass's, not those of a few passes ago.
                store.write_windows(cluster, sampler.windows.stored(), self.interval_s)
            except store.StoreUnavailable:
                pass
        self._release(cluster)
        self._publish()
        return True

    def _release(self, cluster: str) -> None:
        with self._lease_lock:
            self._set_active(cluster, False)
            try:
                store.release_lease(cluster, self.owner)
            except store.StoreUnavailable:
                pass  # it expires within a lease

    # --- the threads ---------------------------------------------------------------------------

    def _heartbeat(self) -> None:
        while not self.stopping.wait(self.interval_s / 3):
            for cluster in self.active_clusters():
                with self._lease_lock:
                    if cluster in self.active_clusters() and not self._hold(cluster):
                        self._set_active(cluster, False)
            self._publish()

    def _cluster_loop(self, cfg: ClusterConfig) -> None:
        sampler: ClusterSampler | None = None
        standing_by = False
        while not self.stopping.is_set():
            started = time.monotonic()
            ask = self._may_ask(cfg.name)
            held = self._hold(cfg.name) if ask else False
            if held:
                if sampler is None:
                    log.info("%s: sampling (lease %s)", cfg.name, self.owner)
                    sampler = ClusterSampler(cfg, self.interval_s, self.window, self.retention_risk)
                    sampler.restore()
                standing_by = False
                if self._set_active(cfg.name, True):
                    self._publish()  # the others count it before their next decision
                self._one_pass(cfg.name, sampler)
                gc_pause.sweep()  # cycles the passes left, off every pass's clock
                if self._give_up_to_balance(cfg.name, sampler):
                    standing_by, sampler = True, None  # the giving up was said
                    pause = self.interval_s / 2
                else:
                    pause = self.interval_s - (time.monotonic() - started)
            else:
                # Redis down (held is None): nobody can take the lease meanwhile, so the
                # windows and cached record timestamps are kept for the first pass after it.
                if held is False and not standing_by:
                    # Said once per change, also at start: a standby shows it is in place.
                    why = (
                        "another sampler holds the lease"
                        if ask
                        else "left to a sampler with fewer leases"
                    )
                    log.info("%s: %s; standing by", cfg.name, why)
                    standing_by = True
                    sampler = None
                if self._set_active(cfg.name, False):
                    self._publish()
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
        self._publish()  # before any lease is asked for: the others count this one from now
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
                self._release(cluster)
            try:
                store.remove_sampler(self.owner)
            except store.StoreUnavailable:
                pass  # it expires within an interval

    def stop(self) -> None:
        self.stopping.set()
