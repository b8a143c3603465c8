"""Reassignment progress pushed to `/ws/clusters/{cluster}/reassignments/{id}`: the same body
`GET .../reassignments/{id}` answers, as `{"type": "reassignment", ...}`.

The worker's watcher publishes every running reassignment that a page watches on each pass
(every 2 s: the rate at which copied bytes and ISR are worth redrawing; the progress, which
costs Kafka calls, is read only when a socket is there) and once more when it ends; a change
made through the API (throttle, cancel) is published by the view that made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from console import push

PROGRESS_EVENT = "reassign.progress"  # ReassignmentConsumer.reassign_progress handles it


def reassignment_channel(reassignment_id: int) -> str:
    return f"reassign.{int(reassignment_id)}"


def message(detail: dict[str, Any]) -> dict[str, Any]:
    return {"type": "reassignment", **detail}


def publish(detail: dict[str, Any]) -> bool:
    """Send one reassignment's progress (`progress.detail`) to its sockets. Never raises."""
    event = {"type": PROGRESS_EVENT, "message": message(detail)}
    channel = reassignment_channel(detail["id"])
    return push.send_to_groups([(channel, event)], f"reassignment {detail['id']}") == 1


def publish_if_watched(reassignment_id: int, detail: Callable[[], dict[str, Any]]) -> int:
    """Like `publish`, but `detail` is called only when a socket watches this reassignment
    (or the channel layer cannot tell). Never raises; how many were sent."""
    channel = reassignment_channel(reassignment_id)

    def build(watched: set[str] | None) -> list[push.Event]:
        if watched is not None and channel not in watched:
            return []
        return [(channel, {"type": PROGRESS_EVENT, "message": message(detail())})]

    return push.send_to_occupied([channel], build, f"reassignment {reassignment_id}")
