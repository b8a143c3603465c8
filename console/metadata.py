"""A short-lived, shared snapshot of each cluster's metadata.

The topic list, topic detail, the groups pages, the cluster overview and the brokers
endpoint all read this snapshot, so however many pages poll, a cluster costs one Metadata
request and one DescribeCluster every `SNAPSHOT_TTL_S`. Topics' `min.insync.replicas` and
`cleanup.policy` change rarely: they come from one batched DescribeConfigs asking for those
keys only, kept `CONFIG_TTL_S`; our own config changes invalidate them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

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
    # Epoch seconds when the fetch began: comparable across processes (see `expire_before`).
    asked_at: float = 0.0
    # Set by the cache: the topic as every broker knows it now (`ClusterClient.find_topic`).
    # A topic (or partition) missing from a cached snapshot may have been created since it
    # was taken, and brokers learn of a new topic each at its own pace: before anything is
    # refused for it, the miss is confirmed (see `topic`).
    confirm: Callable[[str, Iterable[int]], kafka.TopicMeta | None] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def live_broker_ids(self) -> frozenset[int]:
        return frozenset(b.id for b in self.description.brokers)

    @cached_property
    def leader_addresses(self) -> dict[tuple[str, int], tuple[str, int]]:
        """(host, port) of each partition's leader: offset lookups go straight to it."""
        brokers = {b.id: (b.host, b.port) for b in self.description.brokers}
        return {
            (name, p.partition): brokers[p.leader]
            for name, topic in self.topics.items()
            for p in topic.partitions
            if p.leader in brokers
        }

    def topic(self, name: str, wanted: Iterable[int] = ()) -> kafka.TopicMeta | None:
        """The topic's metadata, None if it does not exist. A miss, or a topic without one of
        the `wanted` partitions, is confirmed by every broker before it is believed: the
        snapshot may predate a topic created (or partitions added) a moment ago, and the
        broker that answered it may not have learnt of it yet."""
        meta = self.topics.get(name)
        if self.confirm is not None and (meta is None or _lacks(meta, wanted)):
            meta = self.confirm(name, wanted)
        return meta

    def partitions_of(self, topic: str, wanted: Iterable[int] = ()) -> list[int] | None:
        meta = self.topic(topic, wanted)
        return None if meta is None else [p.partition for p in meta.partitions]


def _lacks(meta: kafka.TopicMeta, wanted: Iterable[int]) -> bool:
    have = {p.partition for p in meta.partitions}
    return any(p not in have for p in wanted)


def _same_placement(old: ClusterSnapshot, new: ClusterSnapshot) -> bool:
    """The same brokers and the same topic objects (unchanged metadata), so the same leaders."""
    if "leader_addresses" not in old.__dict__ or old.description.brokers != new.description.brokers:
        return False
    return len(old.topics) == len(new.topics) and all(
        old.topics.get(name) is topic for name, topic in new.topics.items()
    )


@dataclass(frozen=True)
class TopicSettings:
    """The few topic configs the lists need."""

    min_isr: int
    compacted: bool  # cleanup.policy includes compact: offsets have gaps


def parse_min_isr(value: str | None) -> int:
    try:
        return int(value) if value is not None else DEFAULT_MIN_ISR
    except ValueError:
        return DEFAULT_MIN_ISR


class SnapshotCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cluster_locks: dict[str, threading.Lock] = {}
        self._snapshots: dict[str, ClusterSnapshot] = {}
        self._settings: dict[str, dict[str, tuple[float, TopicSettings]]] = {}

    def _cluster_lock(self, name: str) -> threading.Lock:
        with self._lock:
            return self._cluster_locks.setdefault(name, threading.Lock())

    def snapshot(self, cfg: ClusterConfig, max_age: float = SNAPSHOT_TTL_S) -> ClusterSnapshot:
        """The cluster's snapshot, fetched when older than `max_age` (0: always fresh)."""
        # One fetch per cluster at a time: concurrent requests wait for it and share it.
        with self._cluster_lock(cfg.name):
            current = self._snapshots.get(cfg.name)
            if current is not None and time.monotonic() - current.taken_at < max_age:
                return current
            return self._fetch(cfg, current)

    def _fetch(self, cfg: ClusterConfig, current: ClusterSnapshot | None) -> ClusterSnapshot:
        asked_at = time.time()
        client = kafka.for_cluster(cfg)
        desc = client.describe_cluster()
        topics = client.topic_metadata()
        fresh = ClusterSnapshot(
            time.monotonic(),
            desc,
            {t.name: t for t in topics},
            asked_at,
            confirm=lambda name, wanted: kafka.for_cluster(cfg).find_topic(name, wanted),
        )
        if current is not None and _same_placement(current, fresh):
            # Nothing moved (the client hands back the very same topic objects): keep the
            # leader map, 40,000 entries rebuilt every sampler pass otherwise.
            fresh.__dict__["leader_addresses"] = current.leader_addresses
        self._snapshots[cfg.name] = fresh
        return fresh

    def min_isr(self, cfg: ClusterConfig, topics: list[str]) -> dict[str, int]:
        """Effective min.insync.replicas per topic."""
        return {t: v.min_isr for t, v in self.topic_settings(cfg, topics).items()}

    def topic_settings(self, cfg: ClusterConfig, topics: list[str]) -> dict[str, TopicSettings]:
        """`TopicSettings` per topic, fetching only the stale ones, in one batch."""
        now = time.monotonic()
        with self._cluster_lock(cfg.name + "#configs"):
            known = self._settings.setdefault(cfg.name, {})
            stale = [t for t in topics if t not in known or now - known[t][0] > CONFIG_TTL_S]
            if stale:
                current = self._snapshots.get(cfg.name)
                brokers = current.description.brokers if current else None
                values = kafka.for_cluster(cfg).topic_config_values(
                    stale, ["min.insync.replicas", "cleanup.policy"], brokers
                )
                for topic, config in values.items():
                    policy = (config.get("cleanup.policy") or "").replace(" ", "").split(",")
                    known[topic] = (
                        now,
                        TopicSettings(
                            parse_min_isr(config.get("min.insync.replicas")), "compact" in policy
                        ),
                    )
            return {t: known[t][1] for t in topics if t in known}

    def expire_before(self, cluster: str, asked_at: float) -> bool:
        """Drop the cluster's snapshot if it was asked for before `asked_at` (epoch seconds);
        whether it was dropped. A metadata push carries the sampler's time: a page refetching
        on that push must not get an older snapshot, still within its TTL, that misses the
        change (it would stay stale until the next change or the slow poll)."""
        with self._lock:
            current = self._snapshots.get(cluster)
            if current is None or current.asked_at >= asked_at:
                return False
            del self._snapshots[cluster]
            return True

    def invalidate(self, cluster: str, topic: str | None = None) -> None:
        with self._lock:
            self._snapshots.pop(cluster, None)
            if topic is None:
                self._settings.pop(cluster, None)
            else:
                self._settings.get(cluster, {}).pop(topic, None)


cache = SnapshotCache()
