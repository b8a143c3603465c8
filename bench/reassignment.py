"""Benchmark: a throttled reassignment of 100 partitions holding 2 GB, one replica each moved
to another broker at 20 MB/s, against what the throttle promises.

    .venv/bin/python bench/reassignment.py [--partitions 100] [--gigabytes 2] [--mb-per-s 20]

Writes the topic on the dev stack (replication factor 1, incompressible records), executes
the move through the API exactly as the page does, runs the Celery worker's watcher thread
(`reassign/watcher.py`, which completes it and removes its throttles), and meanwhile reads
what Kafka reports once a second: each receiving broker's bytes (DescribeLogDirs), what is
still moving (ListPartitionReassignments) and whether its throttle configs are still set.

Figures (JSON): per receiving broker, the copy rate between 10 % and 90 % of what it had to
copy, against the throttle (Kafka's throttle is per broker: each new-replica broker fetches
at most the rate); the wall time of the copy; and the time from the moment no partition is
listed as moving any more (the last replica caught up and joined the ISR) to the moment the
throttles are gone from every broker and the topic.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from _harness import api_client, devstack_tool, load_average, produce_waiting, setup_django

MB = 1_000_000
RECORD = 256 * 1024
BROKER_KEYS = ("leader.replication.throttled.rate", "follower.replication.throttled.rate")
TOPIC_KEYS = ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--partitions", type=int, default=100)
    parser.add_argument("--gigabytes", type=float, default=2.0)
    parser.add_argument("--mb-per-s", type=float, default=20.0)
    parser.add_argument(
        "--via",
        choices=["api", "cli"],
        default="api",
        help="cli: the same move by kafka-reassign-partitions.sh --execute --throttle (then "
        "--verify), to tell the console's throttle from Kafka's own",
    )
    args = parser.parse_args()
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from console.kafka import dev
    from reassign import watcher

    cfg = get_cluster("local")
    admin = kafka.for_cluster(cfg, timeout=60)
    topic = f"bench-reassign-{int(time.time())}"
    dev.create_topics(admin, [(topic, args.partitions, 1, {})], timeout=60)
    total = int(args.gigabytes * 1000 * MB)
    per_partition = total // args.partitions // RECORD
    pool = os.urandom(8 * 1024 * 1024)  # incompressible; slices of it as values
    producer = dev.make_producer(
        admin, **{"compression.type": "none", "linger.ms": 20, "batch.size": 1048576}
    )
    started = time.perf_counter()
    for i in range(per_partition):
        for p in range(args.partitions):
            at = (i * 7919 + p * 104729) % (len(pool) - RECORD)
            produce_waiting(producer, topic, value=pool[at : at + RECORD], partition=p, wait=0.1)
    assert producer.flush(120) == 0
    write_s = time.perf_counter() - started

    before = {p.partition: p.replicas for p in admin.topic_metadata(topic)[0].partitions}
    plan = {
        "version": 1,
        "partitions": [
            {"topic": topic, "partition": p, "replicas": [r[0] % 3 + 1]}
            for p, r in sorted(before.items())
        ],
    }
    throttle = int(args.mb_per_s * MB)
    receiving = sorted({r[0] % 3 + 1 for r in before.values()})
    # What each receiving broker must copy: its partitions' leader sizes now.
    sizes = {
        rep.partition: rep.size_bytes
        for found in admin.describe_log_dirs().values()
        if isinstance(found, list)
        for d in found
        for rep in d.replicas
        if rep.topic == topic
    }
    share = dict.fromkeys(receiving, 0)
    for p, r in before.items():
        share[r[0] % 3 + 1] += sizes[p]
    stop = watcher.start_thread()  # as every Celery worker runs it
    client = api_client()
    rid = None
    if args.via == "api":
        response = client.post(
            "/api/v1/clusters/local/reassignments",
            {"plan": plan, "throttle_bytes_per_s": throttle, "reason": "benchmark"},
            format="json",
        )
        assert response.status_code == 201, response.content[:500]
        rid = response.json()["id"]
    else:
        plan_file = Path(tempfile.mkdtemp(prefix="bench-reassign-")) / "plan.json"
        plan_file.write_text(json.dumps(plan))
        move = ["--reassignment-json-file", str(plan_file)]
        devstack_tool("kafka-reassign-partitions", "--execute", *move, "--throttle", str(throttle))
    executed_at = time.monotonic()

    samples: dict[int, list[tuple[float, int]]] = {b: [] for b in receiving}
    moved_at = removed_at = None
    while True:
        now = time.monotonic()
        dirs = admin.describe_log_dirs(receiving)
        for b, found in dirs.items():
            if isinstance(found, list):
                held = sum(
                    rep.size_bytes
                    for d in found
                    for rep in d.replicas
                    if rep.topic == topic and before[rep.partition][0] % 3 + 1 == b
                )
                samples[b].append((now - executed_at, held))
        if moved_at is None and not any(t == topic for t, _ in admin.list_reassignments()):
            moved_at = time.monotonic()
        if moved_at is not None and args.via == "cli":
            devstack_tool("kafka-reassign-partitions", "--verify", *move)  # removes throttles
            break
        if moved_at is not None and not _throttled(admin, receiving, topic):
            removed_at = time.monotonic()
            break
        if now - executed_at > 1800:
            raise SystemExit("the reassignment did not end in 30 minutes")
        time.sleep(max(0.0, 1.0 - (time.monotonic() - now)))
    stop.set()
    url = f"/api/v1/clusters/local/reassignments/{rid}"
    state = client.get(url).json()["state"] if rid else "cli"

    rates = {}
    for b, points in samples.items():
        lo, lo_n = next((t, n) for t, n in points if n >= 0.1 * share[b])
        hi, hi_n = next((t, n) for t, n in points if n >= 0.9 * share[b])
        rate = (hi_n - lo_n) / (hi - lo) if hi > lo else None
        rates[b] = {
            "bytes_to_copy": share[b],
            "rate_mb_per_s": round(rate / MB, 2) if rate else None,
            "off_throttle_pct": round(100 * (rate - throttle) / throttle, 1) if rate else None,
        }
    print(
        json.dumps(
            {
                "partitions": args.partitions,
                "bytes": sum(share.values()),
                "write_s": round(write_s, 1),
                "throttle_mb_per_s": args.mb_per_s,
                "receiving_brokers": rates,
                "copy_wall_s": round((moved_at or 0) - executed_at, 1),
                "via": args.via,
                "last_in_sync_to_throttles_removed_s": (
                    round(removed_at - moved_at, 2) if removed_at and moved_at else None
                ),
                "state": state,
                "load_average": load_average(),
            },
            indent=2,
        )
    )
    admin.delete_topics([topic])


def _throttled(admin, brokers: list[int], topic: str) -> bool:
    """Whether a throttle config of the move is still set on a broker or on the topic."""
    for b in brokers + sorted({1, 2, 3} - set(brokers)):
        configs = admin.describe_broker_configs(b)
        if any(k in configs and configs[k].source == "DYNAMIC_BROKER_CONFIG" for k in BROKER_KEYS):
            return True
    configs = admin.describe_topic_configs([topic])[topic]
    return any(k in configs and configs[k].source == "DYNAMIC_TOPIC_CONFIG" for k in TOPIC_KEYS)


if __name__ == "__main__":
    main()
