"""What a plan would do before anything moves: per partition the old and new replicas, the
bytes each new replica must copy, the total, and the time at a throttle; and the checks that
refuse a plan Kafka would refuse or that cannot be carried out (each a 400/409 naming the
cause, nothing changed)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from console.errors import BadInput, Conflict
from reassign.plans import ANY_DIR, TP, Target

# Kafka measures replication throttles in bytes/s; below 1 KB/s a move never ends, above
# 10 GB/s it is not a throttle (no disk or network here copies that fast).
MIN_THROTTLE = 1024
MAX_THROTTLE = 10 * 1024**3


def check_throttle(value: int | None) -> None:
    if value is None:
        return
    if not MIN_THROTTLE <= value <= MAX_THROTTLE:
        raise BadInput(
            "throttle_bytes_per_s",
            f"throttle_bytes_per_s: must be from {MIN_THROTTLE} (1 KiB/s) to {MAX_THROTTLE} "
            f"(10 GiB/s) bytes per second, or null for no throttle; got {value}.",
        )


def check_targets(
    targets: Sequence[Target],
    current: Mapping[TP, Sequence[int]],
    live: frozenset[int],
    dirs_of: Mapping[int, set[str]],
    moving: set[TP],
) -> None:
    """Refuse what --execute or the controller would refuse, and what cannot finish."""
    for t in targets:
        name = f"{t.topic}-{t.partition}"
        if t.tp not in current:
            raise BadInput("plan", f"plan: Unable to find partition: {name}")
        down = sorted(b for b in t.replicas if b not in live)
        if down:
            raise BadInput(
                "plan",
                f"plan: Unknown broker id {down[0]} for {name}: not a live broker "
                f"(live: {', '.join(map(str, sorted(live)))}).",
            )
        for broker, log_dir in zip(t.replicas, t.log_dirs, strict=True):
            if log_dir != ANY_DIR and broker in dirs_of and log_dir not in dirs_of[broker]:
                raise BadInput(
                    "plan",
                    f"plan: broker {broker} has no log dir {log_dir!r} for {name} (its dirs: "
                    f"{', '.join(sorted(dirs_of[broker]))}).",
                )
    busy = sorted(f"{t}-{p}" for t, p in moving.intersection(x.tp for x in targets))
    if busy:
        raise Conflict(
            f"{', '.join(busy)} already being reassigned: wait for it to finish or cancel it; "
            "Kafka allows one reassignment per partition at a time.",
            code="reassignment_in_progress",
        )


def moves(
    targets: Sequence[Target],
    current: Mapping[TP, Sequence[int]],
    size_of: Callable[[TP], int | None],
) -> list[dict[str, Any]]:
    """Per partition: from, to, the brokers gaining and losing a replica, and the bytes the
    gaining ones must copy (the leader's size each; null when the size is not known)."""
    rows = []
    for t in sorted(targets, key=lambda t: t.tp):
        old = list(current[t.tp])
        adding = [b for b in t.replicas if b not in old]
        size = size_of(t.tp)
        rows.append(
            {
                "topic": t.topic,
                "partition": t.partition,
                "from": old,
                "to": list(t.replicas),
                "adding": adding,
                "removing": [b for b in old if b not in t.replicas],
                "bytes": None if size is None and adding else (size or 0) * len(adding),
            }
        )
    return rows


def totals(
    rows: Sequence[Mapping[str, Any]], throttle: int | None, leaders: Mapping[TP, int | None]
) -> dict[str, Any]:
    """Total bytes to copy and the time it takes at the throttle (null: unknown, or none).

    The throttle is a rate per broker, on both sides: each broker gaining replicas fetches at
    most `throttle` bytes/s, and each leader sends at most that much to followers catching up.
    Brokers copy in parallel, so the time is the busiest broker's bytes over the rate."""
    known = all(r["bytes"] is not None for r in rows)
    total = sum(r["bytes"] or 0 for r in rows) if known else None
    if total is None or not throttle:
        return {"total_bytes": total, "estimated_seconds": None}
    load: dict[int, int] = {}
    for r in rows:
        each = (r["bytes"] // len(r["adding"])) if r["adding"] else 0
        for b in r["adding"]:
            load[b] = load.get(b, 0) + each
        leader = leaders.get((r["topic"], r["partition"]))
        if leader is not None:
            load[leader] = load.get(leader, 0) + r["bytes"]
    busiest = max(load.values(), default=0)
    return {"total_bytes": total, "estimated_seconds": math.ceil(busiest / throttle)}
