"""Consumer groups with their lag, from batched calls.

For every group at once: one ListGroups, one DescribeGroups, the groups' OffsetFetch calls
started together, and one ListOffsets per leader broker for all partitions involved. Lag is
`log end (high watermark) - committed`, as `kafka-consumer-groups.sh --describe` shows it
(not clamped; null where nothing is committed).

`status` needs a history of samples (Burrow's rules); until the lag sampler keeps one, it
is UNKNOWN here.
"""

from __future__ import annotations

from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import NotFound

TP = tuple[str, int]
UNKNOWN = "UNKNOWN"


def offsets_or_none(results: dict[TP, Any]) -> dict[TP, int | None]:
    """Offsets from a ListOffsets answer; None where that partition failed."""
    return {
        tp: r.offset if isinstance(r, kafka.OffsetResult) else None for tp, r in results.items()
    }


def lag_of(committed: int | None, log_end: int | None) -> int | None:
    if committed is None or log_end is None:
        return None
    return log_end - committed


def list_groups(cfg: ClusterConfig) -> list[dict[str, Any]]:
    client = kafka.for_cluster(cfg)
    listings = client.list_groups()
    ids = [g.group_id for g in listings]
    descriptions = client.describe_groups(ids)
    committed = client.committed_offsets(dict.fromkeys(ids))
    tps = sorted({tp for offsets in committed.values() for tp in offsets})
    ends = offsets_or_none(client.list_offsets(tps, "latest"))
    rows = []
    for listing in listings:
        desc = descriptions.get(listing.group_id)
        offsets = committed.get(listing.group_id, {})
        assigned = {tp for m in (desc.members if desc else []) for tp in m.assignments}
        lags = [lag_of(o, ends.get(tp)) for tp, o in offsets.items()]
        known = [lag for lag in lags if lag is not None]
        rows.append(
            {
                "group_id": listing.group_id,
                "state": desc.state if desc else listing.state,
                "protocol_type": desc.protocol_type if desc else "",
                "member_count": len(desc.members) if desc else 0,
                "topics": sorted({t for t, _ in offsets} | {t for t, _ in assigned}),
                "total_lag": sum(known) if known else None,
                "max_lag": max(known) if known else None,
                "max_lag_seconds": None,
                "status": UNKNOWN,
            }
        )
    return rows


def group_detail(cfg: ClusterConfig, group_id: str) -> dict[str, Any]:
    client = kafka.for_cluster(cfg)
    desc = client.describe_groups([group_id])[group_id]
    committed = client.committed_offsets({group_id: None})[group_id]
    if not desc.exists and not committed:
        raise NotFound(f"Consumer group {group_id!r} does not exist.", code="group_not_found")
    owner = {tp: m.member_id for m in desc.members for tp in m.assignments}
    tps = sorted(set(committed) | set(owner))
    ends = offsets_or_none(client.list_offsets(tps, "latest"))
    starts = offsets_or_none(client.list_offsets(tps, "earliest"))
    offsets = []
    for tp in tps:
        offsets.append(
            {
                "topic": tp[0],
                "partition": tp[1],
                "committed_offset": committed.get(tp),
                "log_start_offset": starts.get(tp),
                "log_end_offset": ends.get(tp),
                "lag": lag_of(committed.get(tp), ends.get(tp)),
                "lag_seconds": None,
                "member_id": owner.get(tp),
                "status": UNKNOWN,
            }
        )
    known = [row["lag"] for row in offsets if row["lag"] is not None]
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
        "status": UNKNOWN,
    }


def committed_for_export(cfg: ClusterConfig, group_id: str) -> dict[TP, int | None]:
    client = kafka.for_cluster(cfg)
    committed = client.committed_offsets({group_id: None})[group_id]
    if not committed:
        if not client.describe_groups([group_id])[group_id].exists:
            raise NotFound(f"Consumer group {group_id!r} does not exist.", code="group_not_found")
    return committed
