"""Cluster metadata pushed to open pages: brokers gone or back, the controller, leaders, ISR.

A `MetadataWatcher` (run by the lag sampler process on its own thread per cluster, so a
slow lag pass never delays it) takes a snapshot every interval and compares it with the
previous one; only a change is published, to one Channels group per cluster, so pages that
show brokers, topics or leadership refetch when something moved instead of polling fast.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import UTC, datetime
from typing import Any

from console import kafka, push
from console.clusters import ClusterConfig
from console.kafka import TopicMeta
from console.metadata import ClusterSnapshot, cache

log = logging.getLogger(__name__)

# Channels event type; MetadataConsumer.metadata_change handles it.
CHANGE_EVENT = "metadata.change"


def metadata_channel(cluster: str) -> str:
    # Cluster names are free text to Channels, which wants short ASCII group names.
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


def _placement(topic: TopicMeta | None) -> dict[int, tuple[int | None, list[int]]]:
    # ISR order carries no meaning: compared (and reported) sorted.
    if topic is None:
        return {}
    return {p.partition: (p.leader, sorted(p.isr)) for p in topic.partitions}


def metadata_changes(
    previous: ClusterSnapshot | None, current: ClusterSnapshot, now: float | None = None
) -> dict[str, Any] | None:
    """The `metadata` message when, between two snapshots, a broker left, returned or moved,
    the controller changed, a topic was created or deleted, or a partition's leader or ISR
    changed (a partition added to a topic counts as a change); None when nothing did or
    there is no previous snapshot. `now` (epoch seconds) is the message's time."""
    if previous is None:
        return None
    old_topics, new_topics = set(previous.topics), set(current.topics)
    changes: list[dict[str, Any]] = []
    for name in sorted(new_topics & old_topics):
        topic, before = current.topics[name], previous.topics[name]
        if topic == before:  # the common case, and cheap: nothing to sort
            continue
        old = _placement(before)
        changes.extend(
            {"topic": name, "partition": partition, "leader": leader, "isr": isr}
            for partition, (leader, isr) in sorted(_placement(topic).items())
            if old.get(partition) != (leader, isr)
        )
    added, removed = sorted(new_topics - old_topics), sorted(old_topics - new_topics)
    brokers = _brokers(current)
    if not changes and not added and not removed and brokers == _brokers(previous):
        return None
    at = time.time() if now is None else now
    return {
        "type": "metadata",
        "ts": datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds"),
        "brokers": brokers,
        "changes": changes,
        "topics_added": added,
        "topics_removed": removed,
    }


def publish_metadata(cluster: str, message: dict[str, Any], asked_at: float = 0.0) -> bool:
    """Send a `metadata` message to the cluster's sockets (sync: the sampler's thread);
    whether it was sent. Never raises: with the layer or Redis down it logs a warning.
    `asked_at`: when the sampler asked for the snapshot showing the change; web servers drop
    older snapshots on receipt, so the page's refetch sees the change."""
    event = {"type": CHANGE_EVENT, "message": message, "asked_at": asked_at}
    return push.send_to_groups([(metadata_channel(cluster), event)], f"{cluster}: metadata") == 1


class MetadataWatcher:
    """One cluster's metadata, snapshot after snapshot; each change pushed to open pages."""

    def __init__(self, cfg: ClusterConfig):
        self.cfg = cfg
        self.previous: ClusterSnapshot | None = None

    def forget(self) -> None:
        """Start over (the next snapshot is a baseline, not a change): the lease was lost."""
        self.previous = None

    def tick(self) -> dict[str, Any] | None:
        """Take a fresh snapshot; the `metadata` message pushed for it, if anything changed.
        Kafka unreachable: nothing pushed, and the last snapshot stays the baseline."""
        try:
            snapshot = cache.snapshot(self.cfg, max_age=0)
        except kafka.KafkaAdapterError as exc:
            log.info("%s: no metadata snapshot: %s", self.cfg.name, exc)
            return None
        message = metadata_changes(self.previous, snapshot)
        self.previous = snapshot
        if message is not None:
            publish_metadata(self.cfg.name, message, snapshot.asked_at)
        return message
