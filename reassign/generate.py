"""Proposed assignments: what kafka-reassign-partitions.sh --generate proposes, and a
replication-factor change.

`assign_replicas` is Kafka's AdminUtils.assignReplicasToBrokers (rack-unaware and
rack-aware), the algorithm --generate runs per topic: leaders spread round-robin from a random
start, followers shifted so that replicas of consecutive partitions land on different broker
pairs, and with racks, brokers interleaved rack by rack so each partition's replicas take
distinct racks first. The start and shift are random (as in Kafka), so tests check
properties, not lists; `rng` makes a run reproducible.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from console.errors import BadInput

TP = tuple[str, int]


@dataclass(frozen=True)
class BrokerSlot:
    id: int
    rack: str | None


def _replica_index(first: int, shift: int, j: int, n: int) -> int:
    return (first + 1 + (shift + j) % (n - 1)) % n


def rack_alternated(brokers: Sequence[BrokerSlot]) -> list[int]:
    """Broker ids interleaved rack by rack (racks by name, brokers by id in each)."""
    by_rack: dict[str, list[int]] = {}
    for b in sorted(brokers, key=lambda b: b.id):
        by_rack.setdefault(b.rack or "", []).append(b.id)
    queues = [by_rack[r] for r in sorted(by_rack)]
    out: list[int] = []
    depth = 0
    while len(out) < len(brokers):
        out.extend(q[depth] for q in queues if depth < len(q))
        depth += 1
    return out


def assign_replicas(
    brokers: Sequence[BrokerSlot],
    partitions: int,
    replication_factor: int,
    rack_aware: bool = True,
    rng: random.Random | None = None,
) -> dict[int, list[int]]:
    """partition -> replicas for `partitions` partitions over `brokers`."""
    rng = rng or random.Random()
    n = len(brokers)
    if replication_factor < 1:
        raise BadInput("replication_factor", "replication_factor: must be at least 1.")
    if replication_factor > n:
        raise BadInput(
            "replication_factor",
            f"replication_factor: Replication factor: {replication_factor} larger than "
            f"available brokers: {n}.",
        )
    racks = {b.rack for b in brokers}
    if rack_aware and None in racks and len(racks) > 1:
        raise BadInput(
            "brokers",
            "brokers: Not all brokers have rack information; choose brokers that all have "
            "a rack, or none.",
        )
    aware = rack_aware and None not in racks
    order = rack_alternated(brokers) if aware else [b.id for b in brokers]
    rack_of = {b.id: b.rack for b in brokers}
    start, shift = rng.randrange(n), rng.randrange(n)
    out: dict[int, list[int]] = {}
    for p in range(partitions):
        if p > 0 and p % n == 0:
            shift += 1
        first = (p + start) % n
        chosen = [order[first]]
        if not aware:
            chosen += [
                order[_replica_index(first, shift, j, n)] for j in range(replication_factor - 1)
            ]
        else:
            k = 0
            taken_racks = {rack_of[order[first]]}
            while len(chosen) < replication_factor:
                broker = order[_replica_index(first, shift * len(racks), k, n)]
                rack_ok = rack_of[broker] not in taken_racks or len(taken_racks) == len(racks)
                broker_ok = broker not in chosen or len(chosen) == n
                if rack_ok and broker_ok:
                    chosen.append(broker)
                    taken_racks.add(rack_of[broker])
                k += 1
        out[p] = chosen
    return out


def generate(
    partitions_by_topic: Mapping[str, int],
    replication_factors: Mapping[str, int],
    brokers: Sequence[BrokerSlot],
    rng: random.Random | None = None,
) -> dict[TP, list[int]]:
    """--generate: every partition of the topics spread over `brokers` anew."""
    rng = rng or random.Random()
    out: dict[TP, list[int]] = {}
    for topic in sorted(partitions_by_topic):
        assigned = assign_replicas(
            brokers, partitions_by_topic[topic], replication_factors[topic], rng=rng
        )
        out.update({(topic, p): replicas for p, replicas in assigned.items()})
    return out


def change_replication_factor(
    current: Mapping[int, Sequence[int]],
    target: int,
    brokers: Sequence[BrokerSlot],
    load: Mapping[int, int] | None = None,
) -> dict[int, list[int]]:
    """partition -> replicas with `target` replicas each. Raising keeps every current replica
    in its place (the preferred leader stays first) and adds the live brokers holding the
    fewest replicas, a rack the partition lacks first; lowering drops replicas from the end,
    never the first."""
    if target < 1:
        raise BadInput("replication_factor", "replication_factor: must be at least 1.")
    if target > len(brokers):
        raise BadInput(
            "replication_factor",
            f"replication_factor: {target} is more than the {len(brokers)} live brokers.",
        )
    counts: Counter[int] = Counter(load or {})
    rack_of = {b.id: b.rack for b in brokers}
    out: dict[int, list[int]] = {}
    for p in sorted(current):
        replicas = list(current[p])
        if len(replicas) >= target:
            out[p] = replicas[:target]
            continue
        while len(replicas) < target:
            racks = {rack_of.get(r) for r in replicas}
            spare = [b.id for b in brokers if b.id not in replicas]
            best = min(spare, key=lambda b: (rack_of[b] in racks, counts[b], b))
            replicas.append(best)
            counts[best] += 1
        out[p] = replicas
    return out
