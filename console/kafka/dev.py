"""Dev and test helpers over the same cluster client: not used by the product.

The dev stack, the demo traffic, tests and benchmarks need things the console never does
(create topics if missing, produce and consume, delete records, probe readiness). They live
here so that confluent-kafka is still imported only under `console.kafka`, but apart from
`ClusterClient`, the product's adapter.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    NewTopic,
)

from console.clusters import ClusterConfig
from console.kafka.client import ClusterClient, for_cluster
from console.kafka.errors import KafkaAdapterError
from console.kafka.types import TP, ClusterDescription

__all__ = [
    "Consumer",
    "Producer",
    "create_topics",
    "delete_records",
    "make_consumer",
    "make_producer",
    "plaintext",
    "probe",
    "read_topic",
    "upsert_scram_user",
]


def plaintext(bootstrap_servers: str, name: str = "dev") -> ClusterClient:
    """A client for a PLAINTEXT cluster given by its bootstrap servers (the dev stack)."""
    return for_cluster(ClusterConfig(name, bootstrap_servers))


def probe(bootstrap_servers: str, timeout: float = 3.0) -> ClusterDescription | None:
    """The cluster's description, or None when it does not answer (readiness polls)."""
    client = ClusterClient(ClusterConfig("probe", bootstrap_servers), timeout)
    try:
        return client.describe_cluster()
    except KafkaAdapterError:
        return None
    finally:
        client.close()


def create_topics(
    client: ClusterClient,
    topics: Iterable[tuple[str, int, int, Mapping[str, str]]],
    timeout: float = 30.0,
) -> None:
    """Create (name, partitions, replication_factor, configs) topics unless they exist."""
    new = [
        NewTopic(name, num_partitions=p, replication_factor=rf, config=dict(cfg))
        for name, p, rf, cfg in topics
    ]
    if not new:
        return
    futures = client.admin().create_topics(new, operation_timeout=timeout, request_timeout=timeout)
    for name, fut in futures.items():
        try:
            fut.result(timeout=timeout + 5)
        except KafkaException as exc:
            if exc.args[0].code() == KafkaError.TOPIC_ALREADY_EXISTS:
                continue
            raise client._translate(exc, f"create topic {name}") from exc


def delete_records(client: ClusterClient, before: Mapping[TP, int], timeout: float = 30.0) -> None:
    """Move the log start offset of partitions forward (DeleteRecords)."""
    tps = [TopicPartition(t, p, offset) for (t, p), offset in before.items()]
    futures = client.admin().delete_records(tps, request_timeout=timeout, operation_timeout=timeout)
    for tp, future in futures.items():
        try:
            future.result(timeout=timeout + 5)
        except KafkaException as exc:
            raise client._translate(exc, f"delete records of {tp.topic}/{tp.partition}") from exc


def make_producer(client: ClusterClient, **settings: Any) -> Producer:
    return Producer(client.config(**settings))


def make_consumer(client: ClusterClient, group_id: str, **settings: Any) -> Consumer:
    return Consumer(client.config(**{**settings, "group.id": group_id}))


def commit_if_possible(consumer: Consumer) -> bool:
    """Commit the consumer's positions synchronously; False when the group refused it for now.

    A rebalance, a coordinator that moved or is still loading its offsets partition all refuse
    a commit for a moment; a test's consumer that died on one would leave its group Empty.
    The next commit carries the same positions, so nothing is lost by going on."""
    try:
        consumer.commit(asynchronous=False)
    except KafkaException:
        return False
    return True


def assign_from(consumer: Consumer, topic: str, first: Mapping[int, int]) -> list[TopicPartition]:
    """Assign `consumer` each partition of `topic` at its first offset; the assignment."""
    assigned = [TopicPartition(topic, p, offset) for p, offset in first.items()]
    consumer.assign(assigned)
    return assigned


def upsert_scram_user(
    client: ClusterClient, user: str, mechanism: str, password: str, iterations: int = 4096
) -> None:
    """Create or replace a SCRAM credential (AlterUserScramCredentials)."""
    client.upsert_scram_credential(user, mechanism, password, iterations)


