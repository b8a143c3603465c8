"""The one adapter over confluent-kafka.

Nothing else in the project imports confluent_kafka: views, tasks, the dev stack and the demo
traffic call the small typed functions here. This module owns timeouts and turns Kafka's
errors into two exceptions the API maps to status codes: `KafkaTimeout` (504, no answer in
time) and `KafkaCallFailed` (502, Kafka answered with an error).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import (
    Consumer,
    ConsumerGroupTopicPartitions,
    ElectionType,
    KafkaError,
    KafkaException,
    Producer,
    TopicPartition,
)
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    NewPartitions,
    NewTopic,
    OffsetSpec,
    ResourceType,
)

from console import kafka_protocol

# librdkafka's own log lines go through Python logging, not straight to stderr.
_librdkafka_log = logging.getLogger("console.kafka.librdkafka")

# How long one admin call may take before we give up and answer 504.
DEFAULT_TIMEOUT_S = 8.0


class KafkaAdapterError(Exception):
    """Base of the errors this adapter raises; `message` is a sentence for people."""

    def __init__(self, message: str, *, code: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.details = details or {}


class KafkaTimeout(KafkaAdapterError):
    """Kafka did not answer in time (unreachable, or every broker down)."""


class KafkaCallFailed(KafkaAdapterError):
    """Kafka answered, with an error; `kafka_error` is its name (e.g. INVALID_CONFIG)."""

    @property
    def kafka_error(self) -> str | None:
        return self.details.get("kafka_error")


@dataclass(frozen=True)
class Broker:
    id: int
    host: str
    port: int
    rack: str | None


@dataclass(frozen=True)
class ClusterDescription:
    cluster_id: str | None
    controller_id: int | None
    brokers: list[Broker]


@dataclass(frozen=True)
class PartitionMeta:
    partition: int
    leader: int | None  # None when the partition has no leader (offline)
    replicas: list[int]  # assignment order; replicas[0] is the preferred leader
    isr: list[int]


@dataclass(frozen=True)
class TopicMeta:
    name: str
    internal: bool
    partitions: list[PartitionMeta] = field(default_factory=list)


# Kafka's own internal topics (org.apache.kafka.common.internals.Topic), as TopicCommand's
# --exclude-internal understands them.
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})

_clients: dict[tuple, AdminClient] = {}
_clients_lock = threading.Lock()


def client_config(bootstrap_servers: str, extra: Mapping[str, str] | None = None) -> dict[str, Any]:
    """librdkafka settings shared by every client we make for one cluster."""
    config: dict[str, Any] = {
        "bootstrap.servers": bootstrap_servers,
        # Fail fast rather than hang when the cluster is gone: the API answers 504 instead.
        "socket.connection.setup.timeout.ms": 5000,
        "reconnect.backoff.max.ms": 2000,
        # Notice leadership and broker changes within seconds, not librdkafka's 5 minutes.
        "topic.metadata.refresh.interval.ms": 10000,
        "logger": _librdkafka_log,
    }
    config.update(extra or {})
    return config


def _plaintext(extra: Mapping[str, str] | None) -> bool:
    return (extra or {}).get("security.protocol", "PLAINTEXT").upper() == "PLAINTEXT"


_last_key = threading.local()


def admin_client(bootstrap_servers: str, extra: Mapping[str, str] | None = None) -> AdminClient:
    """One cached AdminClient per cluster configuration (they are thread-safe and costly)."""
    key = (bootstrap_servers, tuple(sorted((extra or {}).items())))
    # Remembered per thread so a timeout of this thread's call can retire this client.
    _last_key.value = key
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            config = client_config(bootstrap_servers, extra)
            # Nothing polls an AdminClient, so a Python logger would only queue its lines
            # (confluent-kafka-python#1734); errors reach us through the futures anyway.
            config.pop("logger")
            config["log_level"] = 2
            client = AdminClient(config)
            _clients[key] = client
        return client


def _retire_last_client() -> None:
    """Drop the client of the call that just timed out; the next call bootstraps afresh.

    A long-lived client can keep sending to a broker (or a stale "controller") that went away
    and time out for minutes; a new client asks the bootstrap servers again.
    """
    key = getattr(_last_key, "value", None)
    with _clients_lock:
        _clients.pop(key, None)


def _translate(exc: BaseException, what: str) -> KafkaAdapterError:
    if isinstance(exc, FutureTimeout):
        _retire_last_client()
        return KafkaTimeout(f"Kafka did not answer {what} in time.", code="kafka_timeout")
    if isinstance(exc, KafkaException):
        err: KafkaError = exc.args[0] if exc.args else None  # type: ignore[assignment]
        if isinstance(err, KafkaError):
            if err.code() in (
                KafkaError._TIMED_OUT,
                KafkaError._TRANSPORT,
                KafkaError._ALL_BROKERS_DOWN,
                KafkaError.REQUEST_TIMED_OUT,
            ):
                _retire_last_client()
                return KafkaTimeout(
                    f"Kafka did not answer {what} in time ({err.str()}).",
                    code="kafka_timeout",
                )
            return KafkaCallFailed(
                f"Kafka refused {what}: {err.str()}.",
                code="kafka_error",
                details={"kafka_error": err.name()},
            )
    return KafkaCallFailed(f"Kafka call {what} failed: {exc}.", code="kafka_error")


def _result(future: Future, what: str, timeout: float) -> Any:
    try:
        return future.result(timeout=timeout)
    except (KafkaException, FutureTimeout) as exc:
        raise _translate(exc, what) from exc


def describe_cluster(
    bootstrap_servers: str,
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> ClusterDescription:
    """Cluster id, controller and live brokers (those registered with the controller)."""
    admin = admin_client(bootstrap_servers, extra)
    future = admin.describe_cluster(request_timeout=timeout)
    desc = _result(future, "describe cluster", timeout + 1)
    brokers = sorted(
        (Broker(n.id, n.host, n.port, n.rack or None) for n in desc.nodes), key=lambda b: b.id
    )
    controller = desc.controller.id if desc.controller is not None else None
    if _plaintext(extra):
        # KRaft: DescribeCluster names a random live broker as controller; the real active
        # controller is the metadata quorum's leader. ZooKeeper clusters have no quorum.
        leader = kafka_protocol.quorum_leader(bootstrap_servers, timeout=min(timeout, 3.0))
        controller = leader if leader is not None else controller
    return ClusterDescription(desc.cluster_id, controller, brokers)


def list_topic_metadata(
    bootstrap_servers: str,
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    topic: str | None = None,
) -> list[TopicMeta]:
    """Leader, replicas and ISR of every partition of every topic, from one Metadata request."""
    admin = admin_client(bootstrap_servers, extra)
    try:
        md = admin.list_topics(topic=topic, timeout=timeout)
    except KafkaException as exc:
        raise _translate(exc, "list topics") from exc
    topics = []
    for name, t in md.topics.items():
        if t.error is not None and t.error.code() == KafkaError.UNKNOWN_TOPIC_OR_PART:
            continue
        parts = [
            PartitionMeta(
                partition=p.id,
                leader=p.leader if p.leader is not None and p.leader >= 0 else None,
                replicas=list(p.replicas),
                isr=list(p.isrs),
            )
            for p in sorted(t.partitions.values(), key=lambda p: p.id)
        ]
        topics.append(TopicMeta(name=name, internal=name in INTERNAL_TOPICS, partitions=parts))
    return sorted(topics, key=lambda t: t.name)


def probe_cluster(bootstrap_servers: str, timeout: float = 3.0) -> ClusterDescription | None:
    """The cluster's description, or None when it does not answer (used for readiness polls)."""
    try:
        return describe_cluster(bootstrap_servers, timeout=timeout)
    except KafkaAdapterError:
        return None


