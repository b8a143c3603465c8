"""Reading the newest records of a topic: the last N of each partition, once.

A throw-away consumer built from the cluster's own settings (`ClusterClient.config`, so TLS
and SASL apply) is assigned each partition from max(log start, log end - N) and reads up to
the log end as it was when the read began: records written meanwhile are left out. It never
commits (`enable.auto.commit` false, and `assign` joins no group). A read that does not
reach every end within the client's timeout raises `KafkaTimeout` rather than answer with
part of the records.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from confluent_kafka import Consumer, KafkaError, TopicPartition

from console.kafka.client import ClusterClient
from console.kafka.errors import KafkaAdapterError, KafkaTimeout
from console.kafka.types import OffsetResult

# (key, value, timestamp in epoch ms or None); each partition's records in offset order.
Record = tuple[bytes | None, bytes | None, int | None]

_BATCH = 1000
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
    deadline = time.monotonic() + (client.timeout if timeout is None else timeout)
    consumer = _reader(client)
    out: list[Record] = []
    pending = {p: last for p, (_, last) in ranges.items()}
    try:
        consumer.assign([TopicPartition(topic, p, first) for p, (first, _) in ranges.items()])
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise KafkaTimeout(
                    f"Kafka did not return the newest records of {topic!r} in time "
                    f"(partitions {sorted(pending)} unfinished).",
                    code="kafka_timeout",
                )
            for message in consumer.consume(num_messages=_BATCH, timeout=min(_WAIT_S, left)):
                error, partition = message.error(), message.partition()
                if error is not None:
                    if error.code() == KafkaError._PARTITION_EOF and partition is not None:
                        pending.pop(partition, None)  # at the end (past a compacted tail)
                        continue
                    # The client's own mapping: no answer -> KafkaTimeout, else KafkaCallFailed.
                    raise client._translate(error, f"reading {topic!r}")
                offset = message.offset()
                if partition is None or offset is None or partition not in pending:
                    continue
                end = pending[partition]
                if offset < end:
                    _, ts = message.timestamp()
                    out.append((message.key(), message.value(), ts if ts >= 0 else None))
                if offset + 1 >= end:
                    del pending[partition]
    finally:
        consumer.close()
    return out


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


def _reader(client: ClusterClient) -> Consumer:
    """A consumer for `assign` that never commits, with the cluster's own settings."""
    return Consumer(
        client.config(
            **{
                # librdkafka wants a group id even for `assign`; nothing is ever committed.
                "group.id": "kafka-console-peek",
                "enable.auto.commit": False,
                "enable.partition.eof": True,
                # The first offset was deleted by retention meanwhile: start at the new start.
                "auto.offset.reset": "earliest",
                "log_level": 2,
            }
        )
    )
