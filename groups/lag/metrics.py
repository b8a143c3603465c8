"""Prometheus exposition of the lag sampler's latest evaluations, and who may scrape it. Pure.

Metric names and labels are kafka-lag-exporter's (Metrics.scala, and the labels its README
documents: `is_simple_consumer` on the two max-lag gauges), so its dashboards and alerts work
unchanged; `kafka_console_*` are this console's own. Values come only from the stored
evaluations (docs/live-lag.md): rendering never calls Kafka or Redis.

Registry entries that reach the same Kafka cluster (the same cluster id, e.g. the dev stack's
`local` over PLAINTEXT and `local-secure` over SASL_SSL) are exported once (`one_per_cluster`),
so a sum over `cluster_name` counts every group once.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from groups.lag.status import SEVERITY, UNKNOWN

Evaluation = Mapping[str, Any]
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

PARTITION_LABELS = [
    "cluster_name",
    "group",
    "topic",
    "partition",
    "member_host",
    "consumer_id",
    "client_id",
]
GROUP_LABELS = ["cluster_name", "group"]
# kafka-lag-exporter's README gives the max-lag gauges this label: "true" for a group whose
# offsets are committed without joining it (no protocol type: a simple consumer).
SIMPLE_GROUP_LABELS = ["cluster_name", "group", "is_simple_consumer"]
GROUP_TOPIC_LABELS = ["cluster_name", "group", "topic"]
TOPIC_PARTITION_LABELS = ["cluster_name", "topic", "partition"]
# Every status gets a series (1 for the current one, 0 for the others): the state-set
# convention of kube-state-metrics, so a status change never makes a series vanish.
STATUSES = sorted(SEVERITY, key=SEVERITY.__getitem__)


def _number(value: Any) -> float | None:
    """A sample value, or None for null and anything that is not a number (bools included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


class _Families:
    """The metric families of one scrape, filled group by group."""

    def __init__(self) -> None:
        def gauge(name: str, doc: str, labels: list[str]) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, doc, labels=labels)

        self.offset = gauge(
            "kafka_consumergroup_group_offset",
            "Last group consumed offset of a partition",
            PARTITION_LABELS,
        )
        self.lag = gauge(
            "kafka_consumergroup_group_lag", "Group offset lag of a partition", PARTITION_LABELS
        )
        self.lag_seconds = gauge(
            "kafka_consumergroup_group_lag_seconds",
            "Group time lag of a partition",
            PARTITION_LABELS,
        )
        self.max_lag = gauge(
            "kafka_consumergroup_group_max_lag", "Max group offset lag", SIMPLE_GROUP_LABELS
        )
        self.max_lag_seconds = gauge(
            "kafka_consumergroup_group_max_lag_seconds", "Max group time lag", SIMPLE_GROUP_LABELS
        )
        self.sum_lag = gauge(
            "kafka_consumergroup_group_sum_lag", "Sum of group offset lag", GROUP_LABELS
        )
        self.topic_sum_lag = gauge(
            "kafka_consumergroup_group_topic_sum_lag",
            "Sum of group offset lag across topic partitions",
            GROUP_TOPIC_LABELS,
        )
        self.latest = gauge(
            "kafka_partition_latest_offset", "Latest offset of a partition", TOPIC_PARTITION_LABELS
        )
        self.earliest = gauge(
            "kafka_partition_earliest_offset",
            "Earliest offset of a partition",
            TOPIC_PARTITION_LABELS,
        )
        self.status = gauge(
            "kafka_console_group_status",
            "Status of the consumer group (OK, WARN, STALL, STOP, ERR, REWIND, UNKNOWN; "
            "docs/live-lag.md): 1 for the current one, 0 for the others",
            ["cluster_name", "group", "status"],
        )
        self.sample_ts = gauge(
            "kafka_console_lag_sample_timestamp_seconds",
            "Wall time of the newest lag sample served for the cluster (epoch seconds)",
            ["cluster_name"],
        )

    def all(self) -> list[Metric]:
        return [
            self.offset,
            self.lag,
            self.lag_seconds,
            self.max_lag,
            self.max_lag_seconds,
            self.sum_lag,
            self.topic_sum_lag,
            self.latest,
            self.earliest,
            self.status,
            self.sample_ts,
        ]


