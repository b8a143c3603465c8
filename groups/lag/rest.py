"""Consumer groups as the REST API answers them: Kafka's numbers and the sampler's view.

The list is answered from the sampler's latest pass while it is recent (no Kafka call per
request), else read from Kafka (`groups.lag.read.read_groups`); a group's detail and its
`offsets.csv` always read Kafka. `status`, lag in seconds, rates, catch-up time and retention
risk need a history of samples: they come from the sampler's latest evaluation
(groups.lag.store). Without one (the sampler has not run yet, or Redis is down) the numbers
still come from Kafka and `status` is UNKNOWN. The lag history is the store's series.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import NotFound, Unavailable
from groups.lag import store
from groups.lag.read import lag_of, read_groups
from groups.lag.rows import UNKNOWN, evaluation_fields, iso
from groups.partitions import TP, TopicPartition

log = logging.getLogger(__name__)


def stored_evaluations(cfg: ClusterConfig) -> dict[str, dict[str, Any]]:
    """The sampler's latest evaluation of every group ({} when there is none or no Redis)."""
    try:
        return store.read_latest(cfg.name)
    except store.StoreUnavailable as exc:
        log.warning("lag store unavailable, serving lag without evaluation: %s", exc)
        return {}


def stored_evaluation(cfg: ClusterConfig, group_id: str) -> dict[str, Any] | None:
    try:
        return store.read_group(cfg.name, group_id)
    except store.StoreUnavailable as exc:
        log.warning("lag store unavailable, serving lag without evaluation: %s", exc)
        return None


# The list is answered from the sampler's latest pass while that pass is at most this many
# intervals old; an older one (or none: no sampler holds the cluster) means a live read.
FRESH_PASSES = 2


def pass_is_usable(meta: dict[str, Any] | None, lease_holder: str | None, now: float) -> bool:
    """Whether the latest pass may answer the list: a sampler holds the cluster, the pass
    succeeded, and it is at most FRESH_PASSES intervals old (pure)."""
    if lease_holder is None or meta is None or not meta.get("ok"):
        return False
    interval = float(meta.get("interval_s") or 0)
    passed = float(meta.get("ts") or 0)  # a successful pass writes its rows with its record
    return interval > 0 and now - passed <= FRESH_PASSES * interval


def groups_json_from_pass(
    raw_rows: dict[bytes, bytes], meta: dict[str, Any] | None, lease_holder: str | None, now: float
) -> bytes | None:
    """The list as the latest pass stored it (`rows.list_row` of each group), as the JSON array
    the API sends, in group id order (UTF-8 bytes sort as their code points); None when there
    is no usable pass (`pass_is_usable`). Joined from the rows' stored JSON as they are: at
    20,000 groups, decoding 7 MB of rows to encode them again was most of the request's time
    (pure)."""
    if not pass_is_usable(meta, lease_holder, now):
        return None
    return b"[" + b",".join(raw_rows[group] for group in sorted(raw_rows)) + b"]"


def list_groups_json(cfg: ClusterConfig, fresh: bool = False) -> bytes:
    """Every group with its lag, as the API's JSON body: from the sampler's latest pass (no
    Kafka call), or with `fresh`, or without a recent pass, read from Kafka now. Each row's
    `sampled_at` says when Kafka was read for it."""
    if not fresh:
        try:
            raw_rows, meta, holder = store.read_raw_rows(cfg.name)
        except store.StoreUnavailable as exc:
            log.warning("lag store unavailable, reading the groups live: %s", exc)
        else:
            body = groups_json_from_pass(raw_rows, meta, holder, time.time())
            if body is not None:
                return body
    return store.json_bytes(live_groups(cfg))


def live_groups(cfg: ClusterConfig) -> list[dict[str, Any]]:
    """The list read from Kafka now, with the sampler's evaluation fields where it has them;
    `sampled_at` is this read's time."""
    read_at = iso(time.time())
    read = read_groups(kafka.for_cluster(cfg))
    evaluations = stored_evaluations(cfg)
    rows = []
    for listing in read.listings:
        desc = read.descriptions.get(listing.group_id)
        offsets = read.committed.get(listing.group_id, {})
        assigned = read.assigned(listing.group_id)
        lags = [lag_of(o, read.log_ends.get(tp)) for tp, o in offsets.items()]
        known = [lag for lag in lags if lag is not None]
        rows.append(
            {
                "group_id": listing.group_id,
                "state": desc.state if desc else listing.state,
                "protocol_type": desc.protocol_type if desc else listing.protocol_type,
                "member_count": len(desc.members) if desc else 0,
                "topics": sorted({t for t, _ in offsets} | {t for t, _ in assigned}),
                "total_lag": sum(known) if known else None,
                "max_lag": max(known) if known else None,
                **evaluation_fields(evaluations.get(listing.group_id)),
                "sampled_at": read_at,
            }
        )
    return rows


def stale_partitions(
    sampled: dict[Any, dict[str, Any]], committed: dict[Any, int | None]
) -> set[Any]:
    """The partitions whose committed offset moved since the sampler's pass (a reset just
    executed, say): the pass's lag in seconds was the age of another record, so it is stale."""
    return {
        tp
        for tp, seen in sampled.items()
        if tp in committed and seen.get("committed_offset") != committed[tp]
    }


