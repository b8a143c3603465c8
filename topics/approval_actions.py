"""Topic and broker changes on a protected cluster wait for a second admin: a delete, topic
and broker config changes, a raised partition count, a leader election. Config and partition
changes run only while what they were planned on holds (the keys' values, the partition
count); else 409."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from approvals import service as approval_service
from approvals.actions import Action, register
from approvals.models import ApprovalRequest
from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, Conflict
from console.metadata import cache
from topics import broker_configs, changes, listing

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


def ask_broker_change(
    user: Any, cfg: ClusterConfig, action: str, broker: int | None, body: Mapping[str, Any]
) -> ApprovalRequest:
    """On a protected cluster: checked now as the change itself would be, then held for a
    second admin with the values it was planned on. A secret's value would have to wait in
    the stored request (and be shown to the approver): refused instead, naming the key."""
    secrets = broker_configs.secret_keys(list(body["set"]))
    if secrets:
        raise BadInput(
            "set",
            f"set: {', '.join(secrets)} holds a secret, which a request for approval would "
            "have to store and show: on a protected cluster set it with kafka-configs.sh.",
        )
    current = broker_configs.check_request(cfg, broker, body["set"], body["delete"])
    keys = [*body["set"], *body["delete"]]
    where = "cluster-wide" if broker is None else f"on broker {broker}"
    plan = {**body, "broker": broker, "before": broker_configs.level_state(current, broker, keys)}
    summary = f"Change broker configs {where}: set {body['set']}, delete {body['delete']}."
    target = "all brokers" if broker is None else f"broker {broker}"
    return approval_service.ask(user, cfg, action, target, plan, summary)


def _broker_configs(cfg: ClusterConfig, plan: Mapping[str, Any], user: Any) -> Any:
    broker = plan["broker"]
    where = "cluster-wide" if broker is None else f"on broker {broker}"
    keys = [*plan["set"], *plan["delete"]]
    current = broker_configs.check_request(cfg, broker, plan["set"], plan["delete"])
    now = broker_configs.level_state(current, broker, keys)
    if now != plan["before"]:
        raise Conflict(
            f"The broker configs {where} changed since the request: ask again.",
            code="config_moved",
            details={"planned_on": plan["before"], "now": now},
        )
    return broker_configs.alter_broker_configs(cfg, broker, plan["set"], plan["delete"])


register(Action("topic.delete", "admin", _delete))
register(Action("topic.configs", "admin", _configs))
register(Action("topic.partitions", "admin", _partitions))
register(Action("leaders.elect", "admin", _elect))
register(Action("broker.configs", "admin", _broker_configs))
register(Action("broker.defaults", "admin", _broker_configs))
