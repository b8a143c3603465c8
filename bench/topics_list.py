"""Benchmark: the topic list API (health, sizes, message counts, readers) with 5,000 topics
x 4 partitions, against TopicCommand and LogDirsCommand.

    .venv/bin/python bench/topics_list.py [--topics 5000] [--keep]

Creates the topics on the dev stack (replication factor 1 so 20,000 partitions fit three
small brokers), times `GET /api/v1/clusters/local/topics` cold (metadata and size caches
cleared before each request) and warm (served from the shared snapshot and size cache), then
times Apache Kafka's own `kafka-topics.sh --describe` and `kafka-log-dirs.sh --describe` (what
an operator runs for the same placement and sizes) over the same cluster, and prints the
figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import time

from _harness import api_client, devstack_tool, percentiles, setup_django, timed

PREFIX = "bench-topic-"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--topics", type=int, default=5000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="leave the topics in place")
    args = parser.parse_args()
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from console.kafka import dev
    from console.metadata import cache
    from topics import sizes

    cfg = get_cluster("local")
    admin = kafka.for_cluster(cfg, timeout=120)  # bulk creates and deletes take longer
    names = [f"{PREFIX}{i:05d}" for i in range(args.topics)]
    existing = {t.name for t in admin.topic_metadata()}
    missing = [n for n in names if n not in existing]
    started = time.perf_counter()
    for i in range(0, len(missing), 250):
        batch = [(n, args.partitions, 1, {}) for n in missing[i : i + 250]]
        dev.create_topics(admin, batch, timeout=120)
    create_s = time.perf_counter() - started

    client = api_client()
    url = "/api/v1/clusters/local/topics"

    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        assert len(body) >= args.topics, (len(body), str(body)[:300])
        unsized = [r["name"] for r in body if r["size_bytes"] is None]
        assert not unsized, f"{len(unsized)} topics without a size, e.g. {unsized[:3]}"

    def cold() -> None:
        # Cold: a fresh snapshot and every topic's min.insync.replicas read again.
        cache.invalidate("local")
        sizes.cache.invalidate("local")
        get()

    # Brokers learn new topics from the controller asynchronously, each at its own pace, and a
    # snapshot may come from any of them: wait until several fresh snapshots list them all.
    deadline = time.monotonic() + 300
    complete = 0
    while complete < 5 and time.monotonic() < deadline:
        cache.invalidate("local")
        sizes.cache.invalidate("local")
        rows = client.get(url).json()
        whole = len(rows) >= args.topics and all(r["size_bytes"] is not None for r in rows)
        complete = complete + 1 if whole else 0
        time.sleep(0.5 if complete else 2)
    get()
    cold_samples = timed(cold, max(5, args.runs // 3))
    warm_samples = timed(get, args.runs)
    tool_samples = timed(lambda: devstack_tool("kafka-topics", "--describe"), 3)
    describe_lines = devstack_tool("kafka-topics", "--describe").stdout.count("Partition:")

    def both_tools() -> None:
        devstack_tool("kafka-topics", "--describe")
        devstack_tool("kafka-log-dirs", "--describe")

    tools_samples = timed(both_tools, 3)

    cold_p, warm_p, tool_p, tools_p = map(
        percentiles, (cold_samples, warm_samples, tool_samples, tools_samples)
    )
    report = {
        "topics": args.topics,
        "partitions_per_topic": args.partitions,
        "created_now": len(missing),
        "create_seconds": round(create_s, 1),
        "api_cold": cold_p,
        "api_warm": warm_p,
        "topic_command_describe": {**tool_p, "partition_lines": describe_lines},
        "ratio_topic_command_over_api_cold_p50": round(tool_p["p50_ms"] / cold_p["p50_ms"], 1),
        "ratio_topic_command_over_api_warm_p50": round(tool_p["p50_ms"] / warm_p["p50_ms"], 1),
        "topics_describe_plus_log_dirs_describe": tools_p,
        "ratio_both_tools_over_api_cold_p50": round(tools_p["p50_ms"] / cold_p["p50_ms"], 1),
    }
    print(json.dumps(report, indent=2))
    if not args.keep:
        for i in range(0, len(names), 250):
            admin.delete_topics(names[i : i + 250])


if __name__ == "__main__":
    main()
