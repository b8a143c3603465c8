"""Changes to a consumer group other than its offsets, and the activity check they share."""

from __future__ import annotations

from console import kafka
from console.clusters import ClusterConfig
from console.errors import Conflict, NotFound

INACTIVE_STATES = ("Empty", "Dead")


def describe_group(cfg: ClusterConfig, group_id: str) -> kafka.GroupDescription:
    return kafka.for_cluster(cfg).describe_groups([group_id])[group_id]


def is_inactive(group: kafka.GroupDescription) -> bool:
    return group.state in INACTIVE_STATES and not group.members


def refuse_if_active(group: kafka.GroupDescription) -> None:
    """409 unless the group is inactive: offsets and groups change only while nobody consumes."""
    if not is_inactive(group):
        count = len(group.members)
        raise Conflict(
            f"Group {group.group_id!r} is {group.state} with {count} "
            f"member{'s' if count != 1 else ''}; this is only allowed while it is inactive "
            "(stop its consumers first).",
            code="group_active",
            details={"state": group.state, "member_count": count},
        )


def delete_group(cfg: ClusterConfig, group_id: str) -> None:
    """Delete an inactive group (its committed offsets go with it)."""
    desc = describe_group(cfg, group_id)
    if not desc.exists:
        raise NotFound(f"Consumer group {group_id!r} does not exist.", code="group_not_found")
    refuse_if_active(desc)
    kafka.for_cluster(cfg).delete_group(group_id)
