"""Topic list rows and topic detail, assembled from the shared metadata snapshot."""

from __future__ import annotations

import time
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.metadata import ClusterSnapshot, TopicSettings, cache, parse_min_isr
from groups.lag.readers import topic_readers
from topics import sizes
from topics.health import FILTERS, config_warnings, offline_replicas, partition_health


def _replication_factor(topic: kafka.TopicMeta) -> int:
    return len(topic.partitions[0].replicas) if topic.partitions else 0


def _config_warnings(topic: kafka.TopicMeta, min_isr: int) -> list[dict[str, str]]:
    replica_counts = {p.partition: len(p.replicas) for p in topic.partitions}
    return [w.as_dict() for w in config_warnings(replica_counts, min_isr)]


def topic_row(topic: kafka.TopicMeta, live: frozenset[int], min_isr: int) -> dict[str, Any]:
    """The four counts are TopicCommand's filters, unchanged; `min_isr_unreachable_count` are
    the partitions with fewer replicas than min ISR (a configuration problem, counted in
    `under_min_isr_count` too) and `under_min_isr_outage_count` the other under-min-ISR ones."""
    counts = dict.fromkeys(FILTERS, 0)
    unreachable = outage = 0
    for part in topic.partitions:
        health = partition_health(part.replicas, part.isr, part.leader, live, min_isr)
        for flag in FILTERS:
            counts[flag] += health.matches(flag)
        unreachable += health.min_isr_unreachable
        outage += health.under_min_isr_outage
    return {
        "name": topic.name,
        "internal": topic.internal,
        "partition_count": len(topic.partitions),
        "replication_factor": _replication_factor(topic),
        "under_replicated_count": counts["under_replicated"],
        "under_min_isr_count": counts["under_min_isr"],
        "at_min_isr_count": counts["at_min_isr"],
        "unavailable_count": counts["unavailable"],
        "min_isr_unreachable": unreachable > 0,
        "min_isr_unreachable_count": unreachable,
        "under_min_isr_outage_count": outage,
        "config_warnings": _config_warnings(topic, min_isr) if unreachable else [],
    }


def list_row(
    topic: kafka.TopicMeta,
    live: frozenset[int],
    setting: TopicSettings | None,
    cluster_sizes: sizes.ClusterSizes | None,
    readers: dict[str, list[dict[str, Any]]] | None,
) -> dict[str, Any]:
    """A topic's row in the list: health counts, sizes and how many groups read it."""
    row = topic_row(topic, live, setting.min_isr if setting else 1)
    row.update(_size_fields(topic, cluster_sizes, bool(setting and setting.compacted)))
    row["reader_groups"] = None if readers is None else len(readers.get(topic.name, []))
    return row


def list_topics(
    cfg: ClusterConfig,
    include_internal: bool = False,
    health_filter: str | None = None,
    search: str | None = None,
) -> list[dict[str, Any]]:
    if health_filter is not None and health_filter not in FILTERS:
        raise BadInput("filter", f"filter: must be one of {', '.join(FILTERS)}.")
    snap = cache.snapshot(cfg)
    topics = [
        t
        for t in snap.topics.values()
        if (include_internal or not t.internal) and (not search or search.lower() in t.name.lower())
    ]
    settings = cache.topic_settings(cfg, [t.name for t in topics])
    cluster_sizes = sizes.sizes_or_none(cfg, snap)
    readers = topic_readers(cfg.name)
    rows = [
        list_row(t, snap.live_broker_ids, settings.get(t.name), cluster_sizes, readers)
        for t in sorted(topics, key=lambda t: t.name)
    ]
    if health_filter:
        rows = [r for r in rows if r[f"{health_filter}_count"] > 0]
    return rows


_UNKNOWN_SIZES = {
    "size_bytes": None,
    "replicas_size_bytes": None,
    "message_count": None,
    "message_count_is_upper_bound": False,
}


def _size_fields(
    topic: kafka.TopicMeta, cluster_sizes: sizes.ClusterSizes | None, compacted: bool
) -> dict[str, Any]:
    if cluster_sizes is None:
        return dict(_UNKNOWN_SIZES, message_count_is_upper_bound=compacted)
    return sizes.topic_size_fields(topic, cluster_sizes, compacted)


def get_topic_meta(snap: ClusterSnapshot, name: str) -> kafka.TopicMeta:
    topic = snap.topic(name)
    if topic is None:
        raise NotFound(f"Topic {name!r} does not exist.", code="topic_not_found")
    return topic


def _offset(result: Any) -> int | None:
    return result.offset if isinstance(result, kafka.OffsetResult) else None


