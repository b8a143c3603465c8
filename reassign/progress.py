"""A reassignment as the API answers it: per partition old and new replicas, what is being
added and removed, its state, ISR and leader, the bytes its new replicas have copied of what
they must, and the time left at the throttle. A partition whose leader is not the first of its
new replicas once done is one a preferred-leader election would move (the page offers it)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.metadata import cache
from reassign.models import Reassignment
from reassign.plans import TP, replicas_of

MOVING, DONE, REVERTED, CHANGED = "moving", "done", "reverted", "changed"
PARTITION_STATES = [MOVING, DONE, REVERTED, CHANGED]


def partition_state(
    moving: bool, now: list[int] | None, planned: list[int], before: list[int]
) -> str:
    if moving:
        return MOVING
    if now == planned:
        return DONE
    return REVERTED if now == before else CHANGED


def copied(
    new_replicas: list[int], share: int, on_disk: Mapping[int, int | None], finished: bool
) -> int:
    """Bytes the new replicas hold of the `share` each must copy (a replica may hold more
    than the leader had at the start: records written since count no further)."""
    if finished:
        return share * len(new_replicas)
    return sum(min(on_disk.get(b) or 0, share) for b in new_replicas)


def seconds_left(remaining_by_broker: Mapping[int, int], throttle: int | None) -> int | None:
    """The busiest new-replica broker's remaining bytes at the throttle (null: none set)."""
    if not throttle:
        return None
    return math.ceil(max(remaining_by_broker.values(), default=0) / throttle)


@dataclass(frozen=True)
class Observed:
    """What Kafka says of a reassignment's partitions now (`observe`)."""

    moving: Mapping[TP, kafka.Reassigning] = field(default_factory=dict)
    partitions: Mapping[TP, kafka.PartitionMeta] | None = None  # None: not known
    # (topic, partition, broker) -> bytes that broker's replica holds
    sizes: Mapping[tuple[str, int, int], int] = field(default_factory=dict)


def observe(cfg: ClusterConfig, r: Reassignment) -> Observed:
    """For a running reassignment: what moves, the partitions as they are, and the sizes of
    the new replicas; for an ended one only the partitions (for their leaders now)."""
    planned = replicas_of(r.plan)
    if r.state != Reassignment.State.RUNNING:
        try:  # the leaders now, so the page can offer a preferred-leader election
            return Observed(partitions=_partitions(cache.snapshot(cfg), planned))
        except kafka.KafkaAdapterError:
            return Observed()
    before = replicas_of(r.rollback)
    client = kafka.for_cluster(cfg)
    moving = client.list_reassignments()
    partitions = _partitions(cache.snapshot(cfg, max_age=0), planned)
    gaining = sorted({b for tp in planned for b in planned[tp] if b not in before[tp]})
    sizes: dict[tuple[str, int, int], int] = {}
    for broker, dirs in client.describe_log_dirs(gaining).items():
        if isinstance(dirs, list):
            for d in dirs:
                for rep in d.replicas:
                    sizes[(rep.topic, rep.partition, broker)] = rep.size_bytes
    return Observed(moving, partitions, sizes)


def detail(cfg: ClusterConfig, r: Reassignment) -> dict[str, Any]:
    return describe(r, observe(cfg, r))


def describe(r: Reassignment, seen: Observed) -> dict[str, Any]:
    """The API's body of `r` given what Kafka says now (no Kafka call)."""
    before = replicas_of(r.rollback)
    planned = replicas_of(r.plan)
    running = r.state == Reassignment.State.RUNNING
    moving, sizes = seen.moving, seen.sizes
    parts = seen.partitions
    rows = []
    remaining: dict[int, int] = {}
    for tp in sorted(planned):
        new = [b for b in planned[tp] if b not in before[tp]]
        total = r.bytes_total.get(f"{tp[0]}-{tp[1]}") or 0
        share = total // len(new) if new else 0
        now_meta = parts.get(tp) if parts is not None else None
        now = list(now_meta.replicas) if now_meta else None
        state = (
            partition_state(tp in moving, now, planned[tp], before[tp])
            if running
            else (DONE if r.state == Reassignment.State.COMPLETED else REVERTED)
        )
        done = state != MOVING
        got = copied(new, share, {b: sizes.get((tp[0], tp[1], b)) for b in new}, done)
        for b in new:
            if not done:
                remaining[b] = remaining.get(b, 0) + max(0, share - (sizes.get((*tp, b)) or 0))
        in_flight = moving.get(tp)
        rows.append(
            {
                "topic": tp[0],
                "partition": tp[1],
                "from": before[tp],
                "to": planned[tp],
                "adding": in_flight.adding if in_flight else [],
                "removing": in_flight.removing if in_flight else [],
                "isr": list(now_meta.isr) if now_meta else None,
                "leader": now_meta.leader if now_meta else None,
                "state": state,
                "bytes_copied": got if state != REVERTED else 0,
                "bytes_total": total,
            }
        )
    return {
        "id": r.pk,
        "cluster": r.cluster,
        "state": r.state,
        "throttle_bytes_per_s": r.throttle_bytes_per_s,
        "partitions": rows,
        "bytes_copied": sum(p["bytes_copied"] for p in rows),
        "bytes_total": sum(p["bytes_total"] for p in rows),
        "seconds_left": seconds_left(remaining, r.throttle_bytes_per_s) if running else None,
        "plan": r.plan,
        "rollback": r.rollback,
        "throttled_topics": r.throttled_topics,
        "throttled_brokers": r.throttled_brokers,
        "reason": r.reason,
        "error": r.error or None,
        "created_by": r.created_by,
        "created_at": r.created_at.isoformat(),
        "finished_at": r.finished_at.isoformat() if r.finished_at else None,
    }


def _partitions(snap: Any, planned: Mapping[TP, Any]) -> dict[TP, kafka.PartitionMeta]:
    found: dict[TP, kafka.PartitionMeta] = {}
    for topic in {t for t, _ in planned}:
        meta = snap.topic(topic)
        for p in meta.partitions if meta else []:
            if (topic, p.partition) in planned:
                found[(topic, p.partition)] = p
    return found


def summary(r: Reassignment) -> dict[str, Any]:
    """A row of the list: no Kafka call."""
    return {
        "id": r.pk,
        "cluster": r.cluster,
        "state": r.state,
        "throttle_bytes_per_s": r.throttle_bytes_per_s,
        "partition_count": len(r.plan["partitions"]),
        "topics": sorted({p["topic"] for p in r.plan["partitions"]}),
        "reason": r.reason,
        "error": r.error or None,
        "created_by": r.created_by,
        "created_at": r.created_at.isoformat(),
        "finished_at": r.finished_at.isoformat() if r.finished_at else None,
    }
