"""Benchmark: one lag-sampling pass over many groups, against ConsumerGroupCommand.

    .venv/bin/python bench/lag_sampler.py [--topics 4000] [--partitions 10] [--groups 2000]
    .venv/bin/python bench/lag_sampler.py --topics 10000 --partitions 2 --groups 20000

Creates the topics (replication factor 1), writes a few records per partition, commits
offsets for every group on all partitions of one topic (lagging, so lag seconds are read),
then times sampling passes of `groups.lag.sampler.ClusterSampler` exactly as `manage.py
lagsampler` runs them (Kafka reads, evaluation, Redis writes, Channels publish): the first
pass (every record timestamp read) and the following ones (timestamps cached). It reports
the sampler's RSS, the Redis memory an hour of samples takes (the hour series filled to its
bound), and Apache Kafka's `kafka-consumer-groups.sh --describe --all-groups` on the same
cluster for comparison.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time

from _harness import (
    add_layout_args,
    commit_group_offsets,
    delete_groups,
    devstack_tool,
    load_average,
    make_topics_with_records,
    percentiles,
    setup_django,
)

PREFIX = "bench-sampler-"
API_NAMES = {2: "ListOffsets", 3: "Metadata", 9: "OffsetFetch", 10: "FindCoordinator",
             16: "ListGroups", 15: "DescribeGroups", 32: "DescribeConfigs", 55: "DescribeQuorum",
             60: "DescribeCluster", 17: "SaslHandshake", 36: "SaslAuthenticate"}  # fmt: skip


def redis_used_bytes() -> int:
    from groups.lag import store as lag_store

    return int(lag_store._client().info("memory")["used_memory"])


def main() -> None:
    parser = argparse.ArgumentParser()
    add_layout_args(parser, topics=4000, partitions=10, groups=2000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--skip-tool", action="store_true")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    setup_django()
    from console import kafka
    from console.clusters import get_cluster
    from groups.lag import store as lag_store
    from groups.lag.sampler import ClusterSampler

    cfg = get_cluster("local")
    admin = kafka.for_cluster(cfg, timeout=120)  # bulk setup takes longer
    topics = [f"{PREFIX}t{i:05d}" for i in range(args.topics)]
    groups = [f"{PREFIX}g{i:05d}" for i in range(args.groups)]
    started = time.perf_counter()
    make_topics_with_records(admin, topics, args.partitions)
    commit_group_offsets(admin, groups, topics, args.partitions)
    setup_s = time.perf_counter() - started

    interval = 5.0
    sampler = ClusterSampler(cfg, interval_s=interval)
    samples, results, requests = [], [], []
    pool = kafka.for_cluster(cfg).wire.pool
    for _ in range(args.passes):
        pool.requests.clear()
        t0 = time.perf_counter()
        result = sampler.run_pass()
        samples.append(time.perf_counter() - t0)
        results.append(result)
        requests.append({API_NAMES.get(k, str(k)): n for k, n in sorted(pool.requests.items())})
        assert result.ok, result.error
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # the sampler's own
    latest = lag_store.read_latest("local")  # the last pass's evaluations, as stored
    mine = [g for g in latest if g.startswith(PREFIX)]
    assert len(mine) == args.groups, len(mine)

    # An hour of samples: fill every group's hour series to its bound (720 points at 5 s).
    before = redis_used_bytes()
    points = {g: [time.time(), {t: [1, 1.0, 1.0, 1.0, "OK"] for t in e["topics"]}]
              for g, e in latest.items()}  # fmt: skip
    for _ in range(lag_store.h1_length(interval)):
        lag_store.append_history("local", points, minute_points=False, interval_s=interval)
    hour_bytes = redis_used_bytes() - before
    committed_partitions = sum(len(e["partitions"]) for e in latest.values())

    steady = [t for t, r in zip(samples, results, strict=True) if r.timestamp_reads == 0]
    # Passes once every window is full (the sampler's state after `window` passes, about a
    # minute): still partitions reuse their evaluation (groups.lag.steady).
    full = [
        (t, r)
        for i, (t, r) in enumerate(zip(samples, results, strict=True))
        if i >= sampler.window and r.timestamp_reads == 0
    ]
    report = {
        "topics": args.topics,
        "partitions": args.topics * args.partitions,
        "groups": len(latest),
        "committed_partitions": committed_partitions,
        "setup_seconds": round(setup_s, 1),
        "first_pass_s": round(samples[0], 2),
        "first_pass_timestamp_reads": results[0].timestamp_reads,
        "next_passes": percentiles(samples[1:]) if len(samples) > 1 else None,
        # Passes that read no record timestamp (all cached): the sampler's steady state.
        "steady_passes": percentiles(steady) if steady else None,
        "full_window_passes": percentiles([t for t, _ in full]) if full else None,
        "full_window_phases_p50_s": {
            name: round(statistics.median(r.phases.get(name, 0.0) for _, r in full), 3)
            for name in full[-1][1].phases
        }
        if full
        else None,
        # Where a pass's time goes (groups.lag.sampler.PassResult.phases), after the first pass.
        "next_passes_phases_p50_s": {
            name: round(statistics.median(r.phases.get(name, 0.0) for r in results[1:]), 3)
            for name in results[-1].phases
        }
        if len(results) > 1
        else None,
        "load_average_1_5_15": load_average(),
        # Requests through our wire client; besides these, librdkafka sends one ListGroups
        # per broker and the record-timestamp reads fetch through a librdkafka consumer.
        "wire_requests_first_pass": requests[0],
        "wire_requests_last_pass": requests[-1],
        "sampler_rss_mb": round(rss_mb, 1),
        "redis_hour_series_mb": round(hour_bytes / 2**20, 1),
        "redis_mb_per_1000_committed_partitions": round(
            hour_bytes / 2**20 / max(1, committed_partitions) * 1000, 2
        ),
    }
    if not args.skip_tool:
        t0 = time.perf_counter()
        devstack_tool("kafka-consumer-groups", "--describe", "--all-groups")
        tool_s = time.perf_counter() - t0
        report["consumer_group_command_describe_all_groups_s"] = round(tool_s, 2)
        warm = report["next_passes"]["p50_ms"] / 1000 if report["next_passes"] else samples[0]
        report["ratio_tool_over_pass_p50"] = round(tool_s / warm, 1)
        if steady:
            report["ratio_tool_over_steady_pass_p50"] = round(tool_s / statistics.median(steady), 1)
        if full:
            report["ratio_tool_over_full_window_pass_p50"] = round(
                tool_s / statistics.median(t for t, _ in full), 1
            )
    print(json.dumps(report, indent=2))
    if not args.keep:
        delete_groups(admin, groups)
        for i in range(0, len(topics), 500):
            admin.delete_topics(topics[i : i + 500])


if __name__ == "__main__":
    main()
