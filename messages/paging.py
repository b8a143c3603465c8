"""Pages of records from several partitions, and the cursors that continue them exactly.

A page is a k-way merge of the partitions' records by timestamp (oldest first going forward,
newest first going backward) in which each partition's records are taken in offset order, so
what a page takes of a partition is always a run of its offsets with nothing left out. The
cursor to the next page then holds, per partition, the offset right past what was taken
(forward: the last taken offset + 1; backward: the smallest taken offset, as an exclusive
upper bound): no record is skipped or shown twice across pages, whatever the timestamps do,
and across transaction markers, aborted records and compacted gaps, which take offsets but
hold no record (a cursor that points at one simply reads on to the next record).

Partitions are read in rounds of a bounded number of records each; when one partition's
round is used up the merge waits for its next round rather than take later records of the
others. A filter makes the merge examine more records than it takes: the cursor moves over
what was examined, so a filtered scan continues exactly where the last one stopped, and the
previous cursor always starts from where this page began.
"""

from __future__ import annotations

import base64
import binascii
import heapq
import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from console.errors import BadInput

FORWARD, BACKWARD = "forward", "backward"
_CURSOR_VERSION = "c1"
# Partitions named in one cursor: a topic may have up to the cluster's partition limit.
_MAX_CURSOR_PARTITIONS = 200_000
# Up to this many records read per page, every partition reads the whole page.
_WHOLE_PAGE_READS = 2000


class Record(Protocol):
    @property
    def partition(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def timestamp_ms(self) -> int | None: ...


@dataclass(frozen=True)
class Cursor:
    """Where the next page starts: per partition the next offset to read (forward) or the
    exclusive upper bound to read below (backward)."""

    direction: str
    offsets: dict[int, int]

    def encode(self) -> str:
        body = orjson.dumps(
            {"d": self.direction[0], "o": {str(p): o for p, o in self.offsets.items()}}
        )
        return _CURSOR_VERSION + "." + base64.urlsafe_b64encode(body).decode("ascii").rstrip("=")


def parse_cursor(text: str) -> Cursor:
    """A cursor from a previous answer; anything else is a 400 naming `cursor`."""
    bad = BadInput(
        "cursor", "cursor: not a cursor this console gave; use next_cursor or prev_cursor as given."
    )
    version, _, body = text.partition(".")
    if version != _CURSOR_VERSION or not body:
        raise bad
    try:
        data = orjson.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        raise bad from None
    if not isinstance(data, dict) or set(data) != {"d", "o"} or data["d"] not in ("f", "b"):
        raise bad
    offsets = data["o"]
    if not isinstance(offsets, dict) or not 0 < len(offsets) <= _MAX_CURSOR_PARTITIONS:
        raise bad
    out: dict[int, int] = {}
    for key, value in offsets.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 10):
            raise bad
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
            raise bad
        out[int(key)] = value
    return Cursor(FORWARD if data["d"] == "f" else BACKWARD, out)


def per_partition_budget(limit: int, partitions: int) -> int:
    """Records read from each partition for a page of `limit`: the whole page from each while
    that stays small (no page is ever cut short then), else a fair share twice over (a page
    may then stop early where one partition's share ran out; the next page goes on)."""
    if partitions <= 0:
        return 0
    if partitions * limit <= _WHOLE_PAGE_READS:
        return limit
    return min(limit, max(math.ceil(2 * limit / partitions), 10))


@dataclass
class Page:
    records: list  # the records taken, in page order
    next: dict[int, int]  # the cursor offsets of the page after this one, same direction
    prev: dict[int, int]  # the cursor offsets of the page before, the other direction
    stopped_by: str  # "limit" | "end" | a budget: "records" | "bytes" | "time"
    scanned: int = 0  # records examined (with a filter, more than were taken)


