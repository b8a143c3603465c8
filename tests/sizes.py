"""Topics with known amounts of data, and their sizes as Apache Kafka's kafka-log-dirs.sh
reports them (shared by the broker page's and the topic list's parity tests)."""

from __future__ import annotations

import json

from console.kafka import dev
from tests.stack import cluster_client, kafka_tool, wait_for

RECORDS = (10, 200, 0)  # per partition: small, larger, empty

Sizes = dict[int, dict[tuple[str, int], tuple[int, int]]]


def write_sized_topic(topic: str, configs: dict[str, str] | None = None) -> str:
    """A 3-partition topic on every broker with RECORDS 512-byte records in its partitions."""
    client = cluster_client()
    dev.create_topics(client, [(topic, len(RECORDS), 3, configs or {})])
    producer = dev.make_producer(client, **{"acks": "all"})
    for partition, count in enumerate(RECORDS):
        for i in range(count):
            producer.produce(topic, value=b"v" * 512, key=str(i).encode(), partition=partition)
    assert producer.flush(30) == 0
    return topic


def cli_sizes(topic: str) -> Sizes:
    """kafka-log-dirs.sh --describe: per broker, (topic, partition) -> (size, offset lag)."""
    out = kafka_tool("kafka-log-dirs", "--describe", "--topic-list", topic).stdout
    report = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    sizes: Sizes = {}
    for broker in report["brokers"]:
        for log_dir in broker["logDirs"]:
            for p in log_dir["partitions"]:
                name, _, index = p["partition"].rpartition("-")
                sizes.setdefault(broker["broker"], {})[(name, int(index))] = (
                    p["size"],
                    p["offsetLag"],
                )
    return sizes


def settled_cli_sizes(topic: str) -> Sizes:
    """`cli_sizes` once every follower has caught up (offset lag 0 on every replica)."""

    def settled() -> Sizes | None:
        sizes = cli_sizes(topic)
        lagging = any(lag for broker in sizes.values() for _, lag in broker.values())
        return None if lagging or len(sizes) < 3 else sizes

    return wait_for(settled, timeout=60, what=f"every replica of {topic} in sync")
