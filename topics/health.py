"""Partition health flags, with exactly the meaning of `kafka-topics.sh --describe` filters.

From Apache Kafka's TopicCommand (kafka-topics.sh --describe and its health filters):
- under-replicated: replication factor - |ISR| > 0
- under-min-ISR:    no leader, or |ISR| < min.insync.replicas
- at-min-ISR:       |ISR| == min.insync.replicas
- unavailable:      no leader, or the leader is not a live broker
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

FILTERS = ("under_replicated", "under_min_isr", "at_min_isr", "unavailable")


@dataclass(frozen=True)
class PartitionHealth:
    under_replicated: bool
    under_min_isr: bool
    at_min_isr: bool
    unavailable: bool

    def matches(self, flag: str) -> bool:
        return bool(getattr(self, flag))


def partition_health(
    replicas: list[int],
    isr: list[int],
    leader: int | None,
    live_brokers: Collection[int],
    min_isr: int,
) -> PartitionHealth:
    return PartitionHealth(
        under_replicated=len(replicas) - len(isr) > 0,
        under_min_isr=leader is None or len(isr) < min_isr,
        at_min_isr=len(isr) == min_isr,
        unavailable=leader is None or leader not in live_brokers,
    )


def offline_replicas(replicas: list[int], live_brokers: Collection[int]) -> list[int]:
    """Replicas on brokers that are not registered (down or fenced), in assignment order."""
    return [r for r in replicas if r not in live_brokers]