def without_stale_lag_seconds(
    evaluation: dict[str, Any] | None, stale: set[Any]
) -> dict[str, Any] | None:
    """The evaluation with no lag in seconds where a stale partition counts in it (the group's,
    its topics'): unknown until the next pass, rather than a figure that is no longer true."""
    if not evaluation:
        return evaluation
    topics = {topic for topic, _ in stale}
    return {
        **evaluation,
        "max_lag_seconds": None,
        "topics": {
            name: {**t, "max_lag_seconds": None} if name in topics else t
            for name, t in evaluation.get("topics", {}).items()
        },
    }


def group_detail(cfg: ClusterConfig, group_id: str) -> dict[str, Any]:
    client = kafka.for_cluster(cfg)
    desc = client.describe_groups([group_id])[group_id]
    read_at = time.time()  # a pass that began before this may hold older committed offsets
    committed = client.committed_offsets({group_id: None})[group_id]
    if not desc.exists and not committed:
        raise NotFound(f"Consumer group {group_id!r} does not exist.", code="group_not_found")
    owner = {tp: m.member_id for m in desc.members for tp in m.assignments}
    tps = sorted(map(TopicPartition._make, set(committed) | set(owner)))
    ends = client.log_offsets(tps, "latest")
    starts = client.log_offsets(tps, "earliest")
    evaluation = stored_evaluation(cfg, group_id)
    sampled = {(p["topic"], p["partition"]): p for p in (evaluation or {}).get("partitions", [])}
    stale = stale_partitions(sampled, committed)
    if stale:
        evaluation = without_stale_lag_seconds(evaluation, stale)
    offsets = []
    for tp in tps:
        seen = sampled.get(tp, {})
        offsets.append(
            {
                "topic": tp.topic,
                "partition": tp.partition,
                "committed_offset": committed.get(tp),
                "log_start_offset": starts.get(tp),
                "log_end_offset": ends.get(tp),
                "lag": lag_of(committed.get(tp), ends.get(tp)),
                "lag_seconds": None if tp in stale else seen.get("lag_seconds"),
                "member_id": owner.get(tp),
                "status": seen.get("status", UNKNOWN),
                "retention_risk": seen.get("retention_risk", "none"),
                "retention_reason": seen.get("retention_reason"),
            }
        )
    known = [row["lag"] for row in offsets if row["lag"] is not None]
    topics = (evaluation or {}).get("topics", {})
    return {
        "group_id": group_id,
        "state": desc.state,
        "protocol_type": desc.protocol_type,
        "assignor": desc.assignor,
        "coordinator": desc.coordinator_id,
        "members": [
            {
                "member_id": m.member_id,
                "client_id": m.client_id,
                "host": m.host,
                "assignments": [{"topic": t, "partition": p} for t, p in m.assignments],
            }
            for m in desc.members
        ],
        "offsets": offsets,
        "total_lag": sum(known) if known else None,
        **evaluation_fields(evaluation),
        "read_at": iso(read_at),
        "topics": [
            {
                "topic": name,
                "lag": t.get("lag"),
                "max_lag_seconds": t.get("max_lag_seconds"),
                "rates": {
                    "write_per_s": t.get("write_per_s"),
                    "consume_per_s": t.get("consume_per_s"),
                },
                "catch_up_seconds": t.get("catch_up_seconds"),
                "retention_risk": t.get("retention_risk", "none"),
                "retention_reason": t.get("retention_reason"),
            }
            for name, t in sorted(topics.items())
        ],
    }


def committed_for_export(cfg: ClusterConfig, group_id: str) -> dict[TP, int | None]:
    client = kafka.for_cluster(cfg)
    committed = client.committed_offsets({group_id: None})[group_id]
    if not committed:
        if not client.describe_groups([group_id])[group_id].exists:
            raise NotFound(f"Consumer group {group_id!r} does not exist.", code="group_not_found")
    return committed


HISTORY_WINDOWS = ("1h", "24h", "7d")


def expand_history(points: list[list[Any]], topic: str | None) -> list[dict[str, Any]]:
    """Compact stored points (`[ts, {topic: [lag, lag_s, write/s, consume/s, status]}]`) as
    one API point per topic and sample, oldest first."""
    out = []
    for ts, topics in points:
        for name, (lag, lag_seconds, write, consume, status) in sorted(topics.items()):
            if topic is None or name == topic:
                out.append(
                    {
                        "ts": iso(ts),
                        "topic": name,
                        "lag": lag,
                        "lag_seconds": lag_seconds,
                        "write_per_s": write,
                        "consume_per_s": consume,
                        "status": status,
                    }
                )
    return out


def lag_history(cfg: ClusterConfig, group_id: str, window: str, topic: str | None) -> dict:
    try:
        points = store.read_history(cfg.name, group_id, window)
    except store.StoreUnavailable:
        raise Unavailable(
            "The lag history is kept in Redis, which does not answer; try again shortly.",
            code="lag_store_unavailable",
        ) from None
    return {"group_id": group_id, "window": window, "points": expand_history(points, topic)}
