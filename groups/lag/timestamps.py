"""The record timestamps the sampler read at the offsets where groups sit (`RecordTimestamps`).

A lagging partition's lag in seconds is the age of the next record its group reads. Its
timestamp is read once (one record per position, a bounded number per pass) and kept while
a group still sits there, so a pass reads timestamps only where a committed offset moved.
A position that gave no timestamp (no record there: deleted, a transaction marker, a broker
that did not answer) is asked again only every `RETRY_UNREAD_EVERY` passes, not every pass:
at 40,000 partitions each such read is a fetch round of its own. In memory only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from console import kafka
from groups.lag.read import GroupsRead
from groups.partitions import TP

# Record timestamps read per pass at most; the rest use interpolation until a later pass.
TIMESTAMP_READS_PER_PASS = 5000
# Passes between two reads of a position that gave no timestamp (its lag seconds meanwhile
# come from the log-end history).
RETRY_UNREAD_EVERY = 12


# A record's place, (partition, offset): the key of its timestamp. A plain tuple, as
# console.kafka takes and returns it (tens of thousands are made per pass).
Position = tuple[TP, int]


def next_offset(committed: int, log_start: int | None) -> int:
    """The offset of the next record a group reads: its committed offset, or the log start
    when retention deleted the records under it."""
    return max(committed, log_start) if log_start is not None else committed


def _positions(offsets: dict[TP, int | None], read: GroupsRead) -> list[Position]:
    """The next record of each lagging partition of one group's `offsets`."""
    out: list[Position] = []
    add, ends, starts = out.append, read.log_ends.get, read.log_starts.get
    for tp, committed in offsets.items():
        if committed is None:
            continue
        end = ends(tp)
        if end is None or committed >= end:
            continue
        start = starts(tp)  # next_offset, inlined: every lagging partition, each pass
        add((tp, committed if start is None or committed >= start else start))
    return out


class RecordTimestamps:
    """Record timestamps (epoch ms) by `Position`: the positions some group still sits at."""

    def __init__(self) -> None:
        self.known: dict[Position, int] = {}
        self.unread: dict[Position, int] = {}  # position -> the refresh that last asked it
        self._refreshes = 0
        # The last refresh's wanted positions, and those of them neither known nor unread.
        # Kept as sets so that a pass compares sets with sets: their stored hashes are used,
        # where a set against a dict's keys hashes every (partition, offset) tuple again (15
        # ms a pass at 20,000 lagging partitions).
        self._wanted: set[Position] = set()
        self._missing: set[Position] = set()
        self._by_group: dict[str, tuple[Hashable, frozenset[Position]]] = {}

    @staticmethod
    def wanted(read: GroupsRead) -> set[Position]:
        """The positions whose record time gives lag seconds: the next record of every
        lagging partition of every group."""
        wanted: set[Position] = set()
        for offsets in read.committed.values():
            wanted.update(_positions(offsets, read))
        return wanted

    def wanted_by_group(
        self, read: GroupsRead, unchanged_since: Callable[[str], Hashable]
    ) -> set[Position]:
        """`wanted`, with each group's positions taken from the last call while
        `unchanged_since(group)` is (the sampler's key: the group's windows did not move and
        its log starts are the same). The same position objects each pass: the set work
        that follows compares them by identity."""
        kept, fresh = self._by_group, {}
        parts = []
        for group, offsets in read.committed.items():
            key = unchanged_since(group)
            last = kept.get(group)
            positions = last[1] if last is not None and last[0] == key else None
            if positions is None:
                positions = frozenset(_positions(offsets, read))
            fresh[group] = (key, positions)
            parts.append(positions)
        self._by_group = fresh
        return set().union(*parts)

    def refresh(self, client: kafka.ClusterClient, wanted: set[Position]) -> int:
        """Read the wanted timestamps not known yet (`TIMESTAMP_READS_PER_PASS` at most, none
        asked within `RETRY_UNREAD_EVERY` passes without an answer) and forget those no group
        sits at any more; the number of records read."""
        self._refreshes += 1
        known, unread, missing, now = self.known, self.unread, self._missing, self._refreshes
        for position in self._wanted - wanted:  # no group sits there any more
            known.pop(position, None)
            unread.pop(position, None)
            missing.discard(position)
        missing.update(p for p in wanted - self._wanted if p not in known)
        self._wanted = wanted
        due = [p for p, asked in unread.items() if now - asked >= RETRY_UNREAD_EVERY]
        asking = sorted(missing.union(due))[:TIMESTAMP_READS_PER_PASS]
        found = client.record_timestamps_at(asking) if asking else {}
        for position in asking:
            missing.discard(position)
            ts = found.get(position)
            if ts is None:
                unread[position] = now
            else:
                known[position] = ts
                unread.pop(position, None)
        return len(found)

    def of(self, tp: TP, committed: int | None, log_start: int | None) -> int | None:
        """The timestamp of the next record a group reads, if known."""
        if committed is None:
            return None
        return self.known.get((tp, next_offset(committed, log_start)))