def create_topics(
    bootstrap_servers: str,
    topics: Iterable[tuple[str, int, int, Mapping[str, str]]],
    extra: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    exist_ok: bool = True,
) -> None:
    """Create (name, partitions, replication_factor, configs) topics and wait for them."""
    new = [
        NewTopic(name, num_partitions=p, replication_factor=rf, config=dict(cfg))
        for name, p, rf, cfg in topics
    ]
    if not new:
        return
    futures = admin_client(bootstrap_servers, extra).create_topics(
        new, operation_timeout=timeout, request_timeout=timeout
    )
    for name, fut in futures.items():
        try:
            fut.result(timeout=timeout + 5)
        except KafkaException as exc:
            err = exc.args[0]
            if exist_ok and err.code() == KafkaError.TOPIC_ALREADY_EXISTS:
                continue
            raise _translate(exc, f"create topic {name}") from exc


def make_producer(bootstrap_servers: str, **settings: Any) -> Producer:
    return Producer(client_config(bootstrap_servers, settings))


def make_consumer(bootstrap_servers: str, group_id: str, **settings: Any) -> Consumer:
    config = client_config(bootstrap_servers, settings)
    config.setdefault("group.id", group_id)
    config["group.id"] = group_id
    return Consumer(config)


@dataclass(frozen=True)
class ConfigValue:
    value: str | None
    source: str  # e.g. DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG
    is_default: bool
    read_only: bool
    sensitive: bool