def _add(family: GaugeMetricFamily, labels: list[str], value: Any) -> None:
    number = _number(value)
    if number is not None:  # null means unknown: no sample rather than a made-up 0
        family.add_metric(labels, number)


def _simple(ev: Evaluation) -> str:
    """ "true"/"false" as kafka-lag-exporter writes it; "" (no label) for an evaluation stored
    before the sampler recorded it."""
    value = ev.get("is_simple_consumer")
    return ("true" if value else "false") if isinstance(value, bool) else ""


def _add_group(out: _Families, cluster: str, group: str, ev: Evaluation) -> None:
    simple = _simple(ev)
    _add(out.max_lag, [cluster, group, simple], ev.get("max_lag"))
    _add(out.max_lag_seconds, [cluster, group, simple], ev.get("max_lag_seconds"))
    _add(out.sum_lag, [cluster, group], ev.get("total_lag"))
    topics = ev.get("topics")
    for topic, summary in sorted(topics.items() if isinstance(topics, dict) else []):
        if isinstance(summary, dict):
            _add(out.topic_sum_lag, [cluster, group, str(topic)], summary.get("lag"))
    # A string that is not a status counts as UNKNOWN (as in groups.lag.status).
    current = ev.get("status") if ev.get("status") in SEVERITY else UNKNOWN
    for status in STATUSES:
        out.status.add_metric([cluster, group, status], 1.0 if status == current else 0.0)


def _partitions(ev: Evaluation) -> Iterator[dict[str, Any]]:
    parts = ev.get("partitions")
    for part in parts if isinstance(parts, list) else []:
        if isinstance(part, dict) and part.get("topic") is not None:
            yield part


def _add_partitions(out: _Families, cluster: str, group: str, ev: Evaluation) -> None:
    for part in _partitions(ev):
        labels = [
            cluster,
            group,
            str(part["topic"]),
            _text(part.get("partition")),
            _text(part.get("host")),
            _text(part.get("member_id")),
            _text(part.get("client_id")),
        ]
        _add(out.offset, labels, part.get("committed_offset"))
        _add(out.lag, labels, part.get("lag"))
        _add(out.lag_seconds, labels, part.get("lag_seconds"))


def _ts(ev: Evaluation) -> float:
    return _number(ev.get("ts")) or 0.0


def _add_log_offsets(out: _Families, cluster: str, groups: Mapping[str, Evaluation]) -> None:
    """Log start/end once per partition of the cluster, though several groups may read it:
    the newest evaluation that knows the value wins (all come from one pass, normally)."""
    earliest: dict[tuple[str, str], float] = {}
    latest: dict[tuple[str, str], float] = {}
    for ev in sorted(groups.values(), key=_ts):  # oldest first, so newer ones overwrite
        for part in _partitions(ev):
            key = (str(part["topic"]), _text(part.get("partition")))
            if (start := _number(part.get("log_start_offset"))) is not None:
                earliest[key] = start
            if (end := _number(part.get("log_end_offset"))) is not None:
                latest[key] = end
    for (topic, partition), value in sorted(earliest.items()):
        out.earliest.add_metric([cluster, topic, partition], value)
    for (topic, partition), value in sorted(latest.items()):
        out.latest.add_metric([cluster, topic, partition], value)


def families(clusters: Mapping[str, Mapping[str, Evaluation]]) -> list[Metric]:
    """The metric families for {cluster_name: {group_id: evaluation}}, in a stable order."""
    out = _Families()
    for cluster in sorted(clusters):
        groups = clusters[cluster]
        for group in sorted(groups):
            ev = groups[group]
            _add_group(out, cluster, group, ev)
            _add_partitions(out, cluster, group, ev)
        _add_log_offsets(out, cluster, groups)
        if newest := max((_ts(ev) for ev in groups.values()), default=0.0):
            out.sample_ts.add_metric([cluster], newest)
    return out.all()


