"""Pages from several partitions and their cursors, over made-up records (no Kafka)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from console.errors import BadInput
from messages.paging import (
    BACKWARD,
    FORWARD,
    Cursor,
    PageBuilder,
    parse_cursor,
    per_partition_budget,
)


@dataclass(frozen=True)
class R:
    partition: int
    offset: int
    timestamp_ms: int | None


def _log(seed: int, partitions: int = 3, size: int = 30) -> dict[int, list[R]]:
    """Partitions with gaps in their offsets (markers, compaction) and timestamps that go
    backwards now and then (CreateTime is the producer's)."""
    rng = random.Random(seed)
    logs = {}
    for p in range(partitions):
        offset, records = 0, []
        for _ in range(size):
            offset += rng.choice([1, 1, 1, 2, 5])
            records.append(R(p, offset, rng.randrange(0, 10_000)))
        logs[p] = records
    return logs


def _pages(
    logs: dict[int, list[R]],
    direction: str,
    limit: int,
    share: int,
    keep: Callable[[R], bool] | None = None,
) -> list[list[R]]:
    """Every page, each built in rounds of `share` records per partition as browse.py reads
    them (forward: the next records; backward: the ones right below), following the cursor."""
    ends = {p: (rs[-1].offset + 3 if rs else 0) for p, rs in logs.items()}  # trailing markers
    cursor = dict.fromkeys(logs, 0) if direction == FORWARD else dict(ends)
    pages = []
    for _ in range(1000):
        builder = PageBuilder(direction, cursor, limit, keep)
        while not builder.merge():
            for p in builder.needs():
                at = builder.positions[p]
                if direction == FORWARD:
                    rest = [r for r in logs[p] if r.offset >= at]
                    got, done = rest[:share], len(rest) <= share
                    builder.feed(p, got, ends[p] if done else got[-1].offset + 1, done)
                else:
                    below = [r for r in logs[p] if r.offset < at]
                    got, done = below[-share:], len(below) <= share
                    builder.feed(p, got, 0 if done else got[0].offset, done)
        page = builder.page()
        if not page.records:
            assert page.stopped_by == "end"
            return pages
        pages.append(page.records)
        assert len(page.records) <= limit
        cursor = page.next
    raise AssertionError("no end")


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("direction", [FORWARD, BACKWARD])
@pytest.mark.parametrize("limit, share", [(7, 7), (7, 3), (1, 10), (50, 5)])
def test_pages_take_every_record_once(seed, direction, limit, share):
    logs = _log(seed)
    pages = _pages(logs, direction, limit, share)
    seen = [(r.partition, r.offset) for page in pages for r in page]
    assert sorted(seen) == sorted((r.partition, r.offset) for rs in logs.values() for r in rs)
    assert len(seen) == len(set(seen))
    for page in pages:  # within a page, each partition's records in offset order
        for p in logs:
            offsets = [r.offset for r in page if r.partition == p]
            assert offsets == sorted(offsets, reverse=direction == BACKWARD)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("direction", [FORWARD, BACKWARD])
def test_a_filtered_scan_finds_every_match_once(seed, direction):
    logs = _log(seed)
    keep = lambda r: r.timestamp_ms % 7 == 0  # noqa: E731
    pages = _pages(logs, direction, 3, 4, keep)
    seen = [(r.partition, r.offset) for page in pages for r in page]
    wanted = [(r.partition, r.offset) for rs in logs.values() for r in rs if keep(r)]
    assert sorted(seen) == sorted(wanted) and len(seen) == len(set(seen))


def test_the_merge_waits_for_a_partition_whose_round_ran_out():
    builder = PageBuilder(FORWARD, {0: 0, 1: 0}, 10)
    builder.feed(0, [R(0, 0, 100)], 1, False)
    builder.feed(1, [R(1, 0, 1), R(1, 1, 200)], 2, True)
    # Partition 0 may hold a record older than 200 right after offset 0: read it first.
    assert builder.merge() is False and builder.needs() == [0]
    assert [(r.partition, r.offset) for r in builder.taken] == [(1, 0), (0, 0)]
    builder.feed(0, [R(0, 4, 150)], 9, True)  # offsets 1-3: markers; 5-8 a compacted tail
    assert builder.merge() is True
    page = builder.page()
    assert [(r.partition, r.offset) for r in page.records] == [(1, 0), (0, 0), (0, 4), (1, 1)]
    assert page.next == {0: 9, 1: 2} and page.prev == {0: 0, 1: 0}
    assert page.stopped_by == "end"


def test_a_scan_stops_at_its_record_budget_and_goes_on_from_there():
    builder = PageBuilder(FORWARD, {0: 0}, 10, lambda r: False, max_scanned=3)
    builder.feed(0, [R(0, i, i) for i in range(5)], 5, False)
    assert builder.merge() is True
    page = builder.page()
    assert page.stopped_by == "records" and page.scanned == 3 and page.next == {0: 3}


def test_cursors_round_trip_and_anything_else_is_refused():
    cursor = Cursor(BACKWARD, {0: 12, 7: 3})
    assert parse_cursor(cursor.encode()) == cursor
    assert parse_cursor(Cursor(FORWARD, {1: 0}).encode()).direction == FORWARD
    for bad in ["", "c1.", "c2.e30", "c1.!!!", "c1.e30", "c1.eyJkIjoiZiIsIm8iOnt9fQ"]:
        with pytest.raises(BadInput) as raised:
            parse_cursor(bad)
        assert raised.value.field == "cursor"


def test_the_budget_is_the_page_for_few_partitions_a_fair_share_for_many():
    assert per_partition_budget(50, 3) == 50
    assert per_partition_budget(50, 100) == 10
    assert per_partition_budget(500, 20) == 50