def partition_rows(
    topic: kafka.TopicMeta,
    live: frozenset[int],
    min_isr: int,
    starts: dict[tuple[str, int], Any],
    ends: dict[tuple[str, int], Any],
) -> list[dict[str, Any]]:
    rows = []
    for part in topic.partitions:
        health = partition_health(part.replicas, part.isr, part.leader, live, min_isr)
        key = (topic.name, part.partition)
        preferred = part.replicas[0] if part.replicas else None
        rows.append(
            {
                "partition": part.partition,
                "leader": part.leader,
                "replicas": part.replicas,
                "isr": part.isr,
                "offline_replicas": offline_replicas(part.replicas, live),
                "preferred_leader": preferred,
                "is_preferred_leader": part.leader is not None and part.leader == preferred,
                "under_replicated": health.under_replicated,
                "under_min_isr": health.under_min_isr,
                "at_min_isr": health.at_min_isr,
                "unavailable": health.unavailable,
                "min_isr_unreachable": health.min_isr_unreachable,
                "log_start_offset": _offset(starts.get(key)),
                "log_end_offset": _offset(ends.get(key)),
            }
        )
    return rows


# A broker that has not caught up with the metadata yet answers DescribeConfigs for a topic
# it does not know with an error, right after the topic was created on another.
CONFIG_READ_ATTEMPTS = 15
CONFIG_READ_PAUSE_S = 0.2


def topic_configs(client: kafka.ClusterClient, name: str) -> dict[str, kafka.ConfigValue]:
    """The topic's effective configs. A topic the snapshot shows exists, so a missing answer
    is a broker behind on metadata: asked again for about 3 s, then a 504, never the defaults
    presented as the topic's (they said min.insync.replicas 1 for a topic created with 2)."""
    for attempt in range(CONFIG_READ_ATTEMPTS):
        found = client.describe_topic_configs([name]).get(name)
        if found:
            return found
        if attempt + 1 < CONFIG_READ_ATTEMPTS:
            time.sleep(CONFIG_READ_PAUSE_S)
    raise kafka.KafkaTimeout(
        f"The configs of topic {name!r} could not be read: the brokers asked do not know it "
        "yet. Try again in a moment.",
        code="kafka_timeout",
    )


def topic_detail(
    cfg: ClusterConfig,
    name: str,
    snap: ClusterSnapshot | None = None,
    configs: dict[str, kafka.ConfigValue] | None = None,
) -> dict[str, Any]:
    """A topic with its partitions and configs; a change passes the snapshot (and configs)
    it already waited for, so the answer costs no further Metadata request."""
    snap = snap or cache.snapshot(cfg)
    topic = get_topic_meta(snap, name)
    client = kafka.for_cluster(cfg)
    if configs is None:
        configs = topic_configs(client, name)
    min_isr_value = configs.get("min.insync.replicas")
    min_isr = parse_min_isr(min_isr_value.value if min_isr_value else None)
    tps = [(name, p.partition) for p in topic.partitions if p.leader is not None]
    starts = client.list_offsets(tps, "earliest")
    ends = client.list_offsets(tps, "latest")
    partitions = partition_rows(topic, snap.live_broker_ids, min_isr, starts, ends)
    cluster_sizes = sizes.sizes_or_none(cfg, snap)
    for part, row in zip(topic.partitions, partitions, strict=True):
        row["size_bytes"] = (
            sizes.partition_size(cluster_sizes, name, part) if cluster_sizes else None
        )
    policy = configs.get("cleanup.policy")
    compacted = "compact" in (policy.value or "") if policy else False
    readers = topic_readers(cfg.name)
    return {
        **_size_fields(topic, cluster_sizes, compacted),
        "readers": None if readers is None else readers.get(name, []),
        "name": topic.name,
        "internal": topic.internal,
        "partition_count": len(topic.partitions),
        "replication_factor": _replication_factor(topic),
        "min_insync_replicas": min_isr,
        "configs": {k: v.value for k, v in sorted(configs.items())},
        "config_entries": config_entries(configs),
        "partitions": partitions,
        "min_isr_unreachable": any(p["min_isr_unreachable"] for p in partitions),
        "config_warnings": _config_warnings(topic, min_isr),
        "live_brokers": sorted(snap.live_broker_ids),
    }


def config_entries(configs: dict[str, kafka.ConfigValue]) -> list[dict[str, Any]]:
    """Config values with their sources, by name (a sensitive value is already None)."""
    return [
        {
            "name": k,
            "value": v.value,
            "source": v.source,
            "is_default": v.is_default,
            "read_only": v.read_only,
            "sensitive": v.sensitive,
        }
        for k, v in sorted(configs.items())
    ]
