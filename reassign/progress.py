"""A reassignment as the API answers it: per partition old and new replicas, what is being
added and removed, its state, the bytes its new replicas have copied of what they must, and
the time left at the throttle."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.metadata import cache
from reassign.models import Reassignment
from reassign.plans import TP

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


def detail(cfg: ClusterConfig, r: Reassignment) -> dict[str, Any]:
    before = {(p["topic"], p["partition"]): p["replicas"] for p in r.rollback["partitions"]}
    planned = {(p["topic"], p["partition"]): p["replicas"] for p in r.plan["partitions"]}
    running = r.state == Reassignment.State.RUNNING
    moving: dict[TP, kafka.Reassigning] = {}
    sizes: dict[tuple[str, int, int], int] = {}
    snap = None
    if running:
        client = kafka.for_cluster(cfg)
        moving = client.list_reassignments()
        snap = cache.snapshot(cfg, max_age=0)
        gaining = sorted({b for tp in planned for b in planned[tp] if b not in before[tp]})
        for broker, dirs in client.describe_log_dirs(gaining).items():
            if isinstance(dirs, list):
                for d in dirs:
                    for rep in d.replicas:
                        sizes[(rep.topic, rep.partition, broker)] = rep.size_bytes
    rows = []
    remaining: dict[int, int] = {}
    for tp in sorted(planned):
        new = [b for b in planned[tp] if b not in before[tp]]
        total = r.bytes_total.get(f"{tp[0]}-{tp[1]}") or 0
        share = total // len(new) if new else 0
        now = _replicas_now(snap, tp) if snap is not None else None
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
                "isr": _isr_now(snap, tp) if snap is not None else None,
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


def _partition(snap: Any, tp: TP) -> kafka.PartitionMeta | None:
    meta = snap.topic(tp[0])
    return next((p for p in meta.partitions if p.partition == tp[1]), None) if meta else None


def _replicas_now(snap: Any, tp: TP) -> list[int] | None:
    part = _partition(snap, tp)
    return list(part.replicas) if part else None


def _isr_now(snap: Any, tp: TP) -> list[int] | None:
    part = _partition(snap, tp)
    return list(part.isr) if part else None


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
