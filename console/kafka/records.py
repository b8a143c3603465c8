"""Reading records of a topic with throw-away consumers built from the cluster's own
settings (`ClusterClient.config`, so TLS and SASL apply), assigned the partitions (they join
no group and never commit):
- `latest_values`: the last N records of each partition, read from max(log start, log end -
  N) up to the log end as it was when the read began (records written meanwhile are left out);
- `has_record_before`: whether some record is older than a time;
- `RangeReader` / `read_ranges`: records with everything they carry in [start, end) ranges,
  for the message browser; `Tail`: new records as they arrive.
A read that does not finish within the client's timeout raises `KafkaTimeout` rather than
answer with part of the records.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from confluent_kafka import Consumer, KafkaError, TopicPartition

from console.kafka.client import ClusterClient
from console.kafka.errors import KafkaAdapterError, KafkaTimeout
from console.kafka.types import OffsetResult

# (key, value, timestamp in epoch ms or None); each partition's records in offset order.
Record = tuple[bytes | None, bytes | None, int | None]

_BATCH = 1000
# Bytes a RangeReader keeps of records no read wants yet; it drops and reads again more.
KEPT_BYTES = 32 * 1024 * 1024
_WAIT_S = 0.2  # one consume() call; the read's own deadline is the client's timeout


def latest_values(
    client: ClusterClient,
    topic: str,
    partitions: Iterable[int],
    max_records: int,
    timeout: float | None = None,
) -> list[Record]:
    """Up to `max_records` newest records of each of `partitions` of `topic`."""
    tps = [(topic, p) for p in partitions]
    if not tps or max_records <= 0:
        return []
    starts = client.list_offsets(tps, "earliest")
    ends = client.list_offsets(tps, "latest")
    ranges: dict[int, tuple[int, int]] = {}
    for tp in tps:
        start, stop = starts[tp], ends[tp]
        if isinstance(start, KafkaAdapterError):
            raise start
        if isinstance(stop, KafkaAdapterError):
            raise stop
        first = max(start.offset, stop.offset - max_records)
        if stop.offset > first:
            ranges[tp[1]] = (first, stop.offset)
    if not ranges:
        return []
    reads = read_ranges(client, topic, ranges, max_records, timeout=timeout)
    return [
        (r.key, r.value, r.timestamp_ms)
        for partition in sorted(reads)
        for r in reads[partition].records
    ]


def has_record_before(
    client: ClusterClient, topic: str, partitions: Iterable[int], before_ms: int, budget_s: float
) -> bool | None:
    """Whether some record of `topic` has a timestamp before `before_ms`; None when that could
    not be told within `budget_s`. ListOffsets tells most cases: a partition whose first
    offset with a timestamp at or after `before_ms` is past its log start holds an older
    record before it, and one with records but none that recent holds only older ones.
    Otherwise (every partition starts with a record that recent) older records may still
    follow newer ones, and the partitions are read from their start until one is found."""
    tps = [(topic, p) for p in partitions]
    answers = [client.list_offsets(tps, spec) for spec in ("earliest", "latest", before_ms)]
    ranges: dict[int, tuple[int, int]] = {}
    for tp in tps:
        start, end, found = (_offset(answer[tp]) for answer in answers)
        if end <= start:
            continue  # empty
        if not start <= found < end or found > start:
            return True
        ranges[tp[1]] = (start, end)
    if not ranges:
        return False
    deadline = time.monotonic() + budget_s
    consumer = _reader(client)
    pending = {p: end for p, (_, end) in ranges.items()}
    try:
        consumer.assign([TopicPartition(topic, p, first) for p, (first, _) in ranges.items()])
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            for message in consumer.consume(num_messages=_BATCH, timeout=min(_WAIT_S, left)):
                error, partition, offset = message.error(), message.partition(), message.offset()
                if error is not None:
                    if error.code() == KafkaError._PARTITION_EOF:
                        pending.pop(partition, None)  # type: ignore[arg-type]
                    continue
                if partition not in pending or offset is None:
                    continue
                _, ts = message.timestamp()
                if 0 <= ts < before_ms:
                    return True
                if offset + 1 >= pending[partition]:
                    del pending[partition]
    finally:
        consumer.close()
    return False


def _offset(answer: OffsetResult | KafkaAdapterError) -> int:
    if isinstance(answer, KafkaAdapterError):
        raise answer
    return answer.offset


def _reader(client: ClusterClient, **settings: Any) -> Consumer:
    """A consumer for `assign` that never commits, with the cluster's own settings (and
    `settings` over the defaults below)."""
    defaults = {
        # librdkafka wants a group id even for `assign`; nothing is ever committed.
        "group.id": "kafka-console-peek",
        "enable.auto.commit": False,
        "enable.partition.eof": True,
        # The first offset was deleted by retention meanwhile: start at the new start.
        "auto.offset.reset": "earliest",
        "log_level": 2,
    }
    return Consumer(client.config(**{**defaults, **settings}))


# --- browsing: records with everything they carry, from chosen offsets ------------------------
TIMESTAMP_TYPES = {1: "CreateTime", 2: "LogAppendTime"}


class RawRecord(NamedTuple):
    """One record as the broker holds it: bytes, headers in order (duplicates kept). A named
    tuple: a scan builds one per record, and a frozen dataclass cost five times as much."""

    partition: int
    offset: int
    timestamp_ms: int | None
    timestamp_type: str | None  # "CreateTime" | "LogAppendTime"; None when not available
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]
    size: int  # bytes of key, value and header values


@dataclass
class PartitionRead:
    """What one partition's read gave: records in offset order, the offset to read from next
    (past the last record returned, or past markers and gaps up to the range's end when it
    was reached) and whether the range's end was reached."""

    records: list[RawRecord] = field(default_factory=list)
    next_offset: int = 0
    reached_end: bool = False


