"""The orders topic the Messages tab's browser tests read: 25 JSON orders over 2 partitions,
a second apart, ten minutes ago (well inside retention, in a known order)."""

from __future__ import annotations

import time
import uuid

import orjson

from console.kafka import dev
from tests.stack import cluster_client

PARTITIONS = 2
RECORDS = 25
BASE_MS = (int(time.time()) - 600) * 1000


def write_orders(prefix: str) -> str:
    """A fresh topic `<prefix>-<random>` of 2 partitions with 25 JSON orders: order i has
    amount 1000 * i, key order-i, partition i % 2, CreateTime BASE_MS + i s, and two trace-id
    headers."""
    client = cluster_client()
    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
    producer = dev.make_producer(client)
    for i in range(RECORDS):
        value = {"id": f"o-{i}", "amount": 1000 * i, "customer": {"id": f"c-{i % 3}"}}
        producer.produce(
            topic,
            key=f"order-{i}".encode(),
            value=orjson.dumps(value),
            partition=i % PARTITIONS,
            timestamp=BASE_MS + i * 1000,
            headers=[("trace-id", f"t-{i}".encode()), ("trace-id", b"again")],
        )
    assert producer.flush(30) == 0
    return topic


def message_rows(page):
    return page.locator("[data-testid^=message-row-]")
