"""The partitions' log start offsets, kept between passes (`LogStarts`).

A log start moves only when retention deletes a segment: a pass reads it for every partition
every `LOG_STARTS_EVERY` passes, and at once for a partition not seen before; the passes
between use what was kept. Retention risk and the lag seconds of a group below the log
start lag the truth by this many intervals at most. In memory only.
"""

from __future__ import annotations

from groups.lag.read import GroupsRead
from groups.partitions import TP

LOG_STARTS_EVERY = 6


class LogStarts:
    """The last log start read of each partition some group reads."""

    def __init__(self) -> None:
        self.known: dict[TP, int] = {}

    def wanted(self, tps: list[TP], passes: int) -> list[TP]:
        """The partitions whose log start the pass after `passes` successful ones reads."""
        if passes % LOG_STARTS_EVERY == 0:
            return tps
        missing = set(tps) - self.known.keys()  # set arithmetic: 20,000 partitions a pass
        return [tp for tp in tps if tp in missing] if missing else []

    def merge(self, read: GroupsRead) -> None:
        """Keep what `read` found, forget the partitions it no longer has, and give `read`
        every kept log start of its partitions (the pass's evaluation reads them there)."""
        wanted = read.log_ends.keys()
        self.known.update((tp, s) for tp, s in read.log_starts.items() if s is not None)
        if not self.known.keys() <= wanted:  # a check in C; a set only when needed
            for tp in self.known.keys() - wanted:
                del self.known[tp]
        read.log_starts.clear()
        read.log_starts.update(self.known)
