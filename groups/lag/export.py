"""The lag export: one record per group per sampling pass into `LAG_EXPORT_TOPIC` of the
sampled cluster, for Spark's `lag-report` (docs/maintenance-pipeline.md).

Why a topic and not the Redis history: Spark reads a topic with its own Kafka source (on any
executor, with the cluster's security settings, no Redis client or network path to Redis
needed), the history is as long as the topic's retention (7 days by default) instead of
Redis' 24 hours of one point a minute, and a report can cover any period inside it at the
full sampling resolution.

Record: key = the group id (UTF-8), timestamp = the sample's time, value JSON
`{"cluster", "group", "ts" (epoch seconds), "interval_s", "status", "total_lag", "max_lag",
"max_lag_seconds", "topics": {name: {"lag", "max_lag_seconds", "status"}}}`.

Exporting never slows or breaks a pass: the pass hands its evaluations over and returns; the
records are built and produced on the exporter's thread (console.kafka.export).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import orjson
from django.conf import settings

from console import kafka
from console.clusters import ClusterConfig
from console.kafka.export import Record, TopicExporter

_exporters: dict[tuple[Any, str], TopicExporter] = {}
_lock = threading.Lock()


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:  # text orjson refuses (lone surrogates): escaped by json instead
        return json.dumps(value, separators=(",", ":")).encode()


def record_value(cluster: str, evaluation: Mapping[str, Any], interval_s: float) -> dict:
    """The exported value of one group's evaluation (groups.lag.evaluation)."""
    return {
        "cluster": cluster,
        "group": evaluation["group_id"],
        "ts": evaluation["ts"],
        "interval_s": interval_s,
        "status": evaluation["status"],
        "total_lag": evaluation["total_lag"],
        "max_lag": evaluation["max_lag"],
        "max_lag_seconds": evaluation["max_lag_seconds"],
        "topics": {
            name: {
                "lag": t.get("lag"),
                "max_lag_seconds": t.get("max_lag_seconds"),
                "status": t.get("status"),
            }
            for name, t in evaluation["topics"].items()
        },
    }


class PassRecords:
    """A pass's records, one per group, each made as the exporter iterates to produce it:
    made all at once, a 20,000-group pass's values held 80 MB while the next pass ran."""

    def __init__(
        self, cluster: str, evaluations: Mapping[str, Mapping[str, Any]], interval_s: float
    ) -> None:
        self.cluster, self.evaluations, self.interval_s = cluster, evaluations, interval_s

    def __len__(self) -> int:
        return len(self.evaluations)

    def __contains__(self, record: object) -> bool:
        return any(record == r for r in self)

    def __iter__(self) -> Iterator[Record]:
        for group, e in self.evaluations.items():
            yield (
                group.encode("utf-8", "backslashreplace"),
                _dumps(record_value(self.cluster, e, self.interval_s)),
                int(e["ts"] * 1000),
            )


def records(
    cluster: str, evaluations: Mapping[str, Mapping[str, Any]], interval_s: float
) -> PassRecords:
    return PassRecords(cluster, evaluations, interval_s)


def exporter(cfg: ClusterConfig, topic: str) -> TopicExporter:
    """The one exporter of a cluster's export topic (its thread and producer live on)."""
    key = (cfg.fingerprint(), topic)
    with _lock:
        found = _exporters.get(key)
        if found is None:
            retention_ms = int(settings.LAG_EXPORT_RETENTION_HOURS) * 3_600_000
            found = _exporters[key] = TopicExporter(
                kafka.for_cluster(cfg), topic, retention_ms=retention_ms
            )
        return found


def export(
    cfg: ClusterConfig, evaluations: Mapping[str, Mapping[str, Any]], interval_s: float
) -> None:
    """Hand one pass's evaluations to the export (nothing when LAG_EXPORT_TOPIC is empty)."""
    topic = settings.LAG_EXPORT_TOPIC
    if not topic or not evaluations:
        return
    exporter(cfg, topic).send(lambda: records(cfg.name, evaluations, interval_s))
