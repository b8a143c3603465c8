"""A pass's evaluation of every group (`Evaluator`), and what is made of an evaluation.

An evaluation (its fields: docs/live-lag.md) gives each partition of a group its status,
lag, lag seconds, rates and retention risk, from the sampler's windows, log-end histories
and record timestamps, and sums them up per topic and for the group (`summarize`).
`history_point` is its compact point in the lag history.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from console import kafka
from groups.lag import measures, retention, status
from groups.lag.partition_sizes import PartitionSizes
from groups.lag.read import GroupsRead, lag_of
from groups.lag.retention_configs import RetentionConfigs
from groups.lag.steady import SteadyRow, SteadyRows, full_and_flat, reusable
from groups.lag.timestamps import RecordTimestamps
from groups.lag.windows import EndHistories, Windows
from groups.partitions import TP, TopicPartition


class Evaluator:
    """Evaluates every group of a pass's read from the sampler's state, which it reads but
    never changes; its own state is the rows it may reuse next pass (`steady`)."""

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

    def evaluate(self, read: GroupsRead, at: float) -> dict[str, dict[str, Any]]:
        """group id -> its evaluation, for every group of `read` (after the windows took
        this pass's points)."""
        self.steady.start()
        evaluations = {
            listing.group_id: self._group(listing, read, at) for listing in read.listings
        }
        self.steady.finish()
        return evaluations

    def _group(self, listing: kafka.GroupListing, read: GroupsRead, at: float) -> dict[str, Any]:
        group = listing.group_id
        desc = read.descriptions.get(group)
        members = desc.members if desc else []
        has_members = bool(members)
        owners = read.assigned(group)
        partitions = []
        # Bound once: the loop runs for every partition of every group, every pass.
        kept_rows = self.steady.of(group)
        keeping: dict[TP, SteadyRow] = {}
        timestamp, history = self.timestamps.of, self.histories.get
        retention_of, size_of = self.retentions.of, self.sizes.of
        for tp, window in self.windows.of(group).items():  # sorted by Windows.update
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
            row["lag_seconds"], row["lag_seconds_method"] = measures.lag_seconds(
                lag=row["lag"],
                record_ts_ms=timestamp(tp, last.committed, start),
                committed=last.committed,
                history=history(tp),
                now=at,
            )
            risk = retention.assess(
                committed=last.committed,
                log_start=start,
                log_end=last.log_end,
                lag_seconds=row["lag_seconds"],
                catch_up_s=measures.catch_up_seconds(
                    row["lag"], row["write_per_s"], row["consume_per_s"]
                ),
                retention=retention_of(tp.topic),
                share=self.retention_risk,
                size_bytes=size_of(tp),
                write_per_s=row["write_per_s"],
            )
            row["retention_risk"], row["retention_reason"] = risk.level, risk.reason
            partitions.append(row)
        self.steady.keep_group(group, keeping)
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
