"""Benchmark: listing 200 groups with lag over 2,000 partitions, against ConsumerGroupCommand.

    .venv/bin/python bench/groups_lag.py [--groups 200] [--topics 20] [--partitions 100]

Creates the topics (replication factor 1), writes a few records per partition, commits
offsets for every group on all partitions of one topic (10 groups per topic by default), then
times `GET /api/v1/clusters/local/groups` (list with lag for all groups, batched calls) and
Apache Kafka's `kafka-consumer-groups.sh --describe --all-groups` on the same cluster.

The list is timed twice: read from Kafka (`?fresh=true`, what every request did before the
list was answered from the lag sampler's pass) and from the sampler's latest pass (one pass
run here, its lease held by this script, as a sampler process holds it).
"""

from __future__ import annotations

import argparse
import json
import time

from _harness import (
    add_layout_args,
    api_client,
    commit_group_offsets,
    delete_groups,
    devstack_tool,
    percentiles,
    setup_django,
    timed,
)

PREFIX = "bench-lag-"


def main() -> None:
    parser = argparse.ArgumentParser()
    add_layout_args(parser, topics=20, partitions=100, groups=200)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from console.kafka import dev

    admin = kafka.for_cluster(get_cluster("local"), timeout=120)  # bulk setup takes longer
    topics = [f"{PREFIX}t{i:03d}" for i in range(args.topics)]
    groups = [f"{PREFIX}g{i:04d}" for i in range(args.groups)]
    started = time.perf_counter()
    dev.create_topics(admin, [(t, args.partitions, 1, {}) for t in topics], timeout=120)
    producer = dev.make_producer(admin, **{"linger.ms": 50})
    for topic in topics:
        for partition in range(args.partitions):
            for i in range(3):
                producer.produce(topic, value=str(i), partition=partition)
    producer.flush(120)
    commit_group_offsets(admin, groups, topics, args.partitions)
    setup_s = time.perf_counter() - started

    client = api_client()

    def list_groups(query: str = "") -> None:
        response = client.get(f"/api/v1/clusters/local/groups{query}")
        assert response.status_code == 200, response.content[:300]
        mine = [g for g in response.json() if g["group_id"].startswith(PREFIX)]
        assert len(mine) == args.groups and all(g["total_lag"] is not None for g in mine)

    from console.clusters import get_cluster as cluster_of
    from groups.lag import store
    from groups.lag.sampler import ClusterSampler

    # Live reads first (no sampler holds the cluster, or `fresh`), then from a pass.
    list_groups("?fresh=true")
    api = percentiles(timed(lambda: list_groups("?fresh=true"), args.runs))
    owner = "bench-groups-lag"
    assert store.hold_lease("local", owner, 600), "a lag sampler holds cluster local: stop it"
    try:
        sampler = ClusterSampler(cluster_of("local"), interval_s=300.0)
        pass_started = time.perf_counter()
        assert sampler.run_pass().ok
        pass_s = time.perf_counter() - pass_started
        list_groups()
        from_pass = percentiles(timed(list_groups, args.runs))
    finally:
        store.release_lease("local", owner)
    tool_samples = timed(
        lambda: devstack_tool("kafka-consumer-groups", "--describe", "--all-groups"), 3
    )
    tool = percentiles(tool_samples)
    rows = sum(
        1
        for line in devstack_tool(
            "kafka-consumer-groups", "--describe", "--all-groups"
        ).stdout.splitlines()
        if line.startswith(PREFIX)
    )
    print(
        json.dumps(
            {
                "groups": args.groups,
                "partitions": args.topics * args.partitions,
                "committed_partitions": args.groups * args.partitions,
                "setup_seconds": round(setup_s, 1),
                "api_list_groups_with_lag": api,
                "api_list_groups_from_the_sampler_pass": from_pass,
                "sampler_pass_seconds": round(pass_s, 2),
                "consumer_group_command_describe_all_groups": {**tool, "rows": rows},
                "ratio_cli_over_api_p50": round(tool["p50_ms"] / api["p50_ms"], 1),
                "ratio_live_over_pass_p50": round(api["p50_ms"] / from_pass["p50_ms"], 1),
            },
            indent=2,
        )
    )
    if not args.keep:
        delete_groups(admin, groups)
        admin.delete_topics(topics)


if __name__ == "__main__":
    main()