@dataclass(frozen=True)
class ReadRecord:
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    timestamp_ms: int | None


def read_topic(client: ClusterClient, topic: str, timeout: float = 60.0) -> list[ReadRecord]:
    """Every record of every partition of `topic`, from the log start to the log end as it
    was when the read began (records written meanwhile are left out); each partition's in
    offset order. A topic that does not exist reads as no record; a read that does not reach
    every end within `timeout` raises TimeoutError rather than return part of the topic."""
    metas = client.topic_metadata(topic)
    if not metas:
        return []
    tps = [(topic, p.partition) for p in metas[0].partitions]
    starts, ends = client.list_offsets(tps, "earliest"), client.list_offsets(tps, "latest")
    pending: dict[int, int] = {}
    first: dict[int, int] = {}
    for tp in tps:
        start, end = starts[tp], ends[tp]
        if isinstance(start, KafkaAdapterError):
            raise start
        if isinstance(end, KafkaAdapterError):
            raise end
        if end.offset > start.offset:
            first[tp[1]], pending[tp[1]] = start.offset, end.offset
    if not pending:
        return []
    consumer = Consumer(
        client.config(
            **{
                # assign() joins no group and nothing is committed; librdkafka wants an id.
                "group.id": "kafka-console-dev-read",
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
    )
    out: list[ReadRecord] = []
    deadline = time.monotonic() + timeout
    try:
        consumer.assign([TopicPartition(topic, p, o) for p, o in first.items()])
        while pending:
            if time.monotonic() > deadline:
                raise TimeoutError(f"could not read {topic!r} to its end: {pending}")
            for msg in consumer.consume(num_messages=5000, timeout=0.5):
                partition, offset = msg.partition(), msg.offset()
                if msg.error() is not None or partition is None or offset is None:
                    continue
                stop = pending.get(partition)
                if stop is None:
                    continue
                if offset < stop:
                    kind, ts = msg.timestamp()
                    out.append(
                        ReadRecord(partition, offset, msg.key(), msg.value(), ts if kind else None)
                    )
                if offset + 1 >= stop:
                    del pending[partition]
    finally:
        consumer.close()
    return out


def registry_serializer(
    cfg: ClusterConfig,
    kind: str,
    schema_text: str | None = None,
    is_key: bool = False,
    references: list[tuple[str, str, int]] | None = None,
) -> Any:
    """Confluent's own serializer (`avro`, `json`) against the cluster's registry, registering
    the schema under `<topic>-key|value` (with the (name, subject, version) of the schemas it
    imports, registered before): `serialize(obj, topic) -> bytes`, as an application using
    confluent-kafka writes records."""
    from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    assert cfg.schema_registry is not None, f"{cfg.name} has no Schema Registry"
    registry = SchemaRegistryClient({"url": cfg.schema_registry.url})
    if kind == "avro":
        schema: Any = schema_text
        if references:
            refs = [SchemaReference(*ref) for ref in references]
            schema = Schema(schema_text, "AVRO", references=refs)
        serializer: Any = AvroSerializer(registry, schema)
    elif kind == "json":
        serializer = JSONSerializer(schema_text, registry)
    else:
        raise ValueError(kind)
    field = MessageField.KEY if is_key else MessageField.VALUE
    return lambda obj, topic: serializer(obj, SerializationContext(topic, field))


def registry_deserializer(cfg: ClusterConfig, kind: str) -> Any:
    """Confluent's own deserializer (`avro`, `json`): `deserialize(raw, topic) -> object`."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    assert cfg.schema_registry is not None, f"{cfg.name} has no Schema Registry"
    registry = SchemaRegistryClient({"url": cfg.schema_registry.url})
    if kind == "avro":
        deserializer: Any = AvroDeserializer(registry)
    elif kind == "json":
        deserializer = JSONDeserializer(None, schema_registry_client=registry)
    else:
        raise ValueError(kind)
    return lambda raw, topic: deserializer(raw, SerializationContext(topic, MessageField.VALUE))
