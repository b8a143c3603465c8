"""Benchmark: the first page of a topic's records at a timestamp, 10 partitions, 5,000,000 records.

    .venv/bin/python bench/messages_first_page.py [--records 5000000] [--runs 30] [--keep]

Fills `bench-messages` (10 partitions, replication factor 1, about 100-byte JSON values, one
record a millisecond of CreateTime across 5,000 s of the past), then times
`GET /api/v1/clusters/local/topics/bench-messages/messages?position=timestamp&timestamp=T`
(limit 50, every partition) at 30 random times T, and the same with `direction=backward`,
and prints p50 / p95 of each as JSON. Target (issue 22): p95 at most 300 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import UTC, datetime

from _harness import api_client, load_average, percentiles, produce_waiting, setup_django

TOPIC = "bench-messages"
PARTITIONS = 10


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=5_000_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="leave the topic in place")
    args = parser.parse_args()
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from console.kafka import dev

    admin = kafka.for_cluster(get_cluster("local"), timeout=120)
    # The records' CreateTime: one a millisecond, ending a minute ago (retention keeps them).
    first_ms = int(time.time() * 1000) - 60_000 - args.records
    fill_s = None
    existing = {t.name: t for t in admin.topic_metadata()}
    ends = (
        admin.list_offsets([(TOPIC, p) for p in range(PARTITIONS)], "latest")
        if TOPIC in existing
        else {}
    )
    have = sum(getattr(o, "offset", 0) for o in ends.values())
    if have < args.records:
        if TOPIC in existing:
            admin.delete_topics([TOPIC])
            time.sleep(3)
        dev.create_topics(admin, [(TOPIC, PARTITIONS, 1, {})], timeout=120)
        producer = dev.make_producer(
            admin, **{"linger.ms": 50, "batch.size": 1_000_000, "compression.type": "lz4"}
        )
        started = time.perf_counter()
        pad = "x" * 40
        for i in range(args.records):
            value = (
                f'{{"i":{i},"customer":{{"id":"c-{i % 997}"}},"amount":{i % 10007},"p":"{pad}"}}'
            )
            produce_waiting(
                producer,
                TOPIC,
                value=value.encode(),
                partition=i % PARTITIONS,
                timestamp=first_ms + i,
            )
            if i % 100_000 == 0:
                producer.poll(0)
        assert producer.flush(300) == 0
        fill_s = round(time.perf_counter() - started, 1)
    else:
        first_ms = _first_timestamp(admin)  # reused (--keep): its records' first time

    client = api_client()
    rng = random.Random(7)
    span = args.records  # ms of CreateTime covered
    url = f"/api/v1/clusters/local/topics/{TOPIC}/messages"
    results = {}
    for direction in ("forward", "backward"):
        samples = []
        for _ in range(args.runs):
            at = first_ms + rng.randrange(span)
            stamp = datetime.fromtimestamp(at / 1000, UTC).isoformat(timespec="milliseconds")
            query = f"position=timestamp&timestamp={stamp.replace('+00:00', 'Z')}"
            started = time.perf_counter()
            response = client.get(f"{url}?{query}&direction={direction}&limit=50")
            samples.append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:300]
            assert len(response.json()["records"]) == 50
        results[direction] = percentiles(samples)
    print(
        json.dumps(
            {
                "records": args.records,
                "partitions": PARTITIONS,
                "fill_s": fill_s,
                "first_page_at_timestamp": results,
                "load_average": load_average(),
            },
            indent=2,
        )
    )
    if not args.keep:
        admin.delete_topics([TOPIC])


def _first_timestamp(admin) -> int:
    from console.kafka.records import read_ranges

    start = admin.list_offsets([(TOPIC, 0)], "earliest")[(TOPIC, 0)].offset
    read = read_ranges(admin, TOPIC, {0: (start, start + 1)}, 1)[0]
    return read.records[0].timestamp_ms


if __name__ == "__main__":
    main()
