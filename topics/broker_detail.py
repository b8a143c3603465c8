"""One broker in depth: its log directories and replica sizes, its configs with their
sources, and the API versions it speaks (what kafka-log-dirs.sh --describe, kafka-configs.sh
--describe --all --entity-type brokers and kafka-broker-api-versions.sh show)."""

from __future__ import annotations

from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import NotFound
from console.kafka.api_names import api_name
from topics.cluster_overview import cluster_brokers
from topics.listing import config_entries

# The error codes a log directory can carry (DescribeLogDirs), by their Kafka names.
_DIR_ERRORS = {56: "KAFKA_STORAGE_ERROR", 57: "LOG_DIR_NOT_FOUND"}


def dir_error(code: int) -> str | None:
    """A log directory's error as Kafka names it; None when the directory is fine."""
    if not code:
        return None
    return _DIR_ERRORS.get(code, f"error code {code}")


def log_dir_rows(dirs: list[kafka.LogDir]) -> list[dict[str, Any]]:
    return [
        {
            "path": d.path,
            "total_bytes": d.total_bytes,
            "usable_bytes": d.usable_bytes,
            "error": dir_error(d.error),
            "replicas": [
                {
                    "topic": r.topic,
                    "partition": r.partition,
                    "size_bytes": r.size_bytes,
                    "offset_lag": r.offset_lag,
                    "is_future": r.is_future,
                }
                for r in d.replicas
            ],
        }
        for d in dirs
    ]


def api_version_rows(versions: dict[int, tuple[int, int]]) -> list[dict[str, Any]]:
    return [
        {"key": key, "api": api_name(key), "min": low, "max": high}
        for key, (low, high) in sorted(versions.items())
    ]


def broker_detail(cfg: ClusterConfig, broker_id: int) -> dict[str, Any]:
    """The broker's row (as in the brokers list) with its log dirs, configs and API versions.

    The log directories are asked of the broker itself; when it cannot answer them (a broker
    older than Kafka 3.3 does not speak DescribeLogDirs v4) the rest of the page still shows,
    with `log_dirs_error` saying why."""
    row = next((b for b in cluster_brokers(cfg) if b["id"] == broker_id), None)
    if row is None:
        raise NotFound(
            f"Broker {broker_id} is not a live broker of cluster {cfg.name!r}.",
            code="broker_not_found",
        )
    client = kafka.for_cluster(cfg)
    answer = client.describe_log_dirs([broker_id]).get(broker_id)
    dirs_error = answer.message if isinstance(answer, kafka.KafkaAdapterError) else None
    dirs = answer if isinstance(answer, list) else []
    return {
        **row,
        "log_dirs": log_dir_rows(dirs),
        "log_dirs_error": dirs_error,
        "configs": config_entries(client.describe_broker_configs(broker_id)),
        "api_versions": api_version_rows(client.broker_api_versions(broker_id)),
    }
