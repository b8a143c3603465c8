"""What the sampler keeps of past passes per partition: each group's sliding windows of
samples (`Windows`) and each partition's log-end history (`EndHistories`).

Both are updated from a pass's read, right after it, and drop at once what the read no
longer has (a deleted group, a partition no group reads any more).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
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
    kept in memory, and in Redis every few passes for a standby that takes over.

    A group whose every partition repeats its newest point (nothing committed, nothing
    written: most groups of a large cluster, most passes) is not given a point per partition:
    the pass's time is noted for the group and the points are made when its windows are next
    looked at (`of`). `moved(group)` changes only when a point that does not repeat the
    newest is added: the evaluation reuses a whole group's evaluation while it stays."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.by_group: dict[str, dict[TopicPartition, deque[Point]]] = {}
        # The newest point's (committed offsets, log ends) of a group's partitions, in
        # window order, and the times of the points that repeat it but are not made yet.
        self._newest: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
        self._still: dict[str, list[float]] = {}
        self._moved: dict[str, int] = {}
        self._updates = 0

    def restore(self, stored: Mapping[str, Any]) -> None:
        """Take over windows a previous sampler stored (`stored()`, as read back)."""
        for group, value in stored.items():
            still = value if isinstance(value, dict) else None
            rows = list(map(StoredWindow._make, still["windows"] if still else value))
            # Sorted as the class keeps them, a still group's newest offsets with its windows.
            order = sorted(range(len(rows)), key=lambda i: (rows[i].topic, rows[i].partition))
            self.by_group[group] = {
                TopicPartition(rows[i].topic, rows[i].partition): deque(
                    map(Point._make, rows[i].points), maxlen=self.size
                )
                for i in order
            }
            self._forget_still(group)
            if still:
                self._still[group] = list(still["still"])
                committed, ends = still["committed"], still["ends"]
                self._newest[group] = (
                    tuple(committed[i] for i in order),
                    tuple(ends[i] for i in order),
                )

    def stored(self) -> Iterator[tuple[str, Any]]:
        """Every group's windows as the store keeps them, made one group at a time as the
        store writes them: a list laid out as `StoredWindow` (each point a plain tuple, which
        JSON writes as a list), or for a group whose newest points were only noted, `{"windows":
        [the made points that stay], "still": [the noted times], "committed": [...], "ends":
        [...]}` (its repeats once per group, not a point per partition)."""
        for group, wins in list(self.by_group.items()):
            still = self._still.get(group)
            if not still:
                yield (
                    group,
                    [[tp.topic, tp.partition, list(map(tuple, w))] for tp, w in wins.items()],
                )
                continue
            committed, ends = self._newest[group]
            keep = self.size - len(still)  # the made points that stay in the window
            yield (
                group,
                {
                    "windows": [
                        [
                            tp.topic,
                            tp.partition,
                            list(map(tuple, islice(w, max(0, len(w) - keep), None))),
                        ]
                        for tp, w in wins.items()
                    ],
                    "still": list(still),
                    "committed": list(committed),
                    "ends": list(ends),
                },
            )

    def update(self, read: GroupsRead, at: float) -> None:
        """Add this pass's point to the window of every partition a group committed on or is
        assigned; new groups and partitions start a window, gone ones lose theirs."""
        self._updates += 1
        seen_groups = set()
        ends = read.log_ends
        for listing in read.listings:
            group = listing.group_id
            seen_groups.add(group)
            committed = read.committed.get(group, {})
            tps = committed.keys() | read.assigned(group).keys()
            old = self.by_group.get(group)
            if old is not None and old.keys() == tps:  # the same partitions
                # In C: two lookups per partition, against a point made for each.
                newest = (tuple(map(committed.get, old)), tuple(map(ends.get, old)))
                if newest == self._newest.get(group):  # all still: noted, made when needed
                    still = self._still.setdefault(group, [])
                    still.append(at)
                    if len(still) > self.size:
                        del still[0]
                    continue
                self._make_still(group, old)
                for tp, window in old.items():  # append in place
                    window.append(Point(at, committed.get(tp), ends.get(tp)))
                self._newest[group], self._moved[group] = newest, self._updates
                continue
            if old:
                self._make_still(group, old)
            old = old or {}
            fresh: dict[TopicPartition, deque[Point]] = {}
            for tp in map(TopicPartition._make, sorted(tps)):  # sorted: see the class
                window = old.get(tp) or deque(maxlen=self.size)
                window.append(Point(at, committed.get(tp), ends.get(tp)))
                fresh[tp] = window
            self.by_group[group] = fresh  # partitions no longer there are dropped
            self._newest[group] = (tuple(map(committed.get, fresh)), tuple(map(ends.get, fresh)))
            self._moved[group] = self._updates
        for group in set(self.by_group) - seen_groups:  # deleted groups
            del self.by_group[group]
            self._forget_still(group)
            self._moved.pop(group, None)

    def _make_still(self, group: str, wins: dict[TopicPartition, deque[Point]]) -> None:
        """Make the group's points that were only noted (each repeats the newest)."""
        still = self._still.pop(group, None)
        if not still:
            return
        committed, ends = self._newest[group]
        for window, c, e in zip(wins.values(), committed, ends, strict=True):
            window.extend([Point(t, c, e) for t in still])

    def _forget_still(self, group: str) -> None:
        self._still.pop(group, None)
        self._newest.pop(group, None)
        self._moved[group] = self._updates

    def of(self, group: str) -> dict[TopicPartition, deque[Point]]:
        wins = self.by_group.get(group, {})
        if group in self._still:
            self._make_still(group, wins)
        return wins

    def partitions(self, group: str) -> Iterable[TopicPartition]:
        """The group's partitions, in window order (its points are not made)."""
        return self.by_group.get(group, {}).keys()

    def moved(self, group: str) -> int | None:
        """Changes whenever the group's windows get a point that does not repeat the newest,
        or are rebuilt (the same value while they only repeat it)."""
        return self._moved.get(group)

    def count(self) -> int:
        """Windows kept, over all groups (a partition read by two groups counts twice)."""
        return sum(len(w) for w in self.by_group.values())