class PageBuilder:
    """A page built by merging partitions that are read in rounds.

    The caller asks `needs()` which partitions have nothing left to merge, reads more of
    them (`feed`), and calls `merge()` until it says the page is finished. Going forward each
    feed is the records right after what was fed before; going backward the records right
    below it; both in offset order. Every record merged is examined by `matches` (a filter;
    without one every record matches) and taken if it matches."""

    def __init__(
        self,
        direction: str,
        starts: Mapping[int, int],
        limit: int,
        matches: Callable[[Any], bool] | None = None,
        max_scanned: int | None = None,
    ):
        self.direction = direction
        self.starts = dict(starts)
        self.limit = limit
        self.matches = matches
        self.max_scanned = max_scanned
        self.cursor = dict(starts)
        self.positions = dict(starts)  # where each partition's reads got to
        self.buffers: dict[int, deque] = {p: deque() for p in starts}
        self.done = dict.fromkeys(starts, False)
        self.taken: list = []
        self.scanned = 0
        self.stopped_by: str | None = None

    def needs(self) -> list[int]:
        return [p for p, b in self.buffers.items() if not b and not self.done[p]]

    def low(self, below: int) -> list[int]:
        """Partitions not done with fewer than `below` records left to merge: going forward,
        read together when one of them runs out, so a read wants most of what the consumer
        brings (it fetches every assigned partition) instead of one partition's share."""
        return [p for p, b in self.buffers.items() if len(b) < below and not self.done[p]]

    def feed(self, partition: int, records: Sequence[Any], position: int, done: bool) -> None:
        """`records` in offset order. `position`: forward, where the read stopped (past
        markers and gaps when `done`); backward, the lowest offset it covered. `done`: the
        partition has nothing more in this direction. Going forward, records follow what is
        still buffered (a read goes on from `positions`)."""
        buffer = self.buffers[partition]
        if self.direction == FORWARD and buffer:
            buffer.extend(records)
        else:
            ordered = records if self.direction == FORWARD else list(reversed(records))
            self.buffers[partition] = buffer = deque(ordered)
        self.positions[partition] = position
        self.done[partition] = done
        if done and not buffer:
            self.cursor[partition] = position

    def merge(self) -> bool:
        """Merge what was fed; True when the page is finished (`stopped_by` set), False when
        it needs more of the partitions `needs()` names first."""
        forward = self.direction == FORWARD
        key = _forward_key if forward else _backward_key
        buffers, cursor, done = self.buffers, self.cursor, self.done
        # The partitions' next records in a heap: a record costs O(log partitions), not a
        # look at every partition (a scan merges millions).
        heap = [(key(b[0]), p) for p, b in buffers.items() if b]
        heapq.heapify(heap)
        needy = bool(self.needs())
        while self.stopped_by is None:
            if len(self.taken) >= self.limit:
                self.stopped_by = "limit"
            elif self.max_scanned is not None and self.scanned >= self.max_scanned:
                self.stopped_by = "records"
            elif needy:
                return False  # that partition may hold the next record: read it first
            elif not heap:
                self.stopped_by = "end"
            else:
                p = heapq.heappop(heap)[1]
                buffer = buffers[p]
                record = buffer.popleft()
                self.scanned += 1
                if buffer:
                    heapq.heappush(heap, (key(buffer[0]), p))
                    cursor[p] = record.offset + 1 if forward else record.offset
                elif not done[p]:
                    cursor[p] = record.offset + 1 if forward else record.offset
                    needy = True
                else:
                    cursor[p] = self.positions[p]  # past trailing markers and gaps too
                if self.matches is None or self.matches(record):
                    self.taken.append(record)
        if self.stopped_by == "limit" and self.exhausted():
            self.stopped_by = "end"
        return True

    def exhausted(self) -> bool:
        return not any(self.buffers.values()) and all(self.done.values())

    def stop(self, reason: str) -> None:
        """End the page now: a byte or time budget ran out."""
        self.stopped_by = reason

    def page(self) -> Page:
        """Next cursor from where the merge got to, previous from where the page began."""
        return Page(
            self.taken, dict(self.cursor), dict(self.starts), self.stopped_by or "end", self.scanned
        )


def _forward_key(record: Record) -> tuple[float, int, int]:
    ts = record.timestamp_ms
    return (-math.inf if ts is None else ts, record.partition, record.offset)


def _backward_key(record: Record) -> tuple[float, int, int]:
    """Smallest for the record the backward merge takes first: the newest."""
    ts = record.timestamp_ms
    return (math.inf if ts is None else -ts, -record.partition, -record.offset)
