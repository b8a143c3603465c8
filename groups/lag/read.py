"""Every consumer group of a cluster with its offsets, in batched calls (`read_groups`).

For every group at once: one ListGroups per broker, one DescribeGroups per coordinator for the
groups that are not Empty, the groups' OffsetFetch calls batched per coordinator, and one
ListOffsets per leader broker for all partitions involved.
Lag is `log end (high watermark) - committed`, as `kafka-consumer-groups.sh --describe`
shows it (not clamped; null where nothing is committed). The sampler's passes and the REST
group list (groups.lag.rest) read through `read_groups`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from console import kafka
from groups.partitions import TP

EMPTY = "Empty"  # the state of a group without members


def lag_of(committed: int | None, log_end: int | None) -> int | None:
    if committed is None or log_end is None:
        return None
    return log_end - committed


@dataclass(frozen=True)
class GroupsRead:
    """Every group of a cluster with its committed offsets and the partitions' log offsets."""

    listings: list[kafka.GroupListing]
    descriptions: dict[str, kafka.GroupDescription]  # of the groups not listed Empty
    committed: dict[str, dict[TP, int | None]]
    log_ends: dict[TP, int | None]
    log_starts: dict[TP, int | None]  # empty unless asked for

    def assigned(self, group_id: str) -> dict[TP, kafka.GroupMember]:
        desc = self.descriptions.get(group_id)
        return {tp: m for m in (desc.members if desc else []) for tp in m.assignments}


class Laps:
    """Seconds between marks, by name, into `times` (a pass's phases, a read's steps)."""

    def __init__(self, times: dict[str, float], prefix: str = "", start: float | None = None):
        self.times, self.prefix = times, prefix
        self._last = time.monotonic() if start is None else start

    def mark(self, name: str) -> None:
        now = time.monotonic()
        self.times[self.prefix + name] = round(now - self._last, 4)
        self._last = now


def read_groups(
    client: kafka.ClusterClient,
    with_log_starts: bool | Callable[[list[TP]], list[TP]] = False,
    leaders: Mapping[TP, tuple[str, int]]
    | Callable[[], Mapping[TP, tuple[str, int]] | None]
    | None = None,
    laps: Laps | None = None,
) -> GroupsRead:
    """All groups in batched calls: ListGroups, then DescribeGroups (of the groups not Empty)
    and OffsetFetch side by side, then ListOffsets (latest, and earliest when asked) side by
    side, for every partition a group committed on or is assigned (sent to `leaders` when
    known: no Metadata call). `leaders` may be a callable, called only before ListOffsets:
    the sampler fetches its metadata snapshot meanwhile. `with_log_starts` may pick the
    partitions whose log start to read (the sampler reads them all only every few passes).
    `laps`, when given, times each step (list, groups, leaders, offsets)."""
    done = laps.mark if laps is not None else lambda step: None
    listings = client.list_groups()
    done("list")
    ids = [g.group_id for g in listings]
    # An Empty group has no members: its listing already says what a description would (state,
    # protocol type), so only the others are described. At 20,000 idle groups DescribeGroups
    # took as long as the OffsetFetch beside it (0.3 s each).
    busy = [g.group_id for g in listings if g.state != EMPTY]
    with ThreadPoolExecutor(max_workers=2) as pool:
        describing = pool.submit(client.describe_groups, busy)
        committed = client.committed_offsets(dict.fromkeys(ids))
        descriptions = describing.result()
    tps: set[TP] = set()
    for offsets in committed.values():
        tps.update(offsets)  # in C: every committed partition of every group, each pass
    for d in descriptions.values():
        for m in d.members:
            tps.update(m.assignments)
    ordered = list(tps)  # any order: the wire client groups them by leader
    done("groups")
    if callable(leaders):
        leaders = leaders()
    done("leaders")
    with ThreadPoolExecutor(max_workers=2) as pool:
        starting = None
        start_tps = with_log_starts(ordered) if callable(with_log_starts) else ordered
        if with_log_starts and start_tps:
            starting = pool.submit(client.log_offsets, start_tps, "earliest", leaders)
        ends = client.log_offsets(ordered, "latest", leaders)
        starts = starting.result() if starting else {}
    done("offsets")
    return GroupsRead(listings, descriptions, committed, ends, starts)
