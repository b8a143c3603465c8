"""Reassignment progress pushed to `/ws/clusters/{cluster}/reassignments/{id}`: the same body
`GET .../reassignments/{id}` answers, as `{"type": "reassignment", ...}`.

The worker's watcher publishes every running reassignment on each pass (every 2 s: the rate
at which copied bytes and ISR are worth redrawing) and once more when it ends; a change made
through the API (throttle, cancel) is published by the view that made it.
"""

from __future__ import annotations

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
