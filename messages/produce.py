"""Producing one record from the console (operator; audited without its content).

The parts are encoded (messages/encoding.py), the partition is the one asked for or, for a
keyed record, the one Kafka's Java producer would pick (messages/partitioner.py), and the
record is written with acks=all. Kafka's internal topics and the topics the console writes
itself are refused: a record there breaks whoever trusts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.metadata import cache
from console.owned_topics import KAFKA_INTERNAL_TOPICS, owned_topics
from messages.encoding import SchemaLookup, encode
from messages.partitioner import partition_for
from messages.registry import schema_lookup

MAX_HEADERS = 100


@dataclass(frozen=True)
class Produced:
    partition: int
    offset: int
    timestamp_ms: int | None
    key_bytes: int
    value_bytes: int | None  # None: a tombstone
    headers: int

    def answer(self) -> dict[str, Any]:
        stamp = (
            None
            if self.timestamp_ms is None
            else datetime.fromtimestamp(self.timestamp_ms / 1000, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z")
        )
        return {"partition": self.partition, "offset": self.offset, "timestamp": stamp}

    def audit(self) -> dict[str, Any]:
        """What the audit log keeps: where it went and how big, never the content."""
        return {
            "partition": self.partition,
            "offset": self.offset,
            "key_bytes": self.key_bytes,
            "value_bytes": self.value_bytes,
            "headers": self.headers,
        }


def produce(cfg: ClusterConfig, topic: str, body: dict[str, Any]) -> Produced:
    schemas = schema_lookup(cfg)
    key = encode(body.get("key"), "key", schemas, f"{topic}-key")
    value = encode(body.get("value"), "value", schemas, f"{topic}-value")
    headers = _headers(body.get("headers", []), schemas)
    if topic in KAFKA_INTERNAL_TOPICS or topic in owned_topics():
        raise BadInput(
            "topic",
            f"topic: {topic!r} is written by Kafka or by the console itself; records are "
            "never produced into it from here.",
        )
    meta = cache.snapshot(cfg).topic(topic)
    if meta is None:
        raise NotFound(f"Topic {topic!r} does not exist.", code="topic_not_found")
    if meta.internal:
        raise BadInput("topic", f"topic: {topic!r} is one of Kafka's internal topics.")
    count = len(meta.partitions)
    partition = body.get("partition")
    if partition is not None and not 0 <= partition < count:
        raise BadInput("partition", f"partition: topic {topic!r} has partitions 0 to {count - 1}.")
    if partition is None and key is not None and count:
        partition = partition_for(key, count)
    written = kafka.for_cluster(cfg).produce(topic, partition, key, value, headers)
    return Produced(
        written[0],
        written[1],
        written[2],
        len(key or b""),
        None if value is None else len(value),
        len(headers),
    )


def _headers(items: Any, schemas: SchemaLookup | None) -> list[tuple[str, bytes | None]]:
    if not isinstance(items, list):
        raise BadInput("headers", 'headers: give a list of {"key", "value"}.')
    if len(items) > MAX_HEADERS:
        raise BadInput("headers", f"headers: at most {MAX_HEADERS}.")
    out = []
    for i, item in enumerate(items):
        field = f"headers[{i}]"
        if not isinstance(item, dict) or set(item) != {"key", "value"}:
            raise BadInput(field, f'{field}: give {{"key": ..., "value": ...}}.')
        if not isinstance(item["key"], str) or not item["key"]:
            raise BadInput(f"{field}.key", f"{field}.key: a non-empty string.")
        out.append((item["key"], encode(item["value"], f"{field}.value", schemas)))
    return out
