"""Topic changes on a protected cluster wait for a second admin: a delete, config changes, a
raised partition count, a leader election. Config and partition changes run only while what
they were planned on holds (the keys' values, the partition count); else 409."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from approvals.actions import Action, register
from console import kafka
from console.clusters import ClusterConfig
from console.errors import Conflict
from console.metadata import cache
from topics import changes, listing

DYNAMIC = "DYNAMIC_TOPIC_CONFIG"


def _delete(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    changes.delete_topic(cfg, plan["topic"])
    return {"deleted": plan["topic"]}


def config_state(cfg: ClusterConfig, topic: str, keys: Iterable[str]) -> dict[str, str | None]:
    """Each key's value set on the topic itself (None: not set there, a default applies)."""
    listing.get_topic_meta(cache.snapshot(cfg), topic)  # 404 for no such topic
    values = listing.topic_configs(kafka.for_cluster(cfg), topic)
    return {
        key: values[key].value if key in values and values[key].source == DYNAMIC else None
        for key in sorted(keys)
    }


def _configs(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    topic = plan["topic"]
    now = config_state(cfg, topic, plan["before"])
    if now != plan["before"]:
        raise Conflict(
            f"The configs of {topic} changed since the request: ask again.",
            code="config_moved",
            details={"planned_on": plan["before"], "now": now},
        )
    configs = changes.alter_configs(cfg, topic, plan["set"], plan["delete"])
    return listing.topic_detail(cfg, topic, configs=configs)


def partition_count(cfg: ClusterConfig, topic: str) -> int:
    return len(listing.get_topic_meta(cache.snapshot(cfg, max_age=0), topic).partitions)


def _partitions(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> dict[str, Any]:
    topic = plan["topic"]
    now = partition_count(cfg, topic)
    if now != plan["before"]:
        raise Conflict(
            f"{topic} has {now} partitions now, {plan['before']} when asked: ask again.",
            code="partitions_moved",
        )
    return listing.topic_detail(cfg, topic, changes.add_partitions(cfg, topic, plan["count"]))


def _elect(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> list[dict[str, Any]]:
    parts = plan["partitions"]
    refs = None if parts is None else [(p["topic"], p["partition"]) for p in parts]
    return changes.elect_leaders(cfg, plan["election"], refs)


register(Action("topic.delete", "admin", _delete))
register(Action("topic.configs", "admin", _configs))
register(Action("topic.partitions", "admin", _partitions))
register(Action("leaders.elect", "admin", _elect))
