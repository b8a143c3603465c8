"""Partition health flags, with exactly the meaning of `kafka-topics.sh --describe` filters.

From Apache Kafka's TopicCommand (kafka-topics.sh --describe and its health filters):
- under-replicated: replication factor - |ISR| > 0
- under-min-ISR:    no leader, or |ISR| < min.insync.replicas
- at-min-ISR:       |ISR| == min.insync.replicas
- unavailable:      no leader, or the leader is not a live broker

Beside them, one configuration check that is not a TopicCommand filter and changes none of
the four flags: a partition with fewer replicas than min.insync.replicas can never have
min.insync.replicas replicas in sync, however healthy its brokers. It is under min ISR for
TopicCommand, but it is misconfigured (`min_isr_unreachable`), not under min ISR because
replicas were lost: every acks=all produce to it fails with NOT_ENOUGH_REPLICAS until its
replication factor is raised or min.insync.replicas lowered.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

FILTERS = ("under_replicated", "under_min_isr", "at_min_isr", "unavailable")

# The code of the configuration warning below (topic list rows and topic detail).
MIN_ISR_UNREACHABLE = "min_isr_unreachable"
# How many partitions a warning names before it says "and N more".
_NAMED_PARTITIONS = 5


@dataclass(frozen=True)
class PartitionHealth:
    under_replicated: bool
    under_min_isr: bool
    at_min_isr: bool
    unavailable: bool
    # Not a kafka-topics.sh filter: fewer replicas than min.insync.replicas (configuration).
    min_isr_unreachable: bool = False

    def matches(self, flag: str) -> bool:
        return bool(getattr(self, flag))

    @property
    def under_min_isr_outage(self) -> bool:
        """Under min ISR although the partition has enough replicas: replicas fell out of
        sync or the leader is gone (an availability problem, not the configuration)."""
        return self.under_min_isr and not self.min_isr_unreachable


def min_isr_unreachable(replica_count: int, min_isr: int) -> bool:
    """True when a partition with `replica_count` replicas can never reach `min_isr` in-sync
    replicas: its replication factor is below min.insync.replicas."""
    return replica_count < min_isr


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
        min_isr_unreachable=min_isr_unreachable(len(replicas), min_isr),
    )


def offline_replicas(replicas: list[int], live_brokers: Collection[int]) -> list[int]:
    """Replicas on brokers that are not registered (down or fenced), in assignment order."""
    return [r for r in replicas if r not in live_brokers]


@dataclass(frozen=True)
class ConfigWarning:
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def _replicas(n: int) -> str:
    return f"{n} replica" if n == 1 else f"{n} replicas"


def _partition_list(partitions: list[int], describe: Mapping[int, str] | None = None) -> str:
    """ "2", "0, 3 and 5", "0, 1, 2, 3, 4 and 7 more" (with `describe`: "0 (1 replica)")."""
    shown = [f"{p} ({describe[p]})" if describe else str(p) for p in partitions[:_NAMED_PARTITIONS]]
    more = len(partitions) - len(shown)
    if more > 0:
        return f"{', '.join(shown)} and {more} more"
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def config_warnings(replica_counts: Mapping[int, int], min_isr: int) -> list[ConfigWarning]:
    """A topic's configuration warnings, from its partitions' replica counts (partition id to
    number of replicas) and its effective min.insync.replicas.

    One warning, `min_isr_unreachable`, when any partition has fewer replicas than min ISR;
    its message names the cause, the consequence and the two ways out."""
    short = sorted(p for p, n in replica_counts.items() if min_isr_unreachable(n, min_isr))
    if not short:
        return []
    counts = sorted({replica_counts[p] for p in short})
    if len(short) == len(replica_counts) and len(counts) == 1:
        message = (
            f"replication factor {counts[0]} is below min.insync.replicas {min_isr}: "
            "producers with acks=all always fail with NOT_ENOUGH_REPLICAS; "
            "raise the replication factor or lower min.insync.replicas"
        )
        return [ConfigWarning(MIN_ISR_UNREACHABLE, message)]
    one = len(short) == 1
    if len(counts) == 1:
        subject = (
            f"partition {short[0]} has" if one else f"partitions {_partition_list(short)} have"
        )
        each = "" if one else " each"
        cause = f"{subject} {_replicas(counts[0])}{each}, below min.insync.replicas {min_isr}"
    else:
        described = {p: _replicas(replica_counts[p]) for p in short}
        cause = (
            f"partitions {_partition_list(short, described)} have fewer replicas than "
            f"min.insync.replicas {min_isr}"
        )
    message = (
        f"{cause} ({len(short)} of {len(replica_counts)} partitions): producers with acks=all "
        f"to {'it' if one else 'them'} always fail with NOT_ENOUGH_REPLICAS; raise "
        f"{'its' if one else 'their'} replication factor or lower min.insync.replicas"
    )
    return [ConfigWarning(MIN_ISR_UNREACHABLE, message)]
