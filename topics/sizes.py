"""How big each topic and partition is, and how many messages it holds.

Sizes come from every broker's DescribeLogDirs (what kafka-log-dirs.sh --describe reports),
message counts from the log start and end offsets (ListOffsets, one request per leader).
Both are asked for the whole cluster at once and kept `SIZES_TTL_S` per web process: a
topic list of 5,000 topics polled by many pages costs one round every few seconds, not one
per page. A topic's size is its leader replicas' (what a consumer reads, what a move copies
per replica); `replicas_size_bytes` adds every replica (the disk the topic takes).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.metadata import ClusterSnapshot

SIZES_TTL_S = 10.0

log = logging.getLogger(__name__)

TP = tuple[str, int]


@dataclass(frozen=True)
class ClusterSizes:
    replica_bytes: dict[tuple[str, int, int], int]  # (topic, partition, broker) -> bytes
    starts: dict[TP, int]
    ends: dict[TP, int]
    unanswered: frozenset[int]  # brokers whose log dirs could not be read
    asked: frozenset[TP]  # the partitions the snapshot had when these were fetched
    taken_at: float
    # broker -> (total, usable) bytes over its log directories; None where a dir did not say
    disks: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)


class SizeCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._sizes: dict[str, ClusterSizes] = {}

    def sizes(self, cfg: ClusterConfig, snap: ClusterSnapshot) -> ClusterSizes:
        with self._lock:
            lock = self._locks.setdefault(cfg.name, threading.Lock())
        with lock:  # one fetch per cluster at a time; concurrent lists share it
            current = self._sizes.get(cfg.name)
            if (
                current is not None
                and time.monotonic() - current.taken_at < SIZES_TTL_S
                and not _has_new_partitions(current, snap)
            ):
                return current
            fresh = fetch_sizes(kafka.for_cluster(cfg), snap)
            self._sizes[cfg.name] = fresh
            return fresh

    def invalidate(self, cluster: str) -> None:
        with self._lock:
            self._sizes.pop(cluster, None)


def _has_new_partitions(sizes: ClusterSizes, snap: ClusterSnapshot) -> bool:
    """A topic created (or grown) since the sizes were taken: ask again rather than show it
    without size or count for up to SIZES_TTL_S."""
    return any(
        (t.name, p.partition) not in sizes.asked for t in snap.topics.values() for p in t.partitions
    )


def fetch_sizes(client: kafka.ClusterClient, snap: ClusterSnapshot) -> ClusterSizes:
    """Every replica's size (future replicas left out: a copy being made into another
    directory is not the partition's size yet) and every partition's start and end offset."""
    replica_bytes: dict[tuple[str, int, int], int] = {}
    unanswered: set[int] = set()
    disks: dict[int, tuple[int | None, int | None]] = {}
    for broker, answer in client.describe_log_dirs(sorted(snap.live_broker_ids)).items():
        if isinstance(answer, kafka.KafkaAdapterError):
            unanswered.add(broker)
            continue
        disks[broker] = (
            _sum([d.total_bytes for d in answer]),
            _sum([d.usable_bytes for d in answer]),
        )
        for log_dir in answer:
            for r in log_dir.replicas:
                if not r.is_future:
                    replica_bytes[(r.topic, r.partition, broker)] = r.size_bytes
    tps = [(t.name, p.partition) for t in snap.topics.values() for p in t.partitions]
    starts = _offsets(client.list_offsets(tps, "earliest"))
    ends = _offsets(client.list_offsets(tps, "latest"))
    return ClusterSizes(
        replica_bytes,
        starts,
        ends,
        frozenset(unanswered),
        frozenset(tps),
        time.monotonic(),
        disks,
    )


def _offsets(results: dict[TP, Any]) -> dict[TP, int]:
    return {tp: r.offset for tp, r in results.items() if isinstance(r, kafka.OffsetResult)}


def partition_size(sizes: ClusterSizes, topic: str, part: kafka.PartitionMeta) -> int | None:
    """The leader replica's size; None when there is no leader or it was not read."""
    if part.leader is None:
        return None
    return sizes.replica_bytes.get((topic, part.partition, part.leader))


def topic_size_fields(
    topic: kafka.TopicMeta, sizes: ClusterSizes, compacted: bool
) -> dict[str, Any]:
    """size_bytes, replicas_size_bytes, message_count (None where any part is unknown) and
    whether the count is only an upper bound (compacted: cleaned offsets leave gaps)."""
    leader_sizes = [partition_size(sizes, topic.name, p) for p in topic.partitions]
    replica_sizes = [
        sizes.replica_bytes.get((topic.name, p.partition, r))
        for p in topic.partitions
        for r in p.replicas
        if r not in sizes.unanswered
    ]
    counts = [
        sizes.ends[(topic.name, p.partition)] - sizes.starts[(topic.name, p.partition)]
        if (topic.name, p.partition) in sizes.ends and (topic.name, p.partition) in sizes.starts
        else None
        for p in topic.partitions
    ]
    return {
        "size_bytes": _sum(leader_sizes),
        "replicas_size_bytes": None if sizes.unanswered else _sum(replica_sizes, skip_none=True),
        "message_count": _sum(counts),
        "message_count_is_upper_bound": compacted,
    }


def broker_disk_fields(sizes: ClusterSizes | None, broker: int) -> dict[str, int | None]:
    """A broker's disk (its log directories summed) and the bytes of the replicas it holds."""
    if sizes is None or broker not in sizes.disks:
        return {"disk_total_bytes": None, "disk_usable_bytes": None, "replicas_size_bytes": None}
    total, usable = sizes.disks[broker]
    held = sum(size for (_, _, b), size in sizes.replica_bytes.items() if b == broker)
    return {"disk_total_bytes": total, "disk_usable_bytes": usable, "replicas_size_bytes": held}


def sizes_or_none(cfg: ClusterConfig, snap: ClusterSnapshot) -> ClusterSizes | None:
    """The cluster's sizes; None when Kafka did not answer them (the pages still show)."""
    try:
        return cache.sizes(cfg, snap)
    except kafka.KafkaAdapterError as exc:
        log.warning("sizes of %s unavailable: %s", cfg.name, exc.message)
        return None


def _sum(values: list[int | None], skip_none: bool = False) -> int | None:
    if not skip_none and any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


cache = SizeCache()