# --- one Kafka cluster, one set of series -----------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One registry entry as a scrape reads it: its name, the Kafka cluster id its sampler
    stored (None: unknown, no pass recorded yet) and its groups' evaluations."""

    name: str
    cluster_id: str | None
    groups: Mapping[str, Evaluation]


def one_per_cluster(
    entries: Sequence[Entry],
) -> tuple[dict[str, Mapping[str, Evaluation]], dict[str, str]]:
    """What to export, {entry name: evaluations}, and the entries left out, {name: the entry
    exported for the same Kafka cluster}. Of the entries (in registry order) that share a
    cluster id, one is exported: the first with evaluations stored, else the first. An entry
    whose cluster id is unknown counts as a cluster of its own."""
    chosen: dict[str, Entry] = {}
    for entry in entries:
        if entry.cluster_id is None:
            continue
        first = chosen.get(entry.cluster_id)
        if first is None or (not first.groups and entry.groups):
            chosen[entry.cluster_id] = entry
    export: dict[str, Mapping[str, Evaluation]] = {}
    left_out: dict[str, str] = {}
    for entry in entries:
        kept = chosen.get(entry.cluster_id) if entry.cluster_id is not None else entry
        if kept is None or kept is entry:
            export[entry.name] = entry.groups
        else:
            left_out[entry.name] = kept.name
    return export, left_out


def _comment(text: str) -> bytes:
    # A comment line of the text format: one line, whatever the names hold.
    return ("# " + " ".join(text.split()) + "\n").encode("utf-8", "backslashreplace")


class _Snapshot(Collector):
    """A collector over already computed families (one per scrape, never registered globally)."""

    def __init__(self, metrics: list[Metric]) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        return self.metrics


def render(
    clusters: Mapping[str, Mapping[str, Evaluation]], left_out: Mapping[str, str] | None = None
) -> bytes:
    """The Prometheus text exposition (CONTENT_TYPE_LATEST) of the given evaluations; a comment
    line first for each registry entry left out as the same Kafka cluster as another
    (`one_per_cluster`)."""
    # A fresh registry per scrape: nothing is kept between scrapes, so a group or partition
    # that left the store leaves the output too (no stale series to remove by hand).
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Snapshot(families(clusters)))
    notes = b"".join(
        _comment(
            f"kafka-console: cluster_name={name!r} is the same Kafka cluster as "
            f"cluster_name={kept!r}: its series are exported once, as {kept!r}"
        )
        for name, kept in sorted((left_out or {}).items())
    )
    return notes + generate_latest(registry)


# --- who may scrape --------------------------------------------------------------------------


def parse_networks(items: Iterable[str]) -> tuple[IPNetwork, ...]:
    """CIDRs (a bare address is a /32 or /128); raises ValueError on a bad one."""
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in items)


def _bearer(authorization: str) -> str | None:
    scheme, _, credentials = authorization.strip().partition(" ")
    return credentials.strip() if scheme.lower() == "bearer" else None


def _in_networks(address: str, networks: Sequence[IPNetwork]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:  # no address (a Unix socket) or garbage: not on an allowed network
        return False
    # An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; match it as IPv4 too.
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return any(ip in net or (mapped is not None and mapped in net) for net in networks)


def allowed(
    *, token: str, networks: Sequence[IPNetwork], authorization: str, remote_addr: str
) -> bool:
    """May this request scrape? With a token set, exactly `Authorization: Bearer <token>`
    (compared in constant time) and nothing else decides; without one, the client address
    (the socket's, never X-Forwarded-For, which the client writes) must be in `networks`."""
    if token:
        given = _bearer(authorization)
        return given is not None and hmac.compare_digest(given.encode(), token.encode())
    return _in_networks(remote_addr, networks)
