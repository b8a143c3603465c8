"""A short-lived, shared snapshot of each cluster's metadata.

List views and the live pushes all read this snapshot, so a page with 5,000 topics costs
one Metadata request and one DescribeCluster per cluster every `SNAPSHOT_TTL_S`, whatever
the number of requests. Topic configs (for min.insync.replicas) change rarely and come
from one batched DescribeConfigs, kept longer; our own config changes invalidate them.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.conf import settings

from console import kafka
from console.clusters import ClusterConfig

SNAPSHOT_TTL_S = 2.0
CONFIG_TTL_S = 60.0
DEFAULT_MIN_ISR = 1


@dataclass(frozen=True)
class ClusterSnapshot:
    taken_at: float
    description: kafka.ClusterDescription
    topics: dict[str, kafka.TopicMeta]

    @property
    def live_broker_ids(self) -> frozenset[int]:
        return frozenset(b.id for b in self.description.brokers)


class _Cache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cluster_locks: dict[str, threading.Lock] = {}
        self._snapshots: dict[str, ClusterSnapshot] = {}
        self._min_isr: dict[str, dict[str, tuple[float, int]]] = {}

    def _cluster_lock(self, name: str) -> threading.Lock:
        with self._lock:
            return self._cluster_locks.setdefault(name, threading.Lock())

    def snapshot(self, cfg: ClusterConfig, max_age: float = SNAPSHOT_TTL_S) -> ClusterSnapshot:
        # One fetch per cluster at a time: concurrent requests wait for it and share it.
        with self._cluster_lock(cfg.name):
            current = self._snapshots.get(cfg.name)
            if current is not None and time.monotonic() - current.taken_at < max_age:
                return current
            timeout = settings.KAFKA_TIMEOUT_SECONDS
            desc = kafka.describe_cluster(cfg.bootstrap_servers, cfg.client_config, timeout)
            topics = kafka.list_topic_metadata(
                cfg.bootstrap_servers, cfg.client_config, timeout=timeout
            )
            fresh = ClusterSnapshot(time.monotonic(), desc, {t.name: t for t in topics})
            self._snapshots[cfg.name] = fresh
            return fresh

    def min_isr(self, cfg: ClusterConfig, topics: list[str]) -> dict[str, int]:
        """Effective min.insync.replicas per topic, fetching only the stale ones, in one batch."""
        now = time.monotonic()
        with self._cluster_lock(cfg.name + "#configs"):
            known = self._min_isr.setdefault(cfg.name, {})
            stale = [t for t in topics if t not in known or now - known[t][0] > CONFIG_TTL_S]
            if stale:
                configs = kafka.describe_topic_configs(
                    cfg.bootstrap_servers,
                    stale,
                    cfg.client_config,
                    timeout=settings.KAFKA_TIMEOUT_SECONDS,
                )
                for topic, values in configs.items():
                    known[topic] = (now, _int_config(values, "min.insync.replicas"))
            return {t: known[t][1] for t in topics if t in known}

    def invalidate(self, cluster: str, topic: str | None = None) -> None:
        with self._lock:
            self._snapshots.pop(cluster, None)
            if topic is None:
                self._min_isr.pop(cluster, None)
            else:
                self._min_isr.get(cluster, {}).pop(topic, None)


def _int_config(values: dict[str, kafka.ConfigValue], key: str) -> int:
    entry = values.get(key)
    try:
        return int(entry.value) if entry and entry.value is not None else DEFAULT_MIN_ISR
    except ValueError:
        return DEFAULT_MIN_ISR


cache = _Cache()
