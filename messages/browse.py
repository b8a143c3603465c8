"""A page of a topic's records from a chosen position (docs/messages.md).

Positions, per chosen partition (all by default):
- `earliest`: from the log start; `offset`: from that offset (clamped into the log);
  `timestamp`: from the first record at or after the time (ListOffsets by time, as
  `kafka-console-consumer --offset` seeks by time), or the log end when none is that recent;
- `latest`: the newest records, the last `limit` of the topic.
Direction `forward` lists records at or after the position, oldest first; `backward` those
before it, newest first (for `latest`, the last ones, newest first). Reading backward reads
windows below the bound, doubling until the page fills or the log start is reached: Kafka
only reads forward. With a `filter` (messages/filtering.py) the scan reads on past records
that do not match, within the budgets below, and the cursor continues where it stopped.

The log's ends are asked once, with the isolation of the read: read committed (the default)
ends at the last stable offset and leaves aborted records out; read uncommitted ends at the
high watermark and marks aborted records by reading the page's span again read committed
(confluent-kafka says nothing of a record's transaction).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.kafka.errors import KafkaAdapterError, KafkaTimeout
from console.kafka.records import RangeReader, RawRecord, read_ranges
from console.metadata import cache
from messages.decoding import SchemaSource, decode
from messages.filtering import RecordFilter, variables
from messages.paging import BACKWARD, FORWARD, Cursor, PageBuilder, per_partition_budget
from messages.registry import schema_source

POSITIONS = ("earliest", "latest", "offset", "timestamp")
DEFAULT_LIMIT, MAX_LIMIT = 50, 500
# A scan's budgets (one request): records examined with a filter, bytes read, seconds. The
# answer says which one stopped it, how far each partition got, and the cursor to go on.
MAX_SCAN_RECORDS = 100_000
SCAN_BYTES = 64 * 1024 * 1024
SCAN_SECONDS = 5.0
# Records a filtered scan reads per round (spread over the partitions), and the largest
# backward window (offsets) one round reads of a partition.
_FILTERED_READ = 2000
_MAX_WINDOW = 100_000


@dataclass(frozen=True)
class BrowseQuery:
    partitions: list[int] | None = None  # None: every partition
    position: str = "latest"
    offset: int | None = None
    timestamp_ms: int | None = None
    direction: str | None = None  # None: backward for `latest`, else forward
    limit: int = DEFAULT_LIMIT
    key_format: str = "auto"
    value_format: str = "auto"
    committed: bool = True
    cursor: Cursor | None = None
    filter: str | None = None


def scan_reader(cfg: ClusterConfig, topic: str, query: BrowseQuery) -> RangeReader:
    """A reader for a scan of many pages (a socket's scan): given to each `browse` of it, the
    records one page read ahead are the next page's, not read again, and one consumer serves
    them all. The caller closes it."""
    client = kafka.for_cluster(cfg)
    return RangeReader(client, topic, query.committed, prefetch=bool(query.filter))


def browse(
    cfg: ClusterConfig, topic: str, query: BrowseQuery, reader: RangeReader | None = None
) -> dict[str, Any]:
    """A page of `topic`'s records (`reader`: one of `scan_reader`, for a scan's pages)."""
    client = kafka.for_cluster(cfg)
    started = time.monotonic()
    partitions = chosen_partitions(cfg, topic, query)
    tps = [(topic, p) for p in partitions]
    low = _offsets(client.list_offsets(tps, "earliest"))
    high = _offsets(client.list_offsets(tps, "latest", committed=query.committed))
    direction, bounds = _bounds(client, topic, query, partitions, low, high)
    rendered: dict[tuple[int, int], dict[str, Any]] = {}
    record_filter = RecordFilter(query.filter) if query.filter else None
    schemas = schema_source(cfg)

    def matches(record: RawRecord) -> bool:
        # A filter reads only the parts it names; a record is rendered whole once it matches
        # (most records of a filtered scan do not).
        if record_filter is not None and not record_filter.matches(
            filter_input(record, query, schemas, record_filter.used)
        ):
            return False
        rendered[(record.partition, record.offset)] = render_record(record, query, schemas)
        return True

    builder = PageBuilder(
        direction,
        bounds,
        query.limit,
        matches,
        max_scanned=MAX_SCAN_RECORDS if record_filter else None,
    )
    if reader is not None:
        _scan(client, reader, query, builder, low, high, started)
        if direction == FORWARD:  # what was read and not merged is the next page's start
            for p, left in builder.buffers.items():
                reader.give_back(p, list(left), builder.cursor[p])
    else:
        with RangeReader(client, topic, query.committed, prefetch=bool(query.filter)) as own:
            _scan(client, own, query, builder, low, high, started)
    page = builder.page()
    records: list[RawRecord] = page.records
    next_offsets, prev_offsets = page.next, page.prev
    if query.position == "latest" and query.cursor is None and query.direction == FORWARD:
        # The last N, oldest first: continuing forward is past them, going back before them.
        records, direction = records[::-1], FORWARD
        next_offsets, prev_offsets = page.prev, page.next
    shown = [rendered[(r.partition, r.offset)] for r in records]
    if not query.committed:
        aborted = _aborted(client, topic, records)
        for record, row in zip(records, shown, strict=True):
            row["aborted"] = (record.partition, record.offset) in aborted
    other = BACKWARD if direction == FORWARD else FORWARD
    scan: dict[str, Any] = {
        "scanned": page.scanned,
        "matched": len(records),
        "stopped_by": page.stopped_by,
        "positions": {str(p): o for p, o in sorted(next_offsets.items())},
        "elapsed_ms": round((time.monotonic() - started) * 1000),
    }
    if record_filter is not None:
        scan["filter_errors"] = record_filter.errors
        scan["filter_error"] = record_filter.first_error
    return {
        "records": shown,
        "next_cursor": Cursor(direction, next_offsets).encode(),
        "prev_cursor": Cursor(other, prev_offsets).encode(),
        "isolation": "read_committed" if query.committed else "read_uncommitted",
        "scan": scan,
    }


def _scan(
    client: kafka.ClusterClient,
    reader: RangeReader,
    query: BrowseQuery,
    builder: PageBuilder,
    low: dict[int, int],
    high: dict[int, int],
    started: float,
) -> None:
    """Read rounds until the page is finished or a budget runs out. Forward, a partition's
    round is the records after what it read before; backward, a window below it that doubles
    each round (Kafka only reads forward)."""
    partitions = len(builder.starts)
    share = per_partition_budget(query.limit, partitions)
    if query.filter:
        share = max(share, min(_FILTERED_READ, _FILTERED_READ * 4 // max(partitions, 1)))
    window = dict.fromkeys(builder.starts, max(share, 1))
    read_bytes = 0
    while not builder.merge():
        left = SCAN_SECONDS - (time.monotonic() - started)
        if left <= 0:
            builder.stop("time")
            break
        if read_bytes >= SCAN_BYTES:
            builder.stop("bytes")
            break
        wanted = builder.needs()
        # A read cut short by what is left of the page's time ends the page there (its
        # cursor goes on from what was merged); only a read given the client's whole
        # timeout is Kafka's failure.
        if builder.direction == FORWARD:
            wanted = builder.low(share)  # the needy ones, and any other running low
            ranges = {p: (builder.positions[p], high[p]) for p in wanted}
            try:
                reads = reader.read(ranges, share, timeout=max(left, 1.0))
            except KafkaTimeout:
                if left >= client.timeout:
                    raise
                builder.stop("time")
                break
            for p, read in reads.items():
                builder.feed(p, read.records, read.next_offset, read.reached_end)
        else:
            ranges = {
                p: (max(low[p], builder.positions[p] - window[p]), builder.positions[p])
                for p in wanted
            }
            try:
                reads = reader.read(ranges, max(window.values()), timeout=max(left, 1.0))
            except KafkaTimeout:
                if left >= client.timeout:
                    raise
                builder.stop("time")
                break
            for p, read in reads.items():
                start = ranges[p][0]
                builder.feed(p, read.records, start, start <= low[p])
                window[p] = min(window[p] * 2, _MAX_WINDOW)
        read_bytes += sum(_size(r) for read in reads.values() for r in read.records)


def chosen_partitions(cfg: ClusterConfig, topic: str, query: BrowseQuery) -> list[int]:
    wanted = sorted(query.cursor.offsets) if query.cursor else query.partitions or []
    meta = cache.snapshot(cfg).topic(topic, wanted)
    if meta is None:
        raise NotFound(f"Topic {topic!r} does not exist.", code="topic_not_found")
    existing = [p.partition for p in meta.partitions]
    missing = sorted(set(wanted) - set(existing))
    if missing:
        field = "cursor" if query.cursor else "partition"
        raise BadInput(field, f"{field}: topic {topic!r} has no partition {missing[0]}.")
    return wanted or existing


def _offsets(answers: dict[Any, Any]) -> dict[int, int]:
    out = {}
    for (_, partition), answer in answers.items():
        if isinstance(answer, KafkaAdapterError):
            raise answer  # the partition's leader is offline: Kafka's failure, 502/504
        out[partition] = answer.offset
    return out


def _bounds(
    client: kafka.ClusterClient,
    topic: str,
    query: BrowseQuery,
    partitions: list[int],
    low: dict[int, int],
    high: dict[int, int],
) -> tuple[str, dict[int, int]]:
    """The read's direction and per partition its first offset (forward) or exclusive upper
    bound (backward), inside [log start, log end]."""

    def inside(p: int, offset: int) -> int:
        return min(max(offset, low[p]), high[p])

    if query.cursor is not None:
        return query.cursor.direction, {p: inside(p, o) for p, o in query.cursor.offsets.items()}
    if query.position == "latest":
        return BACKWARD, dict(high)
    direction = query.direction or FORWARD
    if query.position == "earliest":
        return direction, dict(low)
    if query.position == "offset":
        assert query.offset is not None
        shift = 1 if direction == BACKWARD else 0  # backward: the offset itself and before
        return direction, {p: inside(p, query.offset + shift) for p in partitions}
    assert query.timestamp_ms is not None
    found = _offsets(
        client.list_offsets([(topic, p) for p in partitions], query.timestamp_ms, query.committed)
    )
    # -1: no record that recent; the position is then the log end.
    return direction, {p: high[p] if o < 0 else inside(p, o) for p, o in found.items()}


def _aborted(client: kafka.ClusterClient, topic: str, records: list[RawRecord]) -> set[tuple]:
    """(partition, offset) of the page's aborted records: below the last stable offset, read
    uncommitted but not read committed."""
    spans: dict[int, tuple[int, int]] = {}
    for r in records:
        lo, hi = spans.get(r.partition, (r.offset, r.offset + 1))
        spans[r.partition] = (min(lo, r.offset), max(hi, r.offset + 1))
    if not spans:
        return set()
    stable = _offsets(client.list_offsets([(topic, p) for p in spans], "latest", committed=True))
    ranges = {p: (lo, min(hi, stable[p])) for p, (lo, hi) in spans.items()}
    committed = read_ranges(client, topic, ranges, max(hi - lo for lo, hi in spans.values()))
    seen = {(r.partition, r.offset) for read in committed.values() for r in read.records}
    return {
        (r.partition, r.offset)
        for r in records
        if r.offset < stable[r.partition] and (r.partition, r.offset) not in seen
    }


def render_record(
    r: RawRecord, query: BrowseQuery, schemas: SchemaSource | None = None
) -> dict[str, Any]:
    key = decode(r.key, query.key_format, schemas)
    value = decode(r.value, query.value_format, schemas)
    return {
        "partition": r.partition,
        "offset": r.offset,
        "timestamp": _iso(r.timestamp_ms),
        "timestamp_ms": r.timestamp_ms,
        "timestamp_type": r.timestamp_type,
        "key": key.as_dict() if key else None,
        "value": value.as_dict() if value else None,
        "headers": [
            {"key": name, "value": d.as_dict() if (d := decode(raw, "auto", schemas)) else None}
            for name, raw in r.headers
        ],
    }


def filter_input(
    r: RawRecord, query: BrowseQuery, schemas: SchemaSource | None, used: list[str]
) -> dict[str, Any]:
    """A record's filter variables, decoding only the parts the filter uses."""

    def data(raw: bytes | None, fmt: str) -> Any:
        decoded = decode(raw, fmt, schemas)
        return None if decoded is None else decoded.data

    return variables(
        r.partition,
        r.offset,
        r.timestamp_ms if "timestamp" in used else None,  # a datetime only when it is read
        data(r.key, query.key_format) if "key" in used else None,
        data(r.value, query.value_format) if "value" in used else None,
        [(name, data(raw, "auto")) for name, raw in r.headers] if "headers" in used else [],
    )


def filter_variables(r: RawRecord, shown: dict[str, Any]) -> dict[str, Any]:
    def data(part: dict[str, Any] | None) -> Any:
        return None if part is None else part["data"]

    headers = [(h["key"], data(h["value"])) for h in shown["headers"]]
    return variables(
        r.partition, r.offset, r.timestamp_ms, data(shown["key"]), data(shown["value"]), headers
    )


def _size(r: RawRecord) -> int:
    return r.size


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )
