"""Dev and test helpers over the same cluster client: not used by the product.

The dev stack, the demo traffic, tests and benchmarks need things the console never does
(create topics if missing, produce and consume, delete records, probe readiness). They live
here so that confluent-kafka is still imported only under `console.kafka`, but apart from
`ClusterClient`, the product's adapter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    NewTopic,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
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


def assign_from(consumer: Consumer, topic: str, first: Mapping[int, int]) -> list[TopicPartition]:
    """Assign `consumer` each partition of `topic` at its first offset; the assignment."""
    assigned = [TopicPartition(topic, p, offset) for p, offset in first.items()]
    consumer.assign(assigned)
    return assigned


def upsert_scram_user(
    client: ClusterClient, user: str, mechanism: str, password: str, iterations: int = 4096
) -> None:
    """Create or replace a SCRAM credential (AlterUserScramCredentials)."""
    kind = {"SCRAM-SHA-256": ScramMechanism.SCRAM_SHA_256}.get(
        mechanism, ScramMechanism.SCRAM_SHA_512
    )
    upsert = UserScramCredentialUpsertion(
        user, ScramCredentialInfo(kind, iterations), password.encode()
    )
    for future in client.admin().alter_user_scram_credentials([upsert]).values():
        try:
            future.result(timeout=client.timeout + 5)
        except KafkaException as exc:
            raise client._translate(exc, f"store the SCRAM credential of {user}") from exc
