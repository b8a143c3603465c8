"""Live lag over Channels: group names, the messages sockets receive, and the sampler's publish.

Per pass the sampler sends one event to each consumer group's Channels group and one to the
cluster's Channels group carrying every group's messages. A socket joins either the groups it
shows or the cluster's group ("all"), so a pass costs the same however many pages are open.
The messages are the API's (docs/api.md, "WebSockets"), built from the stored evaluation
(docs/live-lag.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from datetime import UTC, datetime
from typing import Any

from console import push
from groups.lag import store

log = logging.getLogger(__name__)

# Channels event types; the consumer's handlers are these with "." -> "_".
SAMPLE_EVENT = "lag.sample"
BATCH_EVENT = "lag.batch"
# An event's "messages" are [group id, the message's JSON text] pairs: each message is encoded
# once here, not once per socket by every web server (with 500 sockets on a group, encoding
# and decoding the nested messages was a third of daphne's time per pass).

GROUP_FIELDS = (
    "total_lag",
    "max_lag",
    "max_lag_seconds",
    "status",
    "state",
    "member_count",
    "catch_up_seconds",
    "retention_risk",
    "retention_reason",
)
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


def _digest(text: str, size: int) -> str:
    # Names may hold any text (even lone surrogates); Channels wants short ASCII.
    return hashlib.sha1(text.encode("utf-8", "backslashreplace")).hexdigest()[:size]


@functools.lru_cache(maxsize=64)
def cluster_channel(cluster: str) -> str:
    """The Channels group of every consumer group of a cluster ("all" subscriptions)."""
    return f"lag.{_digest(cluster, 16)}"


# Named for every group on every pass (twice or more): two SHA-1s each were 0.05 s of a
# 20,000-group pass.
@functools.lru_cache(maxsize=1 << 18)
def group_channel(cluster: str, group_id: str) -> str:
    """The Channels group of one consumer group (46 ASCII characters)."""
    return f"lag.{_digest(cluster, 16)}.{_digest(group_id, 24)}"


def iso(ts: object) -> str | None:
    """Epoch seconds as ISO-8601 UTC with an offset (the API's date-times); None if unknown."""
    if isinstance(ts, bool) or not isinstance(ts, int | float):
        return None
    try:
        return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds")
    except (OverflowError, OSError, ValueError):
        return None


def lag_message(evaluation: dict[str, Any]) -> dict[str, Any]:
    """The `lag` message of one group, from its stored evaluation.

    Partitions keep only what a page shows (members, hosts and the lag-seconds method stay
    in the REST detail)."""
    return {
        "type": "lag",
        "group_id": evaluation.get("group_id"),
        "ts": iso(evaluation.get("ts")),
        **{name: evaluation.get(name) for name in GROUP_FIELDS},
        "topics": evaluation.get("topics") or {},
        "partitions": [
            {name: p.get(name) for name in PARTITION_FIELDS}
            for p in evaluation.get("partitions") or []
            if isinstance(p, dict)
        ],
    }


def _members(evaluation: dict[str, Any]) -> list[str] | None:
    """The group's member ids, or None when the evaluation cannot tell all of them.

    The evaluation names a member only on the partitions it owns, so the list is given only
    when those account for every member (a member without partitions would be missing)."""
    count = evaluation.get("member_count")
    owners = {
        p["member_id"]
        for p in evaluation.get("partitions") or []
        if isinstance(p, dict) and isinstance(p.get("member_id"), str) and p["member_id"]
    }
    return sorted(owners) if isinstance(count, int) and len(owners) == count else None


def state_changes(
    previous: dict[str, dict[str, Any]], current: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """`group_state` messages for the groups whose state or member count changed between two
    passes, that appeared (`previous_state` null) or disappeared (state `Dead`)."""
    out: list[dict[str, Any]] = []
    for group in sorted(current):
        now, before = current[group], previous.get(group)
        if before is not None and (before.get("state"), before.get("member_count")) == (
            now.get("state"),
            now.get("member_count"),
        ):
            continue
        message = {
            "type": "group_state",
            "group_id": group,
            "ts": iso(now.get("ts")),
            "state": now.get("state"),
            "member_count": now.get("member_count"),
            "previous_state": None if before is None else before.get("state"),
        }
        members = _members(now)
        if members is not None:
            message["members"] = members
        out.append(message)
    # A group that is gone was seen gone at this pass's time.
    times = [e["ts"] for e in current.values() if isinstance(e.get("ts"), int | float)]
    gone_at = iso(max(times)) if times else iso(datetime.now(UTC).timestamp())
    for group in sorted(set(previous) - set(current)):
        out.append(
            {
                "type": "group_state",
                "group_id": group,
                "ts": gone_at,
                "state": "Dead",
                "member_count": 0,
                "members": [],
                "previous_state": previous[group].get("state"),
            }
        )
    return out


def encode(message: dict[str, Any]) -> list[str]:
    """A message as events carry it: [its group id, its JSON text]."""
    return [message["group_id"], store.json_text(message)]  # lone surrogates too


def decode(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of an event, as objects (for tests and listeners that read them)."""
    return [json.loads(text) for _, text in event.get("messages") or []]


def pass_events(
    cluster: str,
    evaluations: dict[str, dict[str, Any]],
    previous: dict[str, dict[str, Any]] | None,
    occupied: set[str] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """(Channels group, event) pairs of one pass: one per consumer group (its `group_state`,
    if any, before its `lag`), then the cluster's batch of all of them. With `occupied` (the
    Channels groups that have a socket), only the events someone receives are made."""
    everything = occupied is None or cluster_channel(cluster) in occupied

    def wanted(group: str) -> bool:
        return everything or group_channel(cluster, group) in occupied  # type: ignore[operator]

    per_group: dict[str, list[list[str]]] = {}
    # No previous pass (the sampler just started): every group would "appear"; say nothing.
    for change in state_changes(previous, evaluations) if previous is not None else []:
        if wanted(change["group_id"]):
            per_group.setdefault(change["group_id"], []).append(encode(change))
    for group, evaluation in evaluations.items():
        if wanted(group):
            message = {**lag_message(evaluation), "group_id": group}
            per_group.setdefault(group, []).append(encode(message))
    events = [
        (group_channel(cluster, group), {"type": SAMPLE_EVENT, "group_id": group, "messages": m})
        for group, m in sorted(per_group.items())
        if occupied is None or group_channel(cluster, group) in occupied
    ]
    if per_group and (occupied is None or cluster_channel(cluster) in occupied):
        batch = [message for _, m in sorted(per_group.items()) for message in m]
        events.append((cluster_channel(cluster), {"type": BATCH_EVENT, "messages": batch}))
    return events


def pass_channels(
    cluster: str,
    evaluations: dict[str, dict[str, Any]],
    previous: dict[str, dict[str, Any]] | None,
) -> list[str]:
    """Every Channels group a pass may send to (each group's, also of groups gone since the
    last pass, and the cluster's)."""
    groups = set(evaluations) | set(previous or ())
    return [*(group_channel(cluster, g) for g in sorted(groups)), cluster_channel(cluster)]


def publish_lag(
    cluster: str,
    evaluations: dict[str, dict[str, Any]],
    previous: dict[str, dict[str, Any]] | None,
) -> int:
    """Push one pass to open sockets (sync: the sampler's thread); the number of sends made.

    `evaluations` is this pass's group -> evaluation, `previous` the last pass's (None on the
    first pass). Never raises: with the channel layer or Redis down it logs a warning and
    returns what was sent (0), so the sampler goes on and pages see `live: false` and poll.
    """
    try:
        names = pass_channels(cluster, evaluations, previous)
    except Exception as exc:  # noqa: BLE001 (the sampler must not die of a push)
        log.warning("%s: live lag not pushed: %r", cluster, exc)
        return 0
    return push.send_to_occupied(
        names,
        lambda occupied: pass_events(cluster, evaluations, previous, occupied),
        f"{cluster}: live lag",
    )
