"""Changing topics: create, delete, configs, partitions, leader elections.

Each change is checked here first (the errors name the field), then by Kafka with
`validate_only` where Kafka offers it, and only then made, so bad input changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from console import kafka
from console.api.limits import KRAFT_MAX_ADDED_PARTITIONS, KRAFT_MAX_NEW_TOPIC_PARTITIONS
from console.clusters import ClusterConfig
from console.errors import BadInput, Conflict, NotFound
from console.metadata import ClusterSnapshot, cache
from topics.listing import get_topic_meta
from topics.validation import check_topic_name

T = TypeVar("T")

# Kafka errors that mean the request itself is wrong, and the field they are about.
_BAD_INPUT_ERRORS = {
    "INVALID_CONFIG": "configs",
    "INVALID_REPLICATION_FACTOR": "replication_factor",
    "INVALID_PARTITIONS": "partitions",
    "INVALID_TOPIC_EXCEPTION": "name",
    "POLICY_VIOLATION": "configs",
    "INVALID_REQUEST": "body",
}


# Brokers apply metadata changes a moment after the controller accepts them; waiting this
# long for our own change to show makes the response (and the next page load) current.
VISIBLE_WITHIN_S = 10.0


def await_visible(read: Callable[[], T], done: Callable[[T], bool]) -> T | None:
    """Read until `done(value)` (bounded); the last value read, which callers answer with."""
    deadline = time.monotonic() + VISIBLE_WITHIN_S
    value: T | None = None
    while True:
        try:
            value = read()
            if done(value):
                return value
        except kafka.KafkaAdapterError:
            pass
        if time.monotonic() >= deadline:
            return value
        time.sleep(0.2)


def _fresh_snapshot(cfg: ClusterConfig) -> ClusterSnapshot:
    return cache.snapshot(cfg, max_age=0)


def _partition_count(snap: ClusterSnapshot, name: str) -> int:
    topic = snap.topics.get(name)
    return len(topic.partitions) if topic else 0


def _as_bad_input(exc: kafka.KafkaCallFailed, field: str | None = None) -> Exception:
    name = exc.kafka_error or ""
    if name == "TOPIC_ALREADY_EXISTS":
        return Conflict(exc.message, code="topic_exists")
    if name == "UNKNOWN_TOPIC_OR_PART":
        return NotFound(exc.message, code="topic_not_found")
    if name in _BAD_INPUT_ERRORS:
        target = field or _BAD_INPUT_ERRORS[name]
        return BadInput(target, f"{target}: {exc.message}")
    return exc


def create_topic(
    cfg: ClusterConfig,
    name: str,
    partitions: int,
    replication_factor: int,
    configs: Mapping[str, str],
) -> ClusterSnapshot | None:
    """Create a topic; the snapshot that shows it (None if it did not show in time)."""
    snap = cache.snapshot(cfg, max_age=0)
    check_topic_name(name, snap.topics)
    if name in snap.topics:
        raise Conflict(f"Topic {name!r} already exists.", code="topic_exists")
    if partitions < 1:
        raise BadInput("partitions", "partitions: must be at least 1.")
    live = len(snap.live_broker_ids)
    if replication_factor < 1:
        raise BadInput("replication_factor", "replication_factor: must be at least 1.")
    if replication_factor > live:
        raise BadInput(
            "replication_factor",
            f"replication_factor: {replication_factor} is more than the {live} live brokers.",
        )
    client = kafka.for_cluster(cfg)
    for step_validate_only in (True, False):
        try:
            client.create_topic(
                name, partitions, replication_factor, configs, validate_only=step_validate_only
            )
        except kafka.KafkaCallFailed as exc:
            if partitions > KRAFT_MAX_NEW_TOPIC_PARTITIONS:
                raise BadInput(
                    "partitions",
                    f"partitions: Kafka refused {partitions} ({exc.message}). A KRaft "
                    f"controller creates a topic with at most {KRAFT_MAX_NEW_TOPIC_PARTITIONS} "
                    f"partitions; create it with fewer, then add up to "
                    f"{KRAFT_MAX_ADDED_PARTITIONS} at a time.",
                ) from exc
            raise _as_bad_input(exc) from exc
    cache.invalidate(cfg.name, name)
    return await_visible(
        lambda: _fresh_snapshot(cfg), lambda s: _partition_count(s, name) == partitions
    )


def delete_topic(cfg: ClusterConfig, name: str) -> None:
    topic = get_topic_meta(cache.snapshot(cfg, max_age=0), name)
    if topic.internal:
        raise BadInput(
            "topic", f"topic: {name!r} is an internal Kafka topic and cannot be deleted."
        )
    try:
        kafka.for_cluster(cfg).delete_topics([name])
    except kafka.KafkaCallFailed as exc:
        raise _as_bad_input(exc) from exc
    cache.invalidate(cfg.name, name)
    await_visible(lambda: _fresh_snapshot(cfg), lambda s: _partition_count(s, name) == 0)


def alter_configs(
    cfg: ClusterConfig, name: str, set_configs: Mapping[str, str], delete: list[str]
) -> dict[str, kafka.ConfigValue] | None:
    """Set and delete config keys; the configs read back that show the change."""
    get_topic_meta(cache.snapshot(cfg), name)
    if not set_configs and not delete:
        raise BadInput("set", "set: give at least one config to set or delete.")
    both = sorted(set(set_configs) & set(delete))
    if both:
        raise BadInput("delete", f"delete: {', '.join(both)} cannot be both set and deleted.")
    client = kafka.for_cluster(cfg)
    for step_validate_only in (True, False):
        try:
            client.alter_topic_configs(name, set_configs, delete, validate_only=step_validate_only)
        except kafka.KafkaCallFailed as exc:
            raise _as_bad_input(exc, "set" if set_configs else "delete") from exc
    cache.invalidate(cfg.name, name)

    def applied(values: dict[str, kafka.ConfigValue]) -> bool:
        return all(
            values.get(k) and values[k].value == str(v) for k, v in set_configs.items()
        ) and all(k not in values or values[k].source != "DYNAMIC_TOPIC_CONFIG" for k in delete)

    return await_visible(lambda: client.describe_topic_configs([name]).get(name, {}), applied)


def add_partitions(cfg: ClusterConfig, name: str, count: int) -> ClusterSnapshot | None:
    """Raise the partition count; the snapshot that shows the new count."""
    topic = get_topic_meta(cache.snapshot(cfg, max_age=0), name)
    current = len(topic.partitions)
    if count < current:
        raise BadInput(
            "count",
            f"count: Kafka cannot decrease partitions; {name!r} has {current}, asked {count}.",
        )
    if count == current:
        raise BadInput("count", f"count: {name!r} already has {current} partitions.")
    client = kafka.for_cluster(cfg)
    for step_validate_only in (True, False):
        try:
            client.create_partitions(name, count, validate_only=step_validate_only)
        except kafka.KafkaCallFailed as exc:
            if count - current > KRAFT_MAX_ADDED_PARTITIONS:
                raise BadInput(
                    "count",
                    f"count: Kafka refused adding {count - current} partitions ({exc.message}). "
                    f"A KRaft controller adds at most {KRAFT_MAX_ADDED_PARTITIONS} in one "
                    f"request; raise the count to {current + KRAFT_MAX_ADDED_PARTITIONS} or "
                    "less, then again.",
                ) from exc
            raise _as_bad_input(exc, "count") from exc
    cache.invalidate(cfg.name, name)
    return await_visible(lambda: _fresh_snapshot(cfg), lambda s: _partition_count(s, name) == count)


def elect_leaders(
    cfg: ClusterConfig, election: str, partitions: list[tuple[str, int]] | None
) -> list[dict[str, Any]]:
    if election not in ("preferred", "unclean"):
        raise BadInput("election", "election: must be 'preferred' or 'unclean'.")
    snap = cache.snapshot(cfg, max_age=0)
    if partitions is not None:
        if not partitions:
            raise BadInput("partitions", "partitions: give at least one, or null for all.")
        for topic, partition in partitions:
            meta = snap.topic(topic, [partition])
            if meta is None:
                raise BadInput("partitions", f"partitions: topic {topic!r} does not exist.")
            if partition not in {p.partition for p in meta.partitions}:
                raise BadInput("partitions", f"partitions: {topic!r} has no partition {partition}.")
    results = kafka.for_cluster(cfg).elect_leaders(election, partitions)
    cache.invalidate(cfg.name)
    rows = []
    for (topic, partition), error in sorted(results.items()):
        if error is None:
            outcome = "elected"
        elif error.startswith("ELECTION_NOT_NEEDED"):
            outcome = "not_needed"
        else:
            outcome = "failed"
        rows.append({"topic": topic, "partition": partition, "outcome": outcome, "error": error})
    return rows
