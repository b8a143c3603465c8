"""One sampling pass of one cluster: read Kafka in batched calls, evaluate, store, push.

The sampler (groups.sampler_service) keeps one `ClusterSampler` per cluster while it holds
the cluster's lease. Between passes it keeps, in memory and in Redis (for a standby taking
over), each partition's window of the last `LAG_WINDOW` samples; in memory only, each
partition's (time, log end) history for interpolated lag seconds and the record timestamps
read at committed offsets, keyed by (partition, offset), so a pass only reads timestamps
where a committed offset moved.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.metadata import ClusterSnapshot, cache
from groups import gc_pause, lag, lag_eval, lag_export, lag_math, lag_store, live

log = logging.getLogger(__name__)

TP = tuple[str, int]
# A partition's evaluation kept for reuse: (its inputs, the time of its last point, the row).
SteadyRow = tuple[tuple[Any, ...], float, dict[str, Any]]
# Record timestamps read per pass at most; the rest use interpolation until a later pass.
TIMESTAMP_READS_PER_PASS = 5000
# The windows a standby restores are written every few passes, not every one: serializing
# every partition's window costs ~0.5 s a pass at 20,000 partitions, and a standby that takes
# over with a window a few points short evaluates the same (the store's TTL is 10 intervals).
WINDOWS_STORED_EVERY = 4
# Log starts move only when retention deletes a segment: read for every partition every few
# passes (and at once for a partition not seen before), kept between. Retention risk and the
# lag seconds of a group below the log start lag the truth by this many intervals at most.
LOG_STARTS_EVERY = 6


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
    # Seconds per part of the pass: read (the Kafka group and offset reads), windows (each
    # partition's new point), timestamps (records at committed offsets), evaluate,
    # store_latest, publish, store_history.
    phases: dict[str, float] = field(default_factory=dict)

    def as_meta(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class ClusterSampler:
    cfg: ClusterConfig
    interval_s: float = 5.0
    window: int = 10
    retention_risk: float = 0.10
    windows: dict[str, dict[TP, deque[lag_eval.Point]]] = field(default_factory=dict)
    histories: dict[TP, lag_math.EndHistory] = field(default_factory=dict)
    timestamps: dict[tuple[TP, int], int] = field(default_factory=dict)
    previous: dict[str, dict[str, Any]] | None = None
    last_minute: int | None = None
    passes: int = 0  # successful passes so far
    log_starts: dict[TP, int] = field(default_factory=dict)
    # Per group and partition, the evaluation of a window that was full of one value, with
    # its inputs: a pass whose new point repeats them reuses it (see _evaluate_group).
    steady_rows: dict[str, dict[TP, SteadyRow]] = field(default_factory=dict)

    # --- state across passes ------------------------------------------------------------

    def restore(self) -> None:
        """Take over the windows a previous sampler stored (a standby becoming active)."""
        try:
            stored = lag_store.read_windows(self.cfg.name)
        except lag_store.StoreUnavailable:
            return
        for group, rows in stored.items():
            self.windows[group] = {
                (topic, partition): deque((lag_eval.Point(*p) for p in points), maxlen=self.window)
                for topic, partition, points in sorted(rows, key=lambda r: (r[0], r[1]))
            }

    def _stored_windows(self) -> dict[str, list[list[Any]]]:
        return {
            group: [
                [t, p, [[x.at, x.committed, x.log_end] for x in w]] for (t, p), w in wins.items()
            ]
            for group, wins in self.windows.items()
        }

    def _update_windows(self, read: lag.GroupsRead, at: float) -> None:
        seen_groups = set()
        for listing in read.listings:
            group = listing.group_id
            seen_groups.add(group)
            committed = read.committed.get(group, {})
            tps = committed.keys() | read.assigned(group).keys()
            old = self.windows.get(group)
            ends = read.log_ends
            if old is not None and old.keys() == tps:  # the same partitions: append in place
                for tp, window in old.items():
                    window.append(lag_eval.Point(at, committed.get(tp), ends.get(tp)))
                continue
            old = old or {}
            fresh: dict[TP, deque[lag_eval.Point]] = {}
            for tp in sorted(tps):  # kept in order: the evaluation lists partitions sorted
                window = old.get(tp) or deque(maxlen=self.window)
                window.append(lag_eval.Point(at, committed.get(tp), ends.get(tp)))
                fresh[tp] = window
            self.windows[group] = fresh  # partitions no longer there are dropped
        for group in set(self.windows) - seen_groups:  # deleted groups
            del self.windows[group]
        live_tps = {tp for wins in self.windows.values() for tp in wins}
        histories = self.histories
        for tp in live_tps:
            end = read.log_ends.get(tp)
            if end is not None:
                history = histories.get(tp)
                if history is None:
                    history = histories[tp] = lag_math.EndHistory([])
                history.add(at, end)
        for tp in set(histories) - live_tps:
            del histories[tp]

    def _log_starts_wanted(self, tps: list[TP]) -> list[TP]:
        if self.passes % LOG_STARTS_EVERY == 0:
            return tps
        return [tp for tp in tps if tp not in self.log_starts]

    def _remember_log_starts(self, read: lag.GroupsRead) -> None:
        """Merge what this pass read into the kept log starts, and give the pass all of them
        (partitions no group reads any more are forgotten)."""
        wanted = set(read.log_ends)
        self.log_starts.update((tp, s) for tp, s in read.log_starts.items() if s is not None)
        for tp in set(self.log_starts) - wanted:
            del self.log_starts[tp]
        read.log_starts.clear()
        read.log_starts.update((tp, s) for tp, s in self.log_starts.items() if tp in wanted)

    # --- record timestamps at committed offsets -----------------------------------------

    def _wanted_positions(self, read: lag.GroupsRead) -> set[tuple[TP, int]]:
        """(partition, offset) whose record time gives lag seconds: the committed offset of a
        lagging partition, or the log start when records were deleted under the group."""
        wanted = set()
        for offsets in read.committed.values():
            for tp, committed in offsets.items():
                end, start = read.log_ends.get(tp), read.log_starts.get(tp)
                if committed is None or end is None or committed >= end:
                    continue
                wanted.add((tp, max(committed, start) if start is not None else committed))
        return wanted

    def _read_timestamps(self, client: kafka.ClusterClient, wanted: set[tuple[TP, int]]) -> int:
        known = self.timestamps
        missing = sorted(p for p in wanted if p not in known)[:TIMESTAMP_READS_PER_PASS]
        found = client.record_timestamps_at(missing)
        for position, ts in found.items():
            if ts is not None:
                self.timestamps[position] = ts
        reads = len(found)
        for position in [p for p in self.timestamps if p not in wanted]:
            del self.timestamps[position]  # an offset no group sits at any more
        return reads

    # --- evaluation ---------------------------------------------------------------------

    def evaluate(self, read: lag.GroupsRead, at: float) -> dict[str, dict[str, Any]]:
        steady: dict[str, dict[TP, SteadyRow]] = {}
        evaluations = {
            listing.group_id: self._evaluate_group(listing.group_id, read, at, steady)
            for listing in read.listings
        }
        self.steady_rows = steady
        return evaluations

    def _evaluate_group(
        self,
        group: str,
        read: lag.GroupsRead,
        at: float,
        steady: dict[str, dict[TP, SteadyRow]],
    ) -> dict[str, Any]:
        desc = read.descriptions.get(group)
        members = desc.members if desc else []
        has_members = bool(members)
        owners = read.assigned(group)
        before = self.steady_rows.get(group, {})
        kept: dict[TP, SteadyRow] = {}
        partitions = []
        for tp, window in self.windows.get(group, {}).items():  # sorted by _update_windows
            last = window[-1]
            start = read.log_starts.get(tp)
            member = owners.get(tp)
            inputs = (
                last.committed,
                last.log_end,
                start,
                (member.member_id, member.client_id, member.host) if member else None,
                has_members,
            )
            reused = before.get(tp)
            if (
                reused is not None
                and reused[0] == inputs
                and len(window) == window.maxlen
                and window[-2].at == reused[1]
                and window[0].at < last.at
            ):
                # The window was full of one (committed, log end) value when its previous
                # point was evaluated, and the one point added since repeats it (with the
                # same start and owner): status, rates (0) and risk are what they were.
                row = dict(reused[2])
                kept[tp] = (inputs, last.at, reused[2])
            else:
                row = self._partition_row(tp, list(window), start, member, has_members)
                if _full_and_flat(window):
                    kept[tp] = (inputs, last.at, row)
            position = None
            if last.committed is not None:
                position = max(last.committed, start) if start is not None else last.committed
            # Lag seconds move with the clock: computed every pass.
            row["lag_seconds"], row["lag_seconds_method"] = lag_math.lag_seconds(
                lag=row["lag"],
                record_ts_ms=self.timestamps.get((tp, position)) if position is not None else None,
                committed=last.committed,
                history=self.histories.get(tp),
                now=at,
            )
            partitions.append(row)
        if kept:
            steady[group] = kept
        by_topic: dict[str, list[dict[str, Any]]] = {}
        for row in partitions:
            by_topic.setdefault(str(row["topic"]), []).append(row)
        topics = {name: summarize(by_topic[name]) for name in sorted(by_topic)}
        # Most groups read one topic: its summary is the group's.
        overall = next(iter(topics.values())) if len(topics) == 1 else summarize(partitions)
        return {
            "group_id": group,
            "ts": at,
            "state": desc.state if desc else "Unknown",
            "member_count": len(members),
            "status": overall["status"],
            "total_lag": overall["lag"],
            "max_lag": overall["max_lag"],
            "max_lag_seconds": overall["max_lag_seconds"],
            "catch_up_seconds": overall["catch_up_seconds"],
            "retention_risk": overall["retention_risk"],
            "topics": {
                name: {k: v for k, v in t.items() if k != "max_lag"} for name, t in topics.items()
            },
            "partitions": partitions,
        }

    def _partition_row(
        self,
        tp: TP,
        points: list[lag_eval.Point],
        start: int | None,
        member: kafka.GroupMember | None,
        has_members: bool,
    ) -> dict[str, Any]:
        """One partition's evaluation, lag seconds left to the caller."""
        last = points[-1]
        return {
            "topic": tp[0],
            "partition": tp[1],
            "committed_offset": last.committed,
            "log_start_offset": start,
            "log_end_offset": last.log_end,
            "lag": lag.lag_of(last.committed, last.log_end),
            "lag_seconds": None,
            "lag_seconds_method": None,
            "status": lag_eval.partition_status(
                points, group_has_members=has_members, owned=member is not None
            ),
            "retention_risk": lag_math.retention_risk(
                last.committed, start, last.log_end, self.retention_risk
            ),
            "write_per_s": lag_math.rate([(p.at, p.log_end) for p in points]),
            "consume_per_s": lag_math.rate([(p.at, p.committed) for p in points]),
            "member_id": member.member_id if member else None,
            "client_id": member.client_id if member else None,
            "host": member.host if member else None,
        }

    # --- one pass -----------------------------------------------------------------------

    def run_pass(self) -> PassResult:
        with gc_pause.collector_paused():
            return self._run_pass()

    def _run_pass(self) -> PassResult:
        at = time.time()
        started = time.monotonic()
        client = kafka.for_cluster(self.cfg)
        # The metadata snapshot (leaders for ListOffsets) is fetched while the groups are
        # listed, described and their offsets fetched, which do not need it. Metadata changes
        # are pushed to pages by the sampler's MetadataWatcher, never by this pass: a broker
        # going down can slow the group reads for their whole timeout.
        with ThreadPoolExecutor(max_workers=1) as pool:
            taking = pool.submit(self._take_snapshot)

            def leaders() -> dict[TP, tuple[str, int]] | None:
                snap = taking.result()
                return snap.leader_addresses if snap is not None else None

            phases: dict[str, float] = {}
            try:
                read = lag.read_groups(
                    client,
                    with_log_starts=self._log_starts_wanted,
                    leaders=leaders,
                    laps=lag.Laps(phases, "read_"),
                )
            except kafka.KafkaAdapterError as exc:
                # The sample is missing: the last evaluations stay until their TTL (see meta).
                result = PassResult(False, at, time.monotonic() - started, error=str(exc))
                lag_store.write_meta(self.cfg.name, result.as_meta(), self.interval_s)
                return result
        done = lag.Laps(phases, start=started).mark
        done("read")
        self._remember_log_starts(read)
        self._update_windows(read, at)
        done("windows")
        try:
            reads = self._read_timestamps(client, self._wanted_positions(read))
        except kafka.KafkaAdapterError as exc:  # lag seconds fall back to interpolation
            log.warning("%s: record timestamps not read: %s", self.cfg.name, exc)
            reads = 0
        done("timestamps")
        evaluations = self.evaluate(read, at)
        done("evaluate")
        result = PassResult(
            True,
            at,
            0.0,
            groups=len(evaluations),
            partitions=sum(len(w) for w in self.windows.values()),
            timestamp_reads=reads,
            phases=phases,
        )
        # The latest evaluations are stored before the push (a page that refetches on a push
        # reads them), the history after it: sockets should not wait on the charts' series.
        windows = self._stored_windows() if self.passes % WINDOWS_STORED_EVERY == 0 else None
        self.passes += 1
        result.duration_s = time.monotonic() - started
        lag_store.write_latest(
            self.cfg.name, evaluations, result.as_meta(), windows, self.interval_s
        )
        done("store_latest")
        result.published = live.publish_lag(self.cfg.name, evaluations, self.previous)
        self.previous = evaluations
        done("publish")
        minute = int(at // 60)
        lag_store.append_history(
            self.cfg.name,
            {g: history_point(e) for g, e in evaluations.items()},
            minute_points=minute != self.last_minute,
            interval_s=self.interval_s,
        )
        self.last_minute = minute
        lag_export.export(self.cfg, evaluations, self.interval_s)  # async: never waits on Kafka
        done("store_history")
        result.duration_s = time.monotonic() - started
        lag_store.write_meta(self.cfg.name, result.as_meta(), self.interval_s)  # all phases
        return result

    def _take_snapshot(self) -> ClusterSnapshot | None:
        """This pass's metadata: leaders for the offset lookups."""
        try:
            return cache.snapshot(self.cfg, max_age=0)
        except kafka.KafkaAdapterError as exc:
            log.info("%s: no metadata this pass: %s", self.cfg.name, exc)
            return None


def _full_and_flat(window: deque[lag_eval.Point]) -> bool:
    """Every point of a full window has the same committed offset and log end, over some
    time: its status, rates and risk depend on nothing but that value."""
    last = window[-1]
    return (
        len(window) == window.maxlen
        and window[0].at < last.at
        and all(p.committed == last.committed and p.log_end == last.log_end for p in window)
    )


def summarize(partitions: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Lag, lag seconds, rates, catch-up time, retention risk and status of some partitions."""
    rows = list(partitions)
    lags = [p["lag"] for p in rows if p["lag"] is not None]
    seconds = [p["lag_seconds"] for p in rows if p["lag_seconds"] is not None]
    total = sum(lags) if lags else None

    def rate_sum(name: str) -> float | None:
        values = [p[name] for p in rows]
        return None if not values or any(v is None for v in values) else float(sum(values))

    write, consume = rate_sum("write_per_s"), rate_sum("consume_per_s")
    return {
        "lag": total,
        "max_lag": max(lags) if lags else None,
        "max_lag_seconds": max(seconds) if seconds else None,
        "write_per_s": write,
        "consume_per_s": consume,
        "catch_up_seconds": lag_math.catch_up_seconds(total, write, consume),
        "retention_risk": lag_math.worst_risk(p["retention_risk"] for p in rows),
        "status": lag_eval.group_status(p["status"] for p in rows),
    }


def history_point(evaluation: dict[str, Any]) -> list[Any]:
    """The compact chart point of one group and sample (see lag_store.append_history)."""
    return [
        evaluation["ts"],
        {
            name: [
                t.get("lag"),
                t.get("max_lag_seconds"),
                t.get("write_per_s"),
                t.get("consume_per_s"),
                t.get("status"),
            ]
            for name, t in evaluation["topics"].items()
        },
    ]