def read_ranges(
    client: ClusterClient,
    topic: str,
    ranges: Mapping[int, tuple[int, int]],
    max_per_partition: int,
    committed: bool = True,
    timeout: float | None = None,
) -> dict[int, PartitionRead]:
    """One read with a reader of its own (see `RangeReader.read`)."""
    with RangeReader(client, topic, committed) as reader:
        return reader.read(ranges, max_per_partition, timeout)


class RangeReader:
    """Reads records of one topic in [start, end) ranges of its partitions, read committed
    (aborted records and open transactions left out) or uncommitted, one consumer for as many
    reads as a scan needs (a consumer costs a connection per broker).

    A read that asks a partition from exactly where the previous read of it stopped goes on
    with the consumer's stream (what it fetched beyond that read's share is kept, in order,
    for the next): a scan's rounds do not fetch again what they fetched before. Any other
    start re-assigns that partition at its offset. Partitions a read does not ask stay
    assigned; past `KEPT_BYTES` kept in all (or at once, for a reader without prefetch), what
    comes for one is dropped, and a read that needs more than was kept assigns it again where
    its kept records end."""

    def __init__(
        self, client: ClusterClient, topic: str, committed: bool = True, prefetch: bool = True
    ):
        self.client, self.topic = client, topic
        isolation = "read_committed" if committed else "read_uncommitted"
        settings: dict[str, Any] = {
            "isolation.level": isolation,
            # A broker holds a fetch up to this long when some of its partitions are at their
            # end; a partition resumed or assigned meanwhile waits for the next fetch (the
            # default 500 ms made a scan's rounds wait about 1 s each).
            "fetch.wait.max.ms": 20,
            # And a partition whose queue was full (paused while kept) fetches again at
            # once when resumed, not after librdkafka's default back-off of 1 s.
            "fetch.queue.backoff.ms": 10,
        }
        if not prefetch:
            # A page needs tens of records a partition; librdkafka's defaults fetch 1 MiB a
            # partition and keep fetching until 100,000 messages are queued: at 10 partitions
            # of large batches a first page took ~1.2 s (median, bench/messages_first_page.py)
            # against ~0.45 s with these. A filtered scan keeps the defaults: it reads on.
            settings.update({"queued.min.messages": 500, "fetch.message.max.bytes": 262_144})
        else:
            # librdkafka's default keeps 100,000 messages a partition queued, all partitions in
            # one queue: a read of one partition then had to drain (and drop) the others'
            # first. A scan's rounds want a few thousand a partition at a time.
            settings.update(
                {
                    "queued.min.messages": 5000,
                    "queued.max.messages.kbytes": 8192,
                    "fetch.message.max.bytes": 262_144,
                }
            )
        self.consumer = _reader(client, **settings)
        # Per assigned partition: the offset its stream goes on from (after the last record
        # a read returned), the records consumed but not returned yet, and the end offset a
        # partition-EOF event reported while no read wanted the partition.
        self._resume: dict[int, int] = {}
        self._kept: dict[int, deque[RawRecord]] = {}
        self._eof: dict[int, int] = {}
        self._overflow: set[int] = set()  # partitions whose records past the cap were dropped
        # A page's reader (no prefetch) reads a few records a partition from batches of
        # thousands: building the rest only to keep them cost a first page ~0.8 s.
        self._keep = prefetch
        self._kept_bytes = 0

    def __enter__(self) -> RangeReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.consumer.close()

    def _assign(self, starts: Mapping[int, int]) -> None:
        """Go on with the partitions asked from where they stopped; (re)assign the others."""
        topic = self.topic
        stale = {p for p, start in starts.items() if self._resume.get(p, start) != start}
        if stale:
            self.consumer.incremental_unassign([TopicPartition(topic, p) for p in stale])
            for p in stale:
                self._resume.pop(p)
                self._kept_bytes -= sum(r.size for r in self._kept.pop(p, ()))
                self._eof.pop(p, None)
                self._overflow.discard(p)
        fresh = {p: start for p, start in starts.items() if p not in self._resume}
        if fresh:
            self.consumer.incremental_assign(
                [TopicPartition(topic, p, o) for p, o in fresh.items()]
            )
            for p, start in fresh.items():
                self._resume[p], self._kept[p] = start, deque()

    def give_back(self, partition: int, records: Sequence[RawRecord], resume_at: int) -> None:
        """Records the last read returned that the caller did not use (in offset order, the
        first at or after `resume_at`, nothing between): the next read from `resume_at`
        returns them first instead of fetching them again."""
        if partition not in self._resume or not records:
            return
        kept = self._kept[partition]
        kept.extendleft(reversed(records))
        self._kept_bytes += sum(r.size for r in records)
        self._resume[partition] = resume_at

    def read(
        self,
        ranges: Mapping[int, tuple[int, int]],
        max_per_partition: int,
        timeout: float | None = None,
    ) -> dict[int, PartitionRead]:
        """At most `max_per_partition` records of each range. A range ends where the read
        that asked for it saw the log end: records written since are not returned. Markers
        and compacted gaps take offsets but no record: a partition is done when the
        consumer's position reaches the end, whatever the last record's offset. A read that
        does not finish within `timeout` (the client's) raises `KafkaTimeout`."""
        topic, client, consumer = self.topic, self.client, self.consumer
        out = {p: PartitionRead(next_offset=start) for p, (start, _) in ranges.items()}
        pending = {p: end for p, (start, end) in ranges.items() if end > start}
        for p in ranges.keys() - pending.keys():
            out[p].reached_end = True
        if not pending or max_per_partition <= 0:
            return out
        deadline = time.monotonic() + (client.timeout if timeout is None else timeout)
        self._assign({p: ranges[p][0] for p in pending})

        def take(partition: int, record: RawRecord) -> None:
            """A record of a partition: returned while its read wants it, else kept."""
            end = pending.get(partition)
            if end is None or record.offset >= end:
                kept = self._kept[partition]
                if partition in self._overflow:
                    pass  # dropped: read again once the kept ones are taken
                elif self._kept_bytes >= KEPT_BYTES:
                    self._overflow.add(partition)
                else:
                    kept.append(record)
                    self._kept_bytes += record.size
                if end is not None:
                    _finish(out[partition], pending.pop(partition))
                return
            read = out[partition]
            read.records.append(record)
            read.next_offset = self._resume[partition] = record.offset + 1
            if record.offset + 1 >= end:
                _finish(read, pending.pop(partition))
            elif len(read.records) >= max_per_partition:
                del pending[partition]

        for p in list(pending):  # what earlier reads fetched beyond their share goes first
            kept = self._kept[p]
            while kept and p in pending and kept[0].offset < pending[p]:
                record = kept.popleft()
                self._kept_bytes -= record.size
                take(p, record)
            if p in pending and kept:
                _finish(out[p], pending.pop(p))  # the next kept record is past the end
            elif p in pending and p in self._eof and self._eof[p] <= self._resume[p]:
                _finish(out[p], pending.pop(p))  # the log ended there, as the broker said
        if again := self._overflow & pending.keys():  # their kept records all taken
            tps = [TopicPartition(topic, p) for p in again]
            consumer.incremental_unassign(tps)
            consumer.incremental_assign([TopicPartition(topic, p, self._resume[p]) for p in again])
            self._overflow -= again
            for p in again:
                self._eof.pop(p, None)

        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise KafkaTimeout(
                    f"Kafka did not return the records of {topic!r} in time "
                    f"(partitions {sorted(pending)} unfinished).",
                    code="kafka_timeout",
                )
            for message in consumer.consume(num_messages=_BATCH, timeout=min(_WAIT_S, left)):
                error, partition = message.error(), message.partition()
                if error is not None:
                    if error.code() != KafkaError._PARTITION_EOF:
                        raise client._translate(error, f"reading {topic!r}")
                    at = message.offset()
                    if partition in pending:
                        # At the log end as the broker sees it now (the last stable offset
                        # when read committed): never past it.
                        end = pending.pop(partition)
                        _finish(out[partition], end if at is None or at < 0 else min(end, at))
                    elif partition in self._resume and at is not None and at >= 0:
                        self._eof[partition] = at  # for the next read that goes on here
                    continue
                offset = message.offset()
                if partition not in self._resume or offset is None:
                    continue  # a partition no longer assigned
                if self._eof:
                    self._eof.pop(partition, None)
                if partition not in pending and (
                    not self._keep or partition in self._overflow or self._kept_bytes >= KEPT_BYTES
                ):
                    # Not kept (a page's reader, or the cap): dropped before it costs a
                    # record object; a read that wants the partition assigns it again.
                    self._overflow.add(partition)
                    continue
                take(partition, _raw(message, partition, offset))
            # Past markers, aborted batches or a compacted tail the position moves on
            # without a record: the range is done when it reaches the end.
            for tp in consumer.position([TopicPartition(topic, p) for p in pending]):
                if tp.offset >= 0 and tp.offset >= pending.get(tp.partition, tp.offset + 1):
                    _finish(out[tp.partition], pending.pop(tp.partition))
        return out


