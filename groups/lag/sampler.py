"""One sampling pass of one cluster: read Kafka in batched calls, evaluate, store, push.

The sampler (groups.lag.service) keeps one `ClusterSampler` per cluster while it holds the
cluster's lease. What it keeps between passes is in parts, each with its own module:
- `windows.Windows`: each partition's window of the last `LAG_WINDOW` samples, per group;
  in memory and, every `WINDOWS_STORED_EVERY` passes, in Redis for a standby taking over;
- `windows.EndHistories`: each partition's (time, log end) history, for interpolated lag
  seconds;
- `timestamps.RecordTimestamps`: the record timestamps read at the offsets where groups sit,
  so a pass only reads them where a committed offset moved;
- `log_starts.LogStarts`: log start offsets, read for every partition every few passes;
- `retention_configs.RetentionConfigs`: the topics' retention settings, read every few passes;
- `evaluation.Evaluator` with its `steady.SteadyRows`: the evaluation, reusing the rows of
  partitions where nothing moved.
The pass (`run_pass`) runs its steps in order and times each (`PassResult.phases`).
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from console import kafka, lag_hooks
from console.clusters import ClusterConfig
from console.metadata import ClusterSnapshot, cache
from groups.lag import export, gc_pause, live, store
from groups.lag.evaluation import Evaluator, history_point
from groups.lag.log_starts import LogStarts
from groups.lag.partition_sizes import PartitionSizes
from groups.lag.read import GroupsRead, Laps, read_groups
from groups.lag.retention_configs import RetentionConfigs
from groups.lag.rows import list_row
from groups.lag.timestamps import Position, RecordTimestamps
from groups.lag.windows import EndHistories, Windows
from groups.partitions import TP

log = logging.getLogger(__name__)

# The windows a standby restores are written every few passes, not every one: serializing
# every partition's window costs ~0.5 s a pass at 20,000 partitions, and a standby that takes
# over with a window a few points short evaluates the same (the store's TTL is 10 intervals).
WINDOWS_STORED_EVERY = 4


@dataclass
class PassResult:
    ok: bool
    ts: float
    duration_s: float
    groups: int = 0
    partitions: int = 0
    timestamp_reads: int = 0
    error: str | None = None
    published: int = 0
    # The Kafka cluster id (DescribeCluster, from the pass's metadata snapshot; the last one
    # known when this pass had none): /metrics tells registry entries of one cluster apart
    # by it without a Kafka call.
    cluster_id: str | None = None
    # Seconds per part of the pass: read (the Kafka group and offset reads, with read_list,
    # read_groups, read_leaders and read_offsets in it), windows (each partition's new
    # point), timestamps (records at committed offsets), retention (topics' settings),
    # sizes (partitions of topics with retention.bytes), evaluate, store_latest, publish,
    # store_history.
    phases: dict[str, float] = field(default_factory=dict)

    def as_meta(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ClusterSampler:
    cfg: ClusterConfig
    interval_s: float = 5.0
    window: int = 10
    retention_risk: float = 0.10
    windows: Windows = field(init=False)
    histories: EndHistories = field(init=False, default_factory=EndHistories)
    timestamps: RecordTimestamps = field(init=False, default_factory=RecordTimestamps)
    log_starts: LogStarts = field(init=False, default_factory=LogStarts)
    retentions: RetentionConfigs = field(init=False, default_factory=RetentionConfigs)
    sizes: PartitionSizes = field(init=False, default_factory=PartitionSizes)
    evaluator: Evaluator = field(init=False)
    # Of the last pass's evaluations, only what the next pass's push compares (state and
    # member count): keeping them whole held a second copy of every group through the pass.
    previous: dict[str, dict[str, Any]] | None = None
    last_minute: int | None = None  # of the last pass, for the day series' minute points
    last_ten_minutes: int | None = None  # likewise, for the week series' points
    passes: int = 0  # successful passes so far
    cluster_id: str | None = None  # the Kafka cluster id, from the latest metadata snapshot

    def __post_init__(self) -> None:
        self.windows = Windows(self.window)
        self.evaluator = Evaluator(
            self.windows,
            self.histories,
            self.timestamps,
            self.retentions,
            self.retention_risk,
            self.sizes,
        )

    def restore(self) -> None:
        """Take over the windows a previous sampler stored (a standby becoming active)."""
        try:
            stored = store.read_windows(self.cfg.name)
        except store.StoreUnavailable:
            return
        self.windows.restore(stored)

    # --- the steps of a pass, in order ------------------------------------------------------

    def run_pass(self) -> PassResult:
        with gc_pause.collector_paused():
            return self._run_pass()

    def _run_pass(self) -> PassResult:
        at = time.time()
        started = time.monotonic()
        client = kafka.for_cluster(self.cfg)
        phases: dict[str, float] = {}
        read = self._read(client, phases, at, started)
        if isinstance(read, PassResult):
            return read  # the sample is missing
        done = Laps(phases, start=started).mark
        done("read")
        self.log_starts.merge(read)  # the read gets every kept log start
        self.update_windows(read, at)
        done("windows")
        reads = self._read_timestamps(client, read)
        done("timestamps")
        topics = {topic for topic, _ in read.log_ends}
        self.retentions.refresh(client, topics, self.passes)
        done("retention")
        by_size = {topic for topic in topics if self._deletes_by_size(topic)}
        sized = [tp for tp in read.log_ends if tp[0] in by_size] if by_size else []
        self.sizes.refresh(client, sized, self.passes)
        done("sizes")
        evaluations = self.evaluate(read, at)
        done("evaluate")
        result = PassResult(
            True,
            at,
            0.0,
            groups=len(evaluations),
            partitions=self.windows.count(),
            timestamp_reads=reads,
            phases=phases,
            cluster_id=self.cluster_id,
        )
        # The latest evaluations are stored before the push (a page that refetches on a push
        # reads them), the history after it: sockets should not wait on the charts' series.
        self._store_latest(evaluations, result, started)
        done("store_latest")
        result.published = live.publish_lag(self.cfg.name, evaluations, self.previous)
        lag_hooks.pass_done(self.cfg.name, evaluations, at)  # alerts: returns at once
        self.previous = {
            g: {"state": e["state"], "member_count": e["member_count"]}
            for g, e in evaluations.items()
        }
        done("publish")
        self._store_history(evaluations, at)
        done("store_history")
        result.duration_s = time.monotonic() - started
        store.write_meta(self.cfg.name, result.as_meta(), self.interval_s)  # all phases
        return result

    def _read(
        self, client: kafka.ClusterClient, phases: dict[str, float], at: float, started: float
    ) -> GroupsRead | PassResult:
        """Every group's offsets and their partitions' log offsets; when Kafka fails, the
        failed pass, its record stored (the last evaluations stay until their TTL)."""
        # The metadata snapshot (leaders for ListOffsets) is fetched while the groups are
        # listed, described and their offsets fetched, which do not need it. Metadata changes
        # are pushed to pages by the sampler's MetadataWatcher, never by this pass: a broker
        # going down can slow the group reads for their whole timeout.
        with ThreadPoolExecutor(max_workers=1) as pool:
            taking = pool.submit(self._take_snapshot)

            def leaders() -> dict[TP, tuple[str, int]] | None:
                snap = taking.result()
                return snap.leader_addresses if snap is not None else None

            try:
                return read_groups(
                    client,
                    with_log_starts=lambda tps: self.log_starts.wanted(tps, self.passes),
                    leaders=leaders,
                    laps=Laps(phases, "read_"),
                )
            except kafka.KafkaAdapterError as exc:
                error = str(exc)
        # Leaving the pool waited for the snapshot: the record has this pass's cluster id.
        result = PassResult(
            False, at, time.monotonic() - started, error=error, cluster_id=self.cluster_id
        )
        store.write_meta(self.cfg.name, result.as_meta(), self.interval_s)
        return result

    def _take_snapshot(self) -> ClusterSnapshot | None:
        """This pass's metadata: leaders for the offset lookups, and the cluster id."""
        try:
            snap = cache.snapshot(self.cfg, max_age=0)
        except kafka.KafkaAdapterError as exc:
            log.info("%s: no metadata this pass: %s", self.cfg.name, exc)
            return None
        self.cluster_id = snap.description.cluster_id or self.cluster_id
        return snap

    def _deletes_by_size(self, topic: str) -> bool:
        found = self.retentions.of(topic)
        return found is not None and found.deletes and found.bytes is not None

    def update_windows(self, read: GroupsRead, at: float) -> None:
        """Each partition's new point in its window, and its log end in its history."""
        self.windows.update(read, at)
        self.histories.update(read.log_ends, at)

    def wanted_timestamps(self, read: GroupsRead) -> set[Position]:
        """The record timestamps this pass wants (after `update_windows`): each group's
        positions are the last pass's while its windows did not move (its committed offsets
        and log ends are the same) and its log starts are the same."""
        starts = read.log_starts.get
        windows = self.windows

        def unchanged_since(group: str) -> tuple[int | None, tuple[int | None, ...]]:
            return windows.moved(group), tuple(map(starts, windows.partitions(group)))

        return self.timestamps.wanted_by_group(read, unchanged_since)

    def _read_timestamps(self, client: kafka.ClusterClient, read: GroupsRead) -> int:
        try:
            return self.timestamps.refresh(client, self.wanted_timestamps(read))
        except kafka.KafkaAdapterError as exc:  # lag seconds fall back to interpolation
            log.warning("%s: record timestamps not read: %s", self.cfg.name, exc)
            return 0

    def evaluate(self, read: GroupsRead, at: float) -> dict[str, dict[str, Any]]:
        return self.evaluator.evaluate(read, at)

    def _store_latest(
        self, evaluations: dict[str, dict[str, Any]], result: PassResult, started: float
    ) -> None:
        """The latest evaluations, with the windows every few passes (this pass counts)."""
        windows = self.windows.stored() if self.passes % WINDOWS_STORED_EVERY == 0 else None
        self.passes += 1
        result.duration_s = time.monotonic() - started
        store.write_latest(
            self.cfg.name, evaluations, result.as_meta(), windows, self.interval_s, list_row
        )

    def _store_history(self, evaluations: dict[str, dict[str, Any]], at: float) -> None:
        """Each group's point in its hour series (and its day series on a new minute), and
        the export topic's records (handed over: never waits on Kafka)."""
        minute = int(at // 60)
        ten_minutes = int(at // store.D7_STEP_SECONDS)
        store.append_history(
            self.cfg.name,
            {g: history_point(e) for g, e in evaluations.items()},
            minute_points=minute != self.last_minute,
            interval_s=self.interval_s,
            ten_minute_points=ten_minutes != self.last_ten_minutes,
        )
        self.last_minute, self.last_ten_minutes = minute, ten_minutes
        export.export(self.cfg, evaluations, self.interval_s)
