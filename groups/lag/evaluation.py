"""A pass's evaluation of every group (`Evaluator`), and what is made of an evaluation.

An evaluation (its fields: docs/live-lag.md) gives each partition of a group its status,
lag, lag seconds, rates and retention risk, from the sampler's windows, log-end histories
and record timestamps, and sums them up per topic and for the group (`summarize`).
`history_point` is its compact point in the lag history.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from console import kafka
from groups.lag import measures, retention, status
from groups.lag.partition_sizes import PartitionSizes
from groups.lag.read import GroupsRead, lag_of
from groups.lag.retention_configs import RetentionConfigs
from groups.lag.steady import SteadyRow, SteadyRows, full_and_flat, reusable
from groups.lag.timestamps import RecordTimestamps
from groups.lag.windows import EndHistories, Windows
from groups.partitions import TP, TopicPartition


class StillGroup(NamedTuple):
    """A group's evaluation kept while nothing in it moves but the clock: every partition's
    window was full and flat, and every lag in seconds is either constant or the age of a
    known record. Until one of the group's inputs changes, or `until`, a pass's evaluation of
    it is this one with the clock brought forward (`Evaluator._still`)."""

    moved: int | None  # Windows.moved(group) when evaluated
    listing: kafka.GroupListing
    description: kafka.GroupDescription | None
    tps: tuple[TopicPartition, ...]  # in window order, as the rows are
    starts: tuple[int | None, ...]  # their log starts
    sizes: tuple[int | None, ...]  # their sizes
    topics: tuple[str, ...]  # sorted, as the evaluation's topics are
    retentions: tuple[Any, ...]  # their settings
    stamps: tuple[float | None, ...]  # per row: the record's time (s) its age is taken from
    # Per topic: (topic, the oldest of its rows' stamps, the largest of its other rows' known
    # lag seconds), each None when it has none: its max lag seconds without reading its rows.
    slices: tuple[tuple[str, float | None, float | None], ...]
    until: float  # wall time at which a retention risk may change (by age alone)
    evaluation: dict[str, Any]


class Evaluator:
    """Evaluates every group of a pass's read from the sampler's state, which it reads but
    never changes (reading windows and histories makes the points they had only noted: the
    same values); its own state is what it may reuse next pass: rows of partitions that sat
    still (`steady`), and whole groups where nothing moved (`still`)."""

    def __init__(
        self,
        windows: Windows,
        histories: EndHistories,
        timestamps: RecordTimestamps,
        retentions: RetentionConfigs,
        retention_risk: float,
        sizes: PartitionSizes | None = None,
    ) -> None:
        self.windows = windows
        self.histories = histories
        self.timestamps = timestamps
        self.retentions = retentions
        self.retention_risk = retention_risk
        self.sizes = sizes or PartitionSizes()
        self.steady = SteadyRows()
        self.still: dict[str, StillGroup] = {}

    def evaluate(self, read: GroupsRead, at: float) -> dict[str, dict[str, Any]]:
        """group id -> its evaluation, for every group of `read` (after the windows took
        this pass's points)."""
        self.steady.start()
        evaluations = {
            listing.group_id: self._group(listing, read, at) for listing in read.listings
        }
        self.steady.finish()
        for gone in self.still.keys() - evaluations.keys():
            del self.still[gone]
        return evaluations

    def _group(self, listing: kafka.GroupListing, read: GroupsRead, at: float) -> dict[str, Any]:
        group = listing.group_id
        desc = read.descriptions.get(group)
        kept_still = self.still.get(group)
        if kept_still is not None:
            evaluation = self._still(kept_still, group, listing, desc, read, at)
            if evaluation is not None:
                return evaluation
            del self.still[group]
        members = desc.members if desc else []
        has_members = bool(members)
        owners = read.assigned(group)
        partitions = []
        # Bound once: the loop runs for every partition of every group, every pass.
        kept_rows = self.steady.of(group)
        keeping: dict[TP, SteadyRow] = {}
        timestamp, history = self.timestamps.of, self.histories.get
        retention_of, size_of = self.retentions.of, self.sizes.of
        wins = self.windows.of(group)
        stamps: list[float | None] | None = []  # None: the group cannot be kept still
        until = math.inf
        for tp, window in wins.items():  # sorted by Windows.update
            last = window[-1]
            start = read.log_starts.get(tp)
            member = owners.get(tp)
            owner = (member.member_id, member.client_id, member.host) if member else None
            inputs = (last.committed, last.log_end, start, owner, has_members)
            kept = kept_rows.get(tp)
            if kept is not None and reusable(kept, inputs, window):
                keeping[tp] = SteadyRow(inputs, last.at, kept.row)
                row = dict(kept.row)
            else:
                row = self._partition_row(tp, list(window), start, member, has_members)
                if full_and_flat(window):
                    keeping[tp] = SteadyRow(inputs, last.at, row)
            # Lag seconds move with the clock, and the retention risk with them: every pass.
            record_ts_ms = timestamp(tp, last.committed, start)
            row["lag_seconds"], row["lag_seconds_method"] = measures.lag_seconds(
                lag=row["lag"],
                record_ts_ms=record_ts_ms,
                committed=last.committed,
                history=history(tp),
                now=at,
            )
            topic_retention, size = retention_of(tp.topic), size_of(tp)
            risk = retention.assess(
                committed=last.committed,
                log_start=start,
                log_end=last.log_end,
                lag_seconds=row["lag_seconds"],
                catch_up_s=measures.catch_up_seconds(
                    row["lag"], row["write_per_s"], row["consume_per_s"]
                ),
                retention=topic_retention,
                share=self.retention_risk,
                size_bytes=size,
                write_per_s=row["write_per_s"],
            )
            row["retention_risk"], row["retention_reason"] = risk.level, risk.reason
            partitions.append(row)
            if stamps is None:
                continue
            stamp = _still_stamp(row, record_ts_ms, at) if tp in keeping else _MOVES
            below = None
            if stamp is not _MOVES:
                below = retention.unchanged_below(
                    committed=last.committed,
                    log_start=start,
                    log_end=last.log_end,
                    lag_seconds=row["lag_seconds"],
                    retention=topic_retention,
                    share=self.retention_risk,
                    size_bytes=size,
                    write_per_s=row["write_per_s"],
                )
            if below is None:
                stamps = None
                continue
            stamps.append(stamp)
            if stamp is not None:
                until = min(until, stamp + below)
        by_topic: dict[str, list[dict[str, Any]]] = {}
        for row in partitions:
            by_topic.setdefault(str(row["topic"]), []).append(row)
        topics = {name: summarize(by_topic[name]) for name in sorted(by_topic)}
        # Most groups read one topic: its summary is the group's.
        overall = next(iter(topics.values())) if len(topics) == 1 else summarize(partitions)
        committed_topics = {topic for topic, _ in read.committed.get(group, {})}
        evaluation = {
            "group_id": group,
            "ts": at,
            "state": desc.state if desc else listing.state,
            "member_count": len(members),
            "protocol_type": desc.protocol_type if desc else listing.protocol_type,
            # What the groups list shows: topics with a committed offset or assigned to a
            # member (groups.lag.rest answers the list from this).
            "topic_names": sorted(committed_topics | {topic for topic, _ in owners}),
            # Kafka's AdminClient isSimpleConsumerGroup: no protocol type, i.e. offsets
            # committed without ever joining the group (kafka-lag-exporter's label).
            "is_simple_consumer": desc.protocol_type == "" if desc else listing.is_simple,
            "status": overall["status"],
            "total_lag": overall["lag"],
            "max_lag": overall["max_lag"],
            "max_lag_seconds": overall["max_lag_seconds"],
            "catch_up_seconds": overall["catch_up_seconds"],
            "retention_risk": overall["retention_risk"],
            "retention_reason": overall["retention_reason"],
            "topics": topics,
            "partitions": partitions,
        }
        for summary in topics.values():  # a topic's max lag is only the group's (read above)
            del summary["max_lag"]
        if stamps is not None and at < until:
            counts = [len(by_topic[name]) for name in topics]  # rows sorted by topic
            self._keep_still(group, listing, desc, read, wins, stamps, until, counts, evaluation)
        else:  # a group kept still needs no rows: the next pass copies the whole of it
            self.steady.keep_group(group, keeping)
        return evaluation

    def _keep_still(
        self,
        group: str,
        listing: kafka.GroupListing,
        desc: kafka.GroupDescription | None,
        read: GroupsRead,
        wins: dict[TopicPartition, Any],
        stamps: list[float | None],
        until: float,
        counts: list[int],
        evaluation: dict[str, Any],
    ) -> None:
        tps = tuple(wins)
        topics = tuple(evaluation["topics"])
        ends = list(itertools.accumulate(counts))
        slices = []
        for name, n, end in zip(topics, counts, ends, strict=True):
            rows = zip(evaluation["partitions"][end - n : end], stamps[end - n : end], strict=True)
            aged, constant = [], []
            for row, stamp in rows:
                if stamp is not None:
                    aged.append(stamp)
                elif row["lag_seconds"] is not None:
                    constant.append(row["lag_seconds"])
            slices.append((name, min(aged, default=None), max(constant, default=None)))
        self.still[group] = StillGroup(
            self.windows.moved(group),
            listing,
            desc,
            tps,
            tuple(map(read.log_starts.get, tps)),
            self.sizes.of_all(tps),
            topics,
            tuple(map(self.retentions.of, topics)),
            tuple(stamps),
            tuple(slices),
            until,
            evaluation,
        )

    def _still(
        self,
        kept: StillGroup,
        group: str,
        listing: kafka.GroupListing,
        desc: kafka.GroupDescription | None,
        read: GroupsRead,
        at: float,
    ) -> dict[str, Any] | None:
        """The group's kept evaluation brought forward to `at`, if nothing it was made from
        changed since (None: evaluate it afresh). Group-wide comparisons, in C where they
        run per partition: this replaces the per-partition work of every still group."""
        if (
            at >= kept.until
            or at < kept.evaluation["ts"]  # the clock stepped back: ages are not at - stamp
            or self.windows.moved(group) != kept.moved
            or listing != kept.listing
            or desc != kept.description
            or tuple(map(read.log_starts.get, kept.tps)) != kept.starts
            or self.sizes.of_all(kept.tps) != kept.sizes
            or tuple(map(self.retentions.of, kept.topics)) != kept.retentions
        ):
            return None
        last = kept.evaluation
        # A stamped row's lag seconds are its record's age (as assess saw it); the others are
        # constant, their rows shared (rows are never changed once made).
        partitions = [
            row if stamp is None else {**row, "lag_seconds": at - stamp}
            for row, stamp in zip(last["partitions"], kept.stamps, strict=True)
        ]
        topics, oldest = {}, None
        for name, stamp, constant in kept.slices:
            summary = dict(last["topics"][name])
            known = [s for s in (None if stamp is None else at - stamp, constant) if s is not None]
            summary["max_lag_seconds"] = max(known) if known else None
            if known and (oldest is None or summary["max_lag_seconds"] > oldest):
                oldest = summary["max_lag_seconds"]
            topics[name] = summary
        evaluation = dict(last)
        evaluation["ts"] = at
        evaluation["partitions"] = partitions
        evaluation["topics"] = topics
        evaluation["max_lag_seconds"] = oldest
        return evaluation

    def _partition_row(
        self,
        tp: TopicPartition,
        points: list[status.Point],
        start: int | None,
        member: kafka.GroupMember | None,
        has_members: bool,
    ) -> dict[str, Any]:
        """One partition's evaluation, lag seconds left to the caller."""
        last = points[-1]
        return {
            "topic": tp.topic,
            "partition": tp.partition,
            "committed_offset": last.committed,
            "log_start_offset": start,
            "log_end_offset": last.log_end,
            "lag": lag_of(last.committed, last.log_end),
            "lag_seconds": None,
            "lag_seconds_method": None,
            "status": status.partition_status(
                points, group_has_members=has_members, owned=member is not None
            ),
            "retention_risk": measures.NONE,
            "retention_reason": None,
            "write_per_s": measures.rate([(p.at, p.log_end) for p in points]),
            "consume_per_s": measures.rate([(p.at, p.committed) for p in points]),
            "member_id": member.member_id if member else None,
            "client_id": member.client_id if member else None,
            "host": member.host if member else None,
        }


_MOVES = -math.inf  # a row whose window may still change: its group is not kept still


def _still_stamp(row: dict[str, Any], record_ts_ms: int | None, at: float) -> float | None:
    """For a row of a full and flat window: the record time (s) its lag seconds are the age
    of (`at - stamp` exactly, as measures.lag_seconds computes it), None when they are
    constant (caught up, or lag unknown), `_MOVES` when they may change otherwise (found by
    interpolation: a later pass may read the record's timestamp)."""
    method = row["lag_seconds_method"]
    if method == measures.CAUGHT_UP or (method is None and row["lag"] is None):
        return None
    if method == measures.TIMESTAMP and record_ts_ms is not None:
        stamp = record_ts_ms / 1000
        if row["lag_seconds"] == at - stamp:
            return stamp
    return _MOVES


def summarize(partitions: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Lag, lag seconds, rates, catch-up time, retention risk and status of some partitions
    (one loop: it runs for every group and topic of every pass)."""
    total = max_lag = max_seconds = None
    write: float | None = 0.0
    consume: float | None = 0.0
    rows = 0
    risk = 0  # the worst retention risk's rank (measures: none < near < lost)
    reason_row = None  # the first row at that risk that says why
    worst = -1  # the worst status's severity (a string that is no status counts as UNKNOWN)
    for p in partitions:
        rows += 1
        lag = p["lag"]
        if lag is not None:
            total = lag if total is None else total + lag
            if max_lag is None or lag > max_lag:
                max_lag = lag
        seconds = p["lag_seconds"]
        if seconds is not None and (max_seconds is None or seconds > max_seconds):
            max_seconds = seconds
        w, c = p["write_per_s"], p["consume_per_s"]
        write = None if write is None or w is None else write + w
        consume = None if consume is None or c is None else consume + c
        rank = _RISK_RANKS.get(p["retention_risk"], 0)
        if rank > risk:
            risk, reason_row = rank, None
        if rank and rank == risk and reason_row is None and p.get("retention_reason"):
            reason_row = p
        worst = max(worst, status.SEVERITY.get(p["status"], _UNKNOWN_SEVERITY))
    if not rows:
        write = consume = None
    write = None if write is None else float(write)
    consume = None if consume is None else float(consume)
    return {
        "lag": total,
        "max_lag": max_lag,
        "max_lag_seconds": max_seconds,
        "write_per_s": write,
        "consume_per_s": consume,
        "catch_up_seconds": measures.catch_up_seconds(total, write, consume),
        "retention_risk": _RISKS[risk],
        "retention_reason": None
        if reason_row is None
        else f"{reason_row['topic']}-{reason_row['partition']}: {reason_row['retention_reason']}",
        "status": _STATUSES.get(worst, status.UNKNOWN),
    }


_RISKS = [measures.NONE, measures.NEAR, measures.LOST]
_RISK_RANKS = {name: rank for rank, name in enumerate(_RISKS)}
_UNKNOWN_SEVERITY = status.SEVERITY[status.UNKNOWN]
_STATUSES = {severity: name for name, severity in status.SEVERITY.items()}


def history_point(evaluation: dict[str, Any]) -> list[Any]:
    """The compact chart point of one group and sample (see store.append_history)."""
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