_GONE = object()  # a partition the last pass did not read


class EndHistories:
    """Each partition's (time, log end) history (`measures.EndHistory`), for lag seconds by
    interpolation where no record timestamp is known. In memory only.

    A pass adds a point only to the histories whose log end changed: a log end that stayed
    only moves the time of its history's newest point (`EndHistory.add`), so that point is
    added when the end next changes or the history is read (`get`), with the same result."""

    def __init__(self) -> None:
        self.by_partition: dict[TP, EndHistory] = {}
        self._ends: Mapping[TP, int | None] = {}  # the last pass's log ends
        self._at: float | None = None  # and its time

    def update(self, log_ends: Mapping[TP, int | None], at: float) -> None:
        """Add this pass's log end of every partition the pass read (every partition some
        group has a window of: the read asks for each, None where it failed); forget the
        others."""
        histories, last, last_at = self.by_partition, self._ends, self._at
        was = last.get
        # The partitions whose end is not the last pass's (new ones included): one lookup
        # each, cheaper than a set of (partition, end) items.
        for tp, end in [(tp, end) for tp, end in log_ends.items() if was(tp, _GONE) != end]:
            history = histories.get(tp)
            before = last.get(tp)
            if history is not None and before is not None and last_at is not None:
                history.add(last_at, before)  # where it stayed until the last pass
            if end is not None:
                if history is None:
                    history = histories[tp] = EndHistory([])
                history.add(at, end)
        if not histories.keys() <= log_ends.keys():  # a check in C; a set only when needed
            for tp in histories.keys() - log_ends.keys():
                del histories[tp]
        self._ends, self._at = log_ends, at

    def get(self, tp: TP) -> EndHistory | None:
        history = self.by_partition.get(tp)
        if history is not None and self._at is not None:
            end = self._ends.get(tp)
            if end is not None:
                history.add(self._at, end)  # no-op when that point is there already
        return history
