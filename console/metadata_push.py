"""Cluster metadata changes pushed to open pages: brokers gone or back, leaders, ISR.

The lag sampler takes a fresh snapshot each pass and calls `metadata_changes` with the
previous one; only a change is published, to one Channels group per cluster, so pages showing
brokers, topics or the leadership map refetch when something moved instead of polling fast.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from console.metadata import ClusterSnapshot

log = logging.getLogger(__name__)


def metadata_channel(cluster: str) -> str:
    return "meta." + hashlib.sha1(cluster.encode("utf-8", "backslashreplace")).hexdigest()[:16]


def _brokers(snapshot: ClusterSnapshot) -> list[dict[str, Any]]:
    controller = snapshot.description.controller_id
    return [
        {
            "id": b.id,
            "host": b.host,
            "port": b.port,
            "rack": b.rack,
            "is_controller": b.id == controller,
        }
        for b in sorted(snapshot.description.brokers, key=lambda b: b.id)
    ]


def _placement(snapshot: ClusterSnapshot) -> dict[tuple[str, int], tuple[int | None, list[int]]]:
    return {
        (name, p.partition): (p.leader, sorted(p.isr))
        for name, topic in snapshot.topics.items()
        for p in topic.partitions
    }


def metadata_changes(
    previous: ClusterSnapshot | None, current: ClusterSnapshot
) -> dict[str, Any] | None:
    """The `metadata` message when brokers, the controller, topics, a leader or an ISR changed
    between two snapshots; None when nothing did (or there is nothing to compare with)."""
    if previous is None:
        return None
    before, after = _placement(previous), _placement(current)
    changes = [
        {"topic": t, "partition": p, "leader": leader, "isr": isr}
        for (t, p), (leader, isr) in sorted(after.items())
        if (t, p) in before and before[(t, p)] != (leader, isr)
    ]
    added = sorted(set(current.topics) - set(previous.topics))
    removed = sorted(set(previous.topics) - set(current.topics))
    brokers_changed = _brokers(previous) != _brokers(current)
    if not (changes or added or removed or brokers_changed):
        return None
    return {
        "type": "metadata",
        "ts": datetime.fromtimestamp(time.time(), UTC).isoformat(),
        "brokers": _brokers(current),
        "changes": changes,
        "topics_added": added,
        "topics_removed": removed,
    }


def publish_metadata(cluster: str, message: dict[str, Any]) -> bool:
    """Send a change to the cluster's metadata sockets; False when the layer is down."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(
            metadata_channel(cluster), {"type": "metadata.change", "message": message}
        )
        return True
    except Exception as exc:  # noqa: BLE001 (Redis down: pages fall back to polling)
        log.warning("%s: metadata change not pushed: %s", cluster, exc)
        return False
