"""What the sampler keeps of past passes per partition: each group's sliding windows of
samples (`Windows`) and each partition's log-end history (`EndHistories`).

Both are updated from a pass's read, right after it, and drop at once what the read no
longer has (a deleted group, a partition no group reads any more).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from groups.lag.measures import EndHistory
from groups.lag.read import GroupsRead
from groups.lag.status import Point
from groups.partitions import TP, TopicPartition


class StoredWindow(NamedTuple):
    """One partition's window as the store keeps it (`kc:lag:{c}:win`, one list per group):
    `[topic, partition, [[at, committed, log_end], ...]]`, oldest point first."""

    topic: str
    partition: int
    points: list[list[Any]]


class Windows:
    """Per consumer group, each partition's last `size` samples (`status.Point`), oldest
    first. A group's partitions are kept sorted (the evaluation lists them in this order);
    kept in memory, and in Redis every few passes for a standby that takes over."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.by_group: dict[str, dict[TopicPartition, deque[Point]]] = {}

    def restore(self, stored: Mapping[str, Iterable[Any]]) -> None:
        """Take over windows a previous sampler stored (`stored()`, as read back)."""
        for group, rows in stored.items():
            windows = sorted(map(StoredWindow._make, rows), key=lambda w: (w.topic, w.partition))
            self.by_group[group] = {
                TopicPartition(w.topic, w.partition): deque(
                    (Point._make(p) for p in w.points), maxlen=self.size
                )
                for w in windows
            }

    def stored(self) -> Iterator[tuple[str, list[list[Any]]]]:
        """Every group's windows as the store keeps them (plain lists, laid out as
        `StoredWindow`), made one group at a time as the store writes them."""
        for group, wins in list(self.by_group.items()):
            yield (
                group,
                [
                    [tp.topic, tp.partition, [[x.at, x.committed, x.log_end] for x in w]]
                    for tp, w in wins.items()
                ],
            )

    def update(self, read: GroupsRead, at: float) -> None:
        """Add this pass's point to the window of every partition a group committed on or is
        assigned; new groups and partitions start a window, gone ones lose theirs."""
        seen_groups = set()
        for listing in read.listings:
            group = listing.group_id
            seen_groups.add(group)
            committed = read.committed.get(group, {})
            tps = committed.keys() | read.assigned(group).keys()
            old = self.by_group.get(group)
            ends = read.log_ends
            if old is not None and old.keys() == tps:  # the same partitions: append in place
                for tp, window in old.items():
                    window.append(Point(at, committed.get(tp), ends.get(tp)))
                continue
            old = old or {}
            fresh: dict[TopicPartition, deque[Point]] = {}
            for tp in map(TopicPartition._make, sorted(tps)):  # sorted: see the class
                window = old.get(tp) or deque(maxlen=self.size)
                window.append(Point(at, committed.get(tp), ends.get(tp)))
                fresh[tp] = window
            self.by_group[group] = fresh  # partitions no longer there are dropped
        for group in set(self.by_group) - seen_groups:  # deleted groups
            del self.by_group[group]

    def of(self, group: str) -> dict[TopicPartition, deque[Point]]:
        return self.by_group.get(group, {})

    def count(self) -> int:
        """Windows kept, over all groups (a partition read by two groups counts twice)."""
        return sum(len(w) for w in self.by_group.values())


class EndHistories:
    """Each partition's (time, log end) history (`measures.EndHistory`), for lag seconds by
    interpolation where no record timestamp is known. In memory only."""

    def __init__(self) -> None:
        self.by_partition: dict[TP, EndHistory] = {}

    def update(self, log_ends: Mapping[TP, int | None], at: float) -> None:
        """Add this pass's log end of every partition the pass read (every partition some
        group has a window of: the read asks for each, None where it failed); forget the
        others."""
        histories = self.by_partition
        for tp, end in log_ends.items():
            if end is not None:
                history = histories.get(tp)
                if history is None:
                    history = histories[tp] = EndHistory([])
                history.add(at, end)
        for tp in histories.keys() - log_ends.keys():
            del histories[tp]

    def get(self, tp: TP) -> EndHistory | None:
        return self.by_partition.get(tp)
