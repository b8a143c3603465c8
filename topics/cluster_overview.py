"""Clusters and their brokers: who is alive, who is the controller, who leads what."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.metadata import cache
from topics import sizes

# Listing several clusters must not take N x timeout when some are down.
_LIST_PROBE_TIMEOUT_S = 3.0


def _cluster_fields(cfg: ClusterConfig, desc: kafka.ClusterDescription | None) -> dict[str, Any]:
    return {
        "name": cfg.name,
        "bootstrap_servers": cfg.bootstrap_servers,
        "cluster_id": desc.cluster_id if desc else None,
        "controller_id": desc.controller_id if desc else None,
        "broker_count": len(desc.brokers) if desc else None,
        "reachable": desc is not None,
        "protected": cfg.protected,
    }


def same_cluster_as(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with `same_cluster_as`: the names of the other rows (in their order, the
    registry's) whose Kafka cluster id is its own. Registry entries may reach one cluster
    another way (the dev stack's `local` over PLAINTEXT and `local-secure` over SASL_SSL);
    an unreachable one (no id) is alone."""
    by_id: dict[str, list[str]] = {}
    for row in rows:
        if row["cluster_id"] is not None:
            by_id.setdefault(row["cluster_id"], []).append(row["name"])
    return [
        {
            **row,
            "same_cluster_as": [n for n in by_id.get(row["cluster_id"], []) if n != row["name"]],
        }
        for row in rows
    ]


def list_clusters(configs: list[ClusterConfig]) -> list[dict[str, Any]]:
    """Every registered cluster; an unreachable one is listed with `reachable: false`, and
    entries reaching the same Kafka cluster name each other (`same_cluster_as`)."""

    def probe(cfg: ClusterConfig) -> dict[str, Any]:
        try:
            desc = kafka.for_cluster(cfg, timeout=_LIST_PROBE_TIMEOUT_S).describe_cluster()
            return _cluster_fields(cfg, desc)
        except kafka.KafkaAdapterError:
            return _cluster_fields(cfg, None)

    with ThreadPoolExecutor(max_workers=max(1, min(8, len(configs)))) as pool:
        return same_cluster_as(list(pool.map(probe, configs)))


def broker_rows(
    desc: kafka.ClusterDescription, topics: list[kafka.TopicMeta]
) -> list[dict[str, Any]]:
    """Live brokers with the partitions they lead and the replicas they host.

    librdkafka does not expose a partition's offline replicas, so a replica counts as
    offline when its partition has no leader at all (then no replica of it can serve).
    """
    leaders: Counter[int] = Counter()
    replicas: Counter[int] = Counter()
    offline: Counter[int] = Counter()
    for topic in topics:
        for part in topic.partitions:
            if part.leader is not None:
                leaders[part.leader] += 1
            for replica in part.replicas:
                replicas[replica] += 1
                if part.leader is None:
                    offline[replica] += 1
    return [
        {
            "id": b.id,
            "host": b.host,
            "port": b.port,
            "rack": b.rack,
            "is_controller": b.id == desc.controller_id,
            "leader_count": leaders[b.id],
            "replica_count": replicas[b.id],
            "offline_replica_count": offline[b.id],
        }
        for b in desc.brokers
    ]


def cluster_brokers(cfg: ClusterConfig) -> list[dict[str, Any]]:
    snap = cache.snapshot(cfg)
    return broker_rows(snap.description, list(snap.topics.values()))


def cluster_detail(cfg: ClusterConfig) -> dict[str, Any]:
    """The cluster with its brokers, each with its disk use and the bytes it holds (from the
    size cache, topics.sizes: null while Kafka does not answer them)."""
    snap = cache.snapshot(cfg)
    rows = broker_rows(snap.description, list(snap.topics.values()))
    held = sizes.sizes_or_none(cfg, snap)
    rows = [{**row, **sizes.broker_disk_fields(held, row["id"])} for row in rows]
    return {**_cluster_fields(cfg, snap.description), "brokers": rows}