@dataclass(frozen=True)
class OffsetResult:
    offset: int  # -1 when nothing matched (a timestamp later than every record)
    timestamp_ms: int | None


def _wait_all(futures: Mapping[Any, Future], timeout: float) -> dict[Any, Any]:
    """Results of many futures under one deadline; a failed one maps to its adapter error."""
    deadline = time.monotonic() + timeout
    results: dict[Any, Any] = {}
    for key, future in futures.items():
        try:
            results[key] = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except (KafkaException, FutureTimeout) as exc:
            results[key] = _translate(exc, f"for {key}")
    return results


def _config_source(source: Any) -> str:
    """ConfigSource name (DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG, ...); the binding gives an int."""
    try:
        return ConfigSource(source).name
    except ValueError:
        return getattr(source, "name", str(source))


_CONFIG_CHUNK = 500


def describe_topic_configs(
    bootstrap_servers: str,
    topics: Iterable[str],
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[str, dict[str, ConfigValue]]:
    """Effective configs of many topics in one batched DescribeConfigs call."""
    resources = [ConfigResource(ResourceType.TOPIC, name) for name in topics]
    if not resources:
        return {}
    # Chunks, all sent before any is awaited: librdkafka puts one call's resources in a single
    # request to one broker, so chunking spreads thousands of topics over the brokers.
    admin = admin_client(bootstrap_servers, extra)
    futures: dict[Any, Future] = {}
    for start in range(0, len(resources), _CONFIG_CHUNK):
        chunk = resources[start : start + _CONFIG_CHUNK]
        futures.update(admin.describe_configs(chunk, request_timeout=timeout))
    out: dict[str, dict[str, ConfigValue]] = {}
    for resource, result in _wait_all(futures, timeout + 1).items():
        if isinstance(result, KafkaTimeout):
            raise result
        if isinstance(result, KafkaAdapterError):
            continue  # e.g. deleted meanwhile: the caller sees it missing from the result
        out[resource.name] = {
            name: ConfigValue(
                value=None if entry.is_sensitive else entry.value,
                source=_config_source(entry.source),
                is_default=bool(entry.is_default),
                read_only=bool(entry.is_read_only),
                sensitive=bool(entry.is_sensitive),
            )
            for name, entry in result.items()
        }
    return out


def list_offsets(
    bootstrap_servers: str,
    partitions: Iterable[tuple[str, int]],
    spec: str | int,
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[tuple[str, int], OffsetResult | KafkaAdapterError]:
    """Offsets of many partitions in one batched call (the client groups them per leader).

    `spec` is "earliest", "latest", "max_timestamp" or a timestamp in epoch millis. A
    partition that fails (its leader is offline, say) maps to its error; the rest still count.
    """
    if spec == "earliest":
        offset_spec = OffsetSpec.earliest()
    elif spec == "latest":
        offset_spec = OffsetSpec.latest()
    elif spec == "max_timestamp":
        offset_spec = OffsetSpec.max_timestamp()
    else:
        offset_spec = OffsetSpec.for_timestamp(int(spec))
    request = {TopicPartition(t, p): offset_spec for t, p in partitions}
    if not request:
        return {}
    futures = admin_client(bootstrap_servers, extra).list_offsets(request, request_timeout=timeout)
    out: dict[tuple[str, int], OffsetResult | KafkaAdapterError] = {}
    for tp, result in _wait_all(futures, timeout + 1).items():
        key = (tp.topic, tp.partition)
        if isinstance(result, KafkaAdapterError):
            out[key] = result
        else:
            ts = result.timestamp if (result.timestamp or -1) >= 0 else None
            out[key] = OffsetResult(result.offset, ts)
    return out


def create_topic(
    bootstrap_servers: str,
    name: str,
    partitions: int,
    replication_factor: int,
    configs: Mapping[str, str],
    extra: Mapping[str, str] | None = None,
    validate_only: bool = False,
    timeout: float = 30.0,
) -> None:
    """Create one topic (or only validate the request, which changes nothing)."""
    topic = NewTopic(
        name, num_partitions=partitions, replication_factor=replication_factor, config=dict(configs)
    )
    futures = admin_client(bootstrap_servers, extra).create_topics(
        [topic], operation_timeout=timeout, request_timeout=timeout, validate_only=validate_only
    )
    _result(futures[name], f"create topic {name}", timeout + 5)


def delete_topic(
    bootstrap_servers: str,
    name: str,
    extra: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> None:
    delete_topics(bootstrap_servers, [name], extra, timeout)


def delete_topics(
    bootstrap_servers: str,
    names: list[str],
    extra: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> None:
    """Delete topics in one request; the first failure is raised after all have answered."""
    futures = admin_client(bootstrap_servers, extra).delete_topics(
        names, operation_timeout=timeout, request_timeout=timeout
    )
    for result in _wait_all(futures, timeout + 5).values():
        if isinstance(result, KafkaAdapterError):
            raise result


def alter_topic_configs(
    bootstrap_servers: str,
    name: str,
    set_configs: Mapping[str, str],
    delete_configs: Iterable[str],
    extra: Mapping[str, str] | None = None,
    validate_only: bool = False,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> None:
    """Incrementally set and delete topic config keys (others stay as they are)."""
    entries = [
        ConfigEntry(k, str(v), incremental_operation=AlterConfigOpType.SET)
        for k, v in set_configs.items()
    ] + [
        ConfigEntry(k, None, incremental_operation=AlterConfigOpType.DELETE) for k in delete_configs
    ]
    resource = ConfigResource(ResourceType.TOPIC, name, incremental_configs=entries)
    futures = admin_client(bootstrap_servers, extra).incremental_alter_configs(
        [resource], request_timeout=timeout, validate_only=validate_only
    )
    for future in futures.values():
        _result(future, f"alter configs of {name}", timeout + 1)


def create_partitions(
    bootstrap_servers: str,
    name: str,
    total: int,
    extra: Mapping[str, str] | None = None,
    validate_only: bool = False,
    timeout: float = 30.0,
) -> None:
    futures = admin_client(bootstrap_servers, extra).create_partitions(
        [NewPartitions(name, total)],
        operation_timeout=timeout,
        request_timeout=timeout,
        validate_only=validate_only,
    )
    _result(futures[name], f"add partitions to {name}", timeout + 5)


def elect_leaders(
    bootstrap_servers: str,
    election: str,
    partitions: Iterable[tuple[str, int]] | None,
    extra: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> dict[tuple[str, int], str | None]:
    """Run a preferred or unclean election; per partition, None or the error's sentence."""
    kind = ElectionType.PREFERRED if election == "preferred" else ElectionType.UNCLEAN
    tps = None if partitions is None else [TopicPartition(t, p) for t, p in partitions]
    # No timeout kwargs: this binding's elect_leaders rejects them (confluent-kafka 2.16.1),
    # so the wait below bounds the call instead.
    future = admin_client(bootstrap_servers, extra).elect_leaders(kind, tps)
    results = _result(future, f"{election} leader election", timeout + 5)
    out: dict[tuple[str, int], str | None] = {}
    for tp, error in results.items():
        out[(tp.topic, tp.partition)] = None if error is None else _error_sentence(error)
    return out


def _error_sentence(error: Any) -> str:
    if isinstance(error, KafkaException) and error.args and isinstance(error.args[0], KafkaError):
        return f"{error.args[0].name()}: {error.args[0].str()}"
    if isinstance(error, KafkaError):
        return f"{error.name()}: {error.str()}"
    return str(error)


def delete_records(
    bootstrap_servers: str,
    before: Mapping[tuple[str, int], int],
    extra: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> None:
    """Move the log start offset of partitions forward (DeleteRecords)."""
    tps = [TopicPartition(t, p, offset) for (t, p), offset in before.items()]
    futures = admin_client(bootstrap_servers, extra).delete_records(
        tps, request_timeout=timeout, operation_timeout=timeout
    )
    for tp, future in futures.items():
        _result(future, f"delete records of {tp.topic}/{tp.partition}", timeout + 5)


# librdkafka's group state names mapped to the names Kafka's own tools print.
_GROUP_STATES = {
    "STABLE": "Stable",
    "EMPTY": "Empty",
    "DEAD": "Dead",
    "PREPARING_REBALANCING": "PreparingRebalance",
    "COMPLETING_REBALANCING": "CompletingRebalance",
    "ASSIGNING": "Assigning",
    "RECONCILING": "Reconciling",
    "UNKNOWN": "Unknown",
}


def _state_name(state: Any) -> str:
    name = getattr(state, "name", str(state))
    return _GROUP_STATES.get(name, name.title())


@dataclass(frozen=True)
class GroupListing:
    group_id: str
    state: str
    is_simple: bool


@dataclass(frozen=True)
class GroupMember:
    member_id: str
    client_id: str
    host: str
    assignments: list[tuple[str, int]]


@dataclass(frozen=True)
class GroupDescription:
    group_id: str
    state: str  # as Kafka's tools print it: Stable, Empty, Dead, PreparingRebalance, ...
    protocol_type: str
    assignor: str
    members: list[GroupMember]
    coordinator_id: int | None
    exists: bool = True


def list_groups(
    bootstrap_servers: str,
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> list[GroupListing]:
    future = admin_client(bootstrap_servers, extra).list_consumer_groups(request_timeout=timeout)
    result = _result(future, "list consumer groups", timeout + 1)
    return sorted(
        (
            GroupListing(g.group_id, _state_name(g.state), bool(g.is_simple_consumer_group))
            for g in result.valid
        ),
        key=lambda g: g.group_id,
    )


def describe_groups(
    bootstrap_servers: str,
    group_ids: Iterable[str],
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[str, GroupDescription]:
    """Many groups in one call. A group Kafka does not know is returned as Dead, not found."""
    ids = list(group_ids)
    if not ids:
        return {}
    futures = admin_client(bootstrap_servers, extra).describe_consumer_groups(
        ids, request_timeout=timeout
    )
    out: dict[str, GroupDescription] = {}
    for gid, result in _wait_all(futures, timeout + 1).items():
        if isinstance(result, KafkaCallFailed) and result.kafka_error == "GROUP_ID_NOT_FOUND":
            out[gid] = GroupDescription(gid, "Dead", "", "", [], None, exists=False)
            continue
        if isinstance(result, KafkaAdapterError):
            raise result
        members = [
            GroupMember(
                member_id=m.member_id,
                client_id=m.client_id,
                host=m.host,
                assignments=sorted(
                    (tp.topic, tp.partition)
                    for tp in (m.assignment.topic_partitions if m.assignment else [])
                ),
            )
            for m in result.members
        ]
        state = _state_name(result.state)
        out[gid] = GroupDescription(
            group_id=gid,
            state=state,
            protocol_type="" if result.is_simple_consumer_group else "consumer",
            assignor=result.partition_assignor or "",
            members=members,
            coordinator_id=result.coordinator.id if result.coordinator else None,
            exists=state != "Dead",
        )
    return out


def committed_offsets(
    bootstrap_servers: str,
    groups: Mapping[str, Iterable[tuple[str, int]] | None],
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[str, dict[tuple[str, int], int | None]]:
    """Committed offsets of many groups (None = all partitions the group committed on).

    On PLAINTEXT clusters this is one OffsetFetch per group coordinator for all groups
    (console.kafka_protocol): librdkafka's admin call sends one group per request and crashes
    the process when a coordinator has just moved (librdkafka#5040). Other clusters use the
    admin call. A partition without a committed offset maps to None.
    """
    if _plaintext(extra):
        try:
            return kafka_protocol.fetch_committed(bootstrap_servers, groups, timeout)
        except OSError as exc:
            raise KafkaTimeout(
                f"Kafka did not answer the committed-offsets request in time ({exc}).",
                code="kafka_timeout",
            ) from exc
        except (kafka_protocol.ProtocolError, ValueError, IndexError) as exc:
            raise KafkaCallFailed(
                f"Kafka refused the committed-offsets request: {exc}.", code="kafka_error"
            ) from exc
    admin = admin_client(bootstrap_servers, extra)
    futures: dict[str, Future] = {}
    for group, partitions in groups.items():
        tps = None if partitions is None else [TopicPartition(t, p) for t, p in partitions]
        request = [ConsumerGroupTopicPartitions(group, tps)]
        futures[group] = admin.list_consumer_group_offsets(request, request_timeout=timeout)[group]
    out: dict[str, dict[tuple[str, int], int | None]] = {}
    for group, result in _wait_all(futures, timeout + 1).items():
        if isinstance(result, KafkaAdapterError):
            raise result
        out[group] = {
            (tp.topic, tp.partition): tp.offset if tp.offset >= 0 else None
            for tp in result.topic_partitions
        }
    return out


def commit_offsets(
    bootstrap_servers: str,
    group: str,
    offsets: Mapping[tuple[str, int], int],
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[tuple[str, int], str | None]:
    """Commit offsets for an inactive group; per partition, None or the error's sentence."""
    tps = [TopicPartition(t, p, o) for (t, p), o in offsets.items()]
    future = admin_client(bootstrap_servers, extra).alter_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(group, tps)], request_timeout=timeout
    )[group]
    result = _result(future, f"commit offsets of group {group}", timeout + 1)
    out: dict[tuple[str, int], str | None] = dict.fromkeys(offsets)
    for tp in result.topic_partitions:
        out[(tp.topic, tp.partition)] = None if tp.error is None else _error_sentence(tp.error)
    return out


def delete_group(
    bootstrap_servers: str,
    group: str,
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> None:
    future = admin_client(bootstrap_servers, extra).delete_consumer_groups(
        [group], request_timeout=timeout
    )[group]
    _result(future, f"delete group {group}", timeout + 1)


def record_timestamps(
    bootstrap_servers: str,
    positions: Mapping[tuple[str, int], int],
    extra: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
) -> dict[tuple[str, int], int | None]:
    """Timestamp of the first record at or after each offset (None at the log end).

    Reads one record per partition with a throw-away consumer that never commits.
    """
    out: dict[tuple[str, int], int | None] = dict.fromkeys(positions)
    if not positions:
        return out
    settings = {
        "group.id": "kafka-console-peek",
        "enable.auto.commit": False,
        "enable.partition.eof": True,
        "auto.offset.reset": "latest",
        "max.partition.fetch.bytes": 65536,
        **(extra or {}),
    }
    consumer = Consumer(client_config(bootstrap_servers, settings))
    try:
        consumer.assign([TopicPartition(t, p, o) for (t, p), o in positions.items()])
        pending = set(positions)
        deadline = time.monotonic() + timeout
        while pending and time.monotonic() < deadline:
            for message in consumer.consume(num_messages=500, timeout=0.5):
                key = (message.topic(), message.partition())
                if key not in pending:
                    continue
                if message.error() is None:
                    kind, ts = message.timestamp()
                    out[key] = ts if ts >= 0 else None
                pending.discard(key)  # a record, or the end of the partition
                consumer.pause([TopicPartition(*key)])
    finally:
        consumer.close()
    return out
