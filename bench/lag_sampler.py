"""Benchmark: one lag-sampling pass over many groups, against ConsumerGroupCommand.

    .venv/bin/python bench/lag_sampler.py [--topics 4000] [--partitions 10] [--groups 2000]
    .venv/bin/python bench/lag_sampler.py --topics 10000 --partitions 2 --groups 20000

Creates the topics (replication factor 1), writes a few records per partition, commits
offsets for every group on all partitions of one topic (lagging, so lag seconds are read),
then times sampling passes of `groups.lag.sampler.ClusterSampler` exactly as `manage.py
lagsampler` runs them (Kafka reads, evaluation, Redis writes, Channels publish, one pass
every `--interval` seconds): the first pass (every record timestamp read) and the following
ones (timestamps cached). It reports the sampler's RSS and CPU, the Redis memory an hour of
samples takes (the hour series filled to its bound), the Kafka floor of a pass (below), and
Apache Kafka's `kafka-consumer-groups.sh --describe --all-groups` on the same cluster for
comparison.

The Kafka floor: the requests of the last plain full-window pass (ListGroups, OffsetFetch,
DescribeGroups, ListOffsets, as bytes) sent again `--floor-rounds` times, each step's
requests at once as the pass sends them, with no request built and no answer read: what the
brokers and the network take, which no change to the sampler's own code can go under.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

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


# The steps of a pass's read, in order; the requests of one step go out at once.
FLOOR_STEPS = (16, 9, 15, 2)  # ListGroups, OffsetFetch, DescribeGroups, ListOffsets


class WireRecorder:
    """The requests a pass sends through the wire client's pool, as bytes (a benchmark's
    wrapper around `ConnectionPool.exchange`; the sampler's code is unchanged)."""

    def __init__(self, pool: Any):
        self.pool, self._exchange = pool, pool.exchange
        self._sent: list[tuple[int, tuple[str, int], bytes]] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        from console.kafka.protocol import header_key_version

        self._sent = []

        def exchange(address: tuple[str, int], build: Any, timeout: float) -> bytes:
            data = build(0)  # the correlation id is not checked: the answer comes in turn
            key, _version = header_key_version(data)
            with self._lock:
                self._sent.append((key, address, data))
            return self._exchange(address, lambda _cid: data, timeout)

        self.pool.exchange = exchange

    def stop(self) -> None:
        self.pool.exchange = self._exchange

    def plain(self) -> bool:
        """Whether the pass sent one ListOffsets per leader: no log starts read besides."""
        offsets = [address for key, address, _ in self._sent if key == 2]
        return bool(offsets) and len(offsets) == len(set(offsets))

    def taken(self) -> list[tuple[int, tuple[str, int], bytes]]:
        return [sent for sent in self._sent if sent[0] in FLOOR_STEPS]


def replay_floor(
    pool: Any, sent: list[tuple[int, tuple[str, int], bytes]], rounds: int, interval: float
) -> dict[str, Any]:
    """`sent` sent again `rounds` times, step by step (FLOOR_STEPS), a step's requests at
    once; the answers are received, not read. Rounds are an interval apart, as passes are."""

    def send(item: tuple[int, tuple[str, int], bytes]) -> None:
        _key, address, data = item
        pool.exchange(address, lambda _cid: data, 30.0)

    steps = {key: [s for s in sent if s[0] == key] for key in FLOOR_STEPS}
    steps = {key: items for key, items in steps.items() if items}
    times: dict[int, list[float]] = {key: [] for key in steps}
    totals, cpu = [], []
    with ThreadPoolExecutor(max_workers=max(map(len, steps.values()))) as threads:
        for _ in range(rounds):
            t0, c0 = time.perf_counter(), time.process_time()
            for key, items in steps.items():
                t = time.perf_counter()
                list(threads.map(send, items))
                times[key].append(time.perf_counter() - t)
            totals.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            time.sleep(max(0.0, interval - totals[-1]))
    return {
        "requests": {API_NAMES[key]: len(items) for key, items in steps.items()},
        "request_bytes": sum(len(data) for _, _, data in sent),
        "steps_p50_ms": {
            API_NAMES[key]: round(statistics.median(t) * 1000, 1) for key, t in times.items()
        },
        "read": percentiles(totals),
        "client_cpu_p50_ms": round(statistics.median(cpu) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    add_layout_args(parser, topics=4000, partitions=10, groups=2000)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds, pass to pass")
    parser.add_argument("--floor-rounds", type=int, default=20)
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

    interval = args.interval
    sampler = ClusterSampler(cfg, interval_s=interval)
    samples, results, requests, cpu = [], [], [], []
    pool = kafka.for_cluster(cfg).wire.pool
    sent = WireRecorder(pool)
    floor_pass: list[tuple[int, tuple[str, int], bytes]] = []
    for i in range(args.passes):
        pool.requests.clear()
        sent.start()
        t0, c0 = time.perf_counter(), time.process_time()
        result = sampler.run_pass()
        samples.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)  # the pass's threads included
        results.append(result)
        requests.append({API_NAMES.get(k, str(k)): n for k, n in sorted(pool.requests.items())})
        assert result.ok, result.error
        if i >= sampler.window and sent.plain():
            floor_pass = sent.taken()
        if i + 1 < args.passes:  # as the sampler does: the next pass an interval after
            time.sleep(max(0.0, interval - (time.perf_counter() - t0)))
    sent.stop()
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
    full_passes = [
        i for i, r in enumerate(results) if i >= sampler.window and r.timestamp_reads == 0
    ]
    full = [(samples[i], results[i]) for i in full_passes]
    full_cpu = [cpu[i] for i in full_passes]
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
        # The sampler process's CPU seconds in a full-window pass: the rest of its wall time
        # waited on Kafka and Redis, or for a core (the brokers share the machine).
        "full_window_cpu_p50_s": round(statistics.median(full_cpu), 3) if full_cpu else None,
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
    if floor_pass:
        report["kafka_floor"] = replay_floor(pool, floor_pass, args.floor_rounds, interval)
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
