"""Shared by the reassignment integration tests: a topic with data to move, its replicas as
kafka-topics.sh describes them, the throttle configs kafka-configs.sh shows, and a plan."""

from __future__ import annotations

import os
import re
import uuid

from console.kafka import dev
from tests.stack import cluster_client, kafka_tool

URL = "/api/v1/clusters/local/reassignments"
RECORD = 1024
# Per partition: 3 MiB. A new replica's first fetch takes up to replica.fetch.max.bytes (1 MiB)
# before the throttle's window has measured anything; the rest crawls at a few KiB/s.
RECORDS = 3000


def load_topic() -> str:
    """A new topic: two partitions, one replica each, 3 MiB in each (incompressible)."""
    client = cluster_client()
    topic = f"move-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 2, 1, {})])
    producer = dev.make_producer(client, **{"acks": "all", "compression.type": "none"})
    for partition in (0, 1):
        for _ in range(RECORDS):
            producer.produce(topic, value=os.urandom(RECORD), partition=partition)
    assert producer.flush(30) == 0
    return topic


def replicas(topic: str) -> dict[int, list[int]]:
    out = kafka_tool("kafka-topics", "--describe", "--topic", topic).stdout
    return {
        int(p): [int(b) for b in r.split(",")]
        for p, r in re.findall(r"Partition: (\d+)\s+Leader: \S+\s+Replicas: ([\d,]+)", out)
    }


def plan_elsewhere(topic: str) -> dict:
    """Each partition's single replica moved to the next broker."""
    return {
        "version": 1,
        "partitions": [
            {"topic": topic, "partition": p, "replicas": [r[0] % 3 + 1]}
            for p, r in sorted(replicas(topic).items())
        ],
    }


def configs(entity_type: str, name: str) -> dict[str, str]:
    out = kafka_tool(
        "kafka-configs", "--describe", "--entity-type", entity_type, "--entity-name", name
    ).stdout
    return dict(re.findall(r"^\s+(\S+?)=(\S*) sensitive=", out, re.M))


THROTTLE_KEYS = {
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "leader.replication.throttled.replicas",
    "follower.replication.throttled.replicas",
}


def throttles(entity_type: str, name: str) -> dict[str, str]:
    return {k: v for k, v in configs(entity_type, name).items() if k in THROTTLE_KEYS}


def execute(client, plan: dict, throttle: int | None):
    return client.post(
        URL, {"plan": plan, "throttle_bytes_per_s": throttle, "reason": "test"}, format="json"
    )
