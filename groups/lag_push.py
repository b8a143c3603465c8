"""Live lag over Channels: group names, the messages sockets receive, and the sampler's publish.

Per pass the sampler sends one message to each consumer group's Channels group and one to the
cluster's Channels group carrying every group's message, so the cost of a pass does not grow
with the number of open pages (each socket joins either its groups or the cluster's).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

PARTITION_FIELDS = (
    "topic",
    "partition",
    "committed_offset",
    "log_end_offset",
    "lag",
    "lag_seconds",
    "status",
    "retention_risk",
)


def _h(text: str, size: int) -> str:
    return hashlib.sha1(text.encode("utf-8", "backslashreplace")).hexdigest()[:size]


def cluster_channel(cluster: str) -> str:
    """Channels group names are short ASCII: names are hashed (they may hold any text)."""
    return f"lag.{_h(cluster, 16)}"


def group_channel(cluster: str, group_id: str) -> str:
    return f"{cluster_channel(cluster)}.{_h(group_id, 24)}"


def iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat()


def lag_message(evaluation: dict[str, Any]) -> dict[str, Any]:
    """The `lag` message of one group, from its stored evaluation (docs/api.md)."""
    return {
        "type": "lag",
        "group_id": evaluation["group_id"],
        "ts": iso(evaluation.get("ts")),
        "state": evaluation.get("state"),
        "member_count": evaluation.get("member_count"),
        "status": evaluation.get("status"),
        "total_lag": evaluation.get("total_lag"),
        "max_lag": evaluation.get("max_lag"),
        "max_lag_seconds": evaluation.get("max_lag_seconds"),
        "catch_up_seconds": evaluation.get("catch_up_seconds"),
        "retention_risk": evaluation.get("retention_risk"),
        "topics": evaluation.get("topics", {}),
        "partitions": [
            {k: p.get(k) for k in PARTITION_FIELDS} for p in evaluation.get("partitions", [])
        ],
    }


def _members(evaluation: dict[str, Any]) -> list[str]:
    return sorted({p["member_id"] for p in evaluation.get("partitions", []) if p.get("member_id")})


def state_changes(
    previous: dict[str, dict[str, Any]] | None, current: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """group id -> `group_state` message for groups whose state or membership changed since
    the previous pass, that appeared, or that disappeared (then state `Dead`)."""
    if previous is None:
        return {}
    out = {}
    for group, now in current.items():
        before = previous.get(group)
        key = (now.get("state"), now.get("member_count"), _members(now))
        if before is None or key != (
            before.get("state"),
            before.get("member_count"),
            _members(before),
        ):
            out[group] = {
                "type": "group_state",
                "group_id": group,
                "ts": iso(now.get("ts")),
                "state": now.get("state"),
                "previous_state": before.get("state") if before else None,
                "member_count": now.get("member_count"),
                "members": _members(now),
            }
    ts = max((e.get("ts") or 0.0 for e in current.values()), default=None)
    for group in set(previous) - set(current):
        out[group] = {
            "type": "group_state",
            "group_id": group,
            "ts": iso(ts),
            "state": "Dead",
            "previous_state": previous[group].get("state"),
            "member_count": 0,
            "members": [],
        }
    return out


def publish_lag(
    cluster: str,
    evaluations: dict[str, dict[str, Any]],
    previous: dict[str, dict[str, Any]] | None,
) -> int:
    """Send this pass to open sockets; the number of sends (0 when the layer is down: the
    sampler goes on, pages show that live updates paused)."""
    layer = get_channel_layer()
    if layer is None:
        return 0
    changes = state_changes(previous, evaluations)
    per_group: dict[str, list[dict[str, Any]]] = {
        group: [lag_message(e)] for group, e in evaluations.items()
    }
    for group, change in changes.items():
        per_group.setdefault(group, []).insert(0, change)
    sends = 0
    try:
        send = async_to_sync(layer.group_send)
        for group, messages in per_group.items():
            send(group_channel(cluster, group), {"type": "lag.sample", "messages": messages})
            sends += 1
        batch = [m for messages in per_group.values() for m in messages]
        send(cluster_channel(cluster), {"type": "lag.batch", "messages": batch})
        return sends + 1
    except Exception as exc:  # noqa: BLE001 (Redis down or full: never stop the sampler)
        log.warning("%s: live lag not pushed: %s", cluster, exc)
        return sends