def _finish(read: PartitionRead, end: int) -> None:
    read.reached_end = True
    read.next_offset = max(read.next_offset, end)


def _raw(message: Any, partition: int, offset: int) -> RawRecord:
    kind, ts = message.timestamp()
    key, value = message.key(), message.value()
    size = (len(key) if key else 0) + (len(value) if value else 0)
    headers = message.headers()
    if headers:
        headers = [(str(k), v) for k, v in headers]
        size += sum(len(v) for _, v in headers if v)
    return RawRecord(
        partition,
        offset,
        ts if kind and ts >= 0 else None,
        TIMESTAMP_TYPES.get(kind),
        key,
        value,
        headers or [],
        size,
    )


class Tail:
    """Follows new records of some partitions of a topic from their end as it is when the
    tail opens (a live view: what was there before is the scan's business). The ends are
    asked first and assigned as offsets: librdkafka resolves OFFSET_END only when it first
    fetches, and records written in between would be missed."""

    def __init__(
        self, client: ClusterClient, topic: str, partitions: Iterable[int], committed: bool = True
    ):
        self.client, self.topic = client, topic
        tps = [(topic, p) for p in partitions]
        ends = {
            tp[1]: _offset(answer)
            for tp, answer in client.list_offsets(tps, "latest", committed=committed).items()
        }
        isolation = "read_committed" if committed else "read_uncommitted"
        self.consumer = _reader(
            client, **{"isolation.level": isolation, "enable.partition.eof": False}
        )
        self.consumer.assign([TopicPartition(topic, p, end) for p, end in ends.items()])

    def poll(self, max_records: int, timeout: float) -> list[RawRecord]:
        """What arrived, up to `max_records`, waiting at most `timeout` seconds for any."""
        out = []
        for message in self.consumer.consume(num_messages=max_records, timeout=timeout):
            error, partition, offset = message.error(), message.partition(), message.offset()
            if error is not None:
                raise self.client._translate(error, f"following {self.topic!r}")
            if partition is not None and offset is not None:
                out.append(_raw(message, partition, offset))
        return out

    def close(self) -> None:
        self.consumer.close()
