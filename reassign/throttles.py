"""Exactly the throttles kafka-reassign-partitions.sh --execute --throttle sets (pure).

The move map has, per partition, its *sources* (the replicas it has now; for a partition
already moving, its in-flight replicas without those being added) and its *destinations*
(the target's replicas that are not sources). Every partition being reassigned anywhere in the
cluster joins the map (sources: replicas − adding, destinations: adding), as the tool does.

- topic `leader.replication.throttled.replicas`: every `partition:broker` over the sources;
- topic `follower.replication.throttled.replicas`: `partition:broker` over the destinations
  (empty for a topic with none);
- both lists de-duplicated, sorted as strings (Java's TreeSet: "10:1" before "2:1"), joined
  with "," and no spaces;
- broker `leader.replication.throttled.rate` and `follower.replication.throttled.rate`: the
  rate, on every broker that is a source or destination of any partition in the map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from console.kafka import Reassigning
from reassign.plans import TP, Target

LEADER_REPLICAS = "leader.replication.throttled.replicas"
FOLLOWER_REPLICAS = "follower.replication.throttled.replicas"
LEADER_RATE = "leader.replication.throttled.rate"
FOLLOWER_RATE = "follower.replication.throttled.rate"
BROKER_KEYS = (LEADER_RATE, FOLLOWER_RATE)
TOPIC_KEYS = (LEADER_REPLICAS, FOLLOWER_REPLICAS)


@dataclass(frozen=True)
class Move:
    sources: tuple[int, ...]
    destinations: tuple[int, ...]


def move_map(
    targets: Sequence[Target],
    current: Mapping[TP, Sequence[int]],
    in_flight: Mapping[TP, Reassigning],
) -> dict[TP, Move]:
    moves: dict[TP, Move] = {}
    for tp, r in in_flight.items():
        sources = tuple(b for b in r.replicas if b not in r.adding)
        moves[tp] = Move(sources, tuple(r.adding))
    for t in targets:
        if t.tp in in_flight:
            r = in_flight[t.tp]
            sources = tuple(b for b in r.replicas if b not in r.adding)
        else:
            sources = tuple(current[t.tp])
        moves[t.tp] = Move(sources, tuple(b for b in t.replicas if b not in sources))
    return moves


def _java_sorted_list(pairs: set[str]) -> str:
    return ",".join(sorted(pairs))


def topic_throttles(moves: Mapping[TP, Move]) -> dict[str, dict[str, str]]:
    """topic -> the two replica lists, for every topic in the map."""
    leaders: dict[str, set[str]] = {}
    followers: dict[str, set[str]] = {}
    for (topic, partition), move in moves.items():
        leaders.setdefault(topic, set()).update(f"{partition}:{b}" for b in move.sources)
        followers.setdefault(topic, set()).update(f"{partition}:{b}" for b in move.destinations)
    return {
        topic: {
            LEADER_REPLICAS: _java_sorted_list(leaders[topic]),
            FOLLOWER_REPLICAS: _java_sorted_list(followers.get(topic, set())),
        }
        for topic in sorted(leaders)
    }


def broker_throttles(moves: Mapping[TP, Move], rate: int) -> dict[int, dict[str, str]]:
    """broker -> both rates, for every broker that is a source or destination in the map."""
    brokers = {b for m in moves.values() for b in (*m.sources, *m.destinations)}
    return {b: {LEADER_RATE: str(rate), FOLLOWER_RATE: str(rate)} for b in sorted(brokers)}
