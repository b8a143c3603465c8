"""`ClusterClient`: every Kafka operation the product makes, bound to one registered cluster.

The client owns the connection settings (security included), the timeout
(`KAFKA_TIMEOUT_SECONDS`, the same for every call) and the mapping of Kafka's errors to
`KafkaTimeout` (504) and `KafkaCallFailed` (502). librdkafka's AdminClient does most calls;
the small wire client (`console.kafka.wire`) does what librdkafka lacks, gets wrong or makes
slow: the KRaft controller, committed offsets (never librdkafka's ListConsumerGroupOffsets,
which crashes the process when a coordinator moves: librdkafka#5040), group descriptions
per coordinator, config keys in bulk, topic metadata and partition offsets (one ListOffsets
per leader, parsed in bulk).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial
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
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

from console.clusters import ClusterConfig
from console.kafka import protocol
from console.kafka.connection import WireError, WireUnreachable
from console.kafka.errors import KafkaAdapterError, KafkaCallFailed, KafkaTimeout
from console.kafka.quota_protocol import MATCH_DEFAULT, MATCH_EXACT, MATCH_SPECIFIED
from console.kafka.settings import librdkafka_config
from console.kafka.types import (
    INTERNAL_TOPICS,
    TP,
    Acl,
    AclFilter,
    Broker,
    ClusterDescription,
    ConfigValue,
    GroupDescription,
    GroupListing,
    GroupMember,
    LogDir,
    OffsetResult,
    QuotaEntity,
    Reassigning,
    ScramCredential,
    TopicMeta,
)
from console.kafka.wire import NO_ANSWER, WireClient

DEFAULT_TIMEOUT_S = 8.0
# Kafka's names of the SCRAM mechanisms (as kafka-configs.sh and the SASL config write them).
_MECHANISMS = {
    "SCRAM-SHA-256": ScramMechanism.SCRAM_SHA_256,
    "SCRAM-SHA-512": ScramMechanism.SCRAM_SHA_512,
}
_MECHANISM_NAMES = {kind: name for name, kind in _MECHANISMS.items()}
# How long a topic missing from every broker's metadata is asked again before it is believed
# missing (`find_topic`): broker lag after CreateTopics, measured up to 90 ms idle. The
# setting KAFKA_TOPIC_GRACE_SECONDS changes it (a cluster whose brokers lag more).
TOPIC_GRACE_S = 1.5
# What Kafka accepts as a topic name (Topic.validate: legal characters, at most 249 of them).
_LEGAL_TOPIC = re.compile(r"[a-zA-Z0-9._-]{1,249}")
_CONFIG_CHUNK = 500
# librdkafka only logs a refused login or certificate and waits out the whole timeout; on a
# secured cluster a call still unanswered after this long asks the wire client why, and a
# refusal is answered at once instead of after the timeout.
_EARLY_DIAGNOSIS_S = 1.0
_LIST_GROUPS_ATTEMPTS = 5  # 0.25 + 0.5 + 0.75 + 1 s of waits at most, within the timeout
_REFUSALS = {
    "kafka_auth_failed",
    "kafka_tls_failed",
    "cluster_misconfigured",
    "kafka_version_unsupported",
}
_OFFSET_SPECS = {
    "earliest": protocol.EARLIEST,
    "latest": protocol.LATEST,
    "max_timestamp": protocol.MAX_TIMESTAMP,
}

# librdkafka errors that mean "no answer", not "an answer that says no".
_NO_ANSWER = {
    KafkaError._TIMED_OUT,
    KafkaError._TRANSPORT,
    KafkaError._ALL_BROKERS_DOWN,
    KafkaError.REQUEST_TIMED_OUT,
}

# Group errors that mean "ask again in a moment": the coordinator is moving or loading.
_COORDINATOR_MOVED = {
    "NOT_COORDINATOR",
    "COORDINATOR_NOT_AVAILABLE",
    "COORDINATOR_LOAD_IN_PROGRESS",
}
_COORDINATOR_ATTEMPTS = 4

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


def _group_call_error(error: int, silent: str, refused: str) -> KafkaAdapterError:
    """A group call's error code as the adapter's error: NO_ANSWER is "`silent` in time"
    (504), any other code "Kafka refused to `refused`" with Kafka's name for it."""
    if error == NO_ANSWER:
        return KafkaTimeout(f"{silent} in time.", code="kafka_timeout")
    kafka_error = KafkaError(error)
    return KafkaCallFailed(
        f"Kafka refused to {refused}: {kafka_error.str()}.",
        code="kafka_error",
        details={"kafka_error": kafka_error.name()},
    )


def _state_name(state: Any) -> str:
    name = getattr(state, "name", str(state))
    return _GROUP_STATES.get(name, name.title())


def _config_source(source: Any) -> str:
    """ConfigSource name (DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG, ...); the binding gives an int."""
    try:
        return ConfigSource(source).name
    except ValueError:
        return getattr(source, "name", str(source))


def _config_values(entries: Mapping[str, Any]) -> dict[str, ConfigValue]:
    """librdkafka's ConfigEntry objects as ConfigValue; a sensitive value is dropped here."""
    return {
        name: ConfigValue(
            value=None if entry.is_sensitive else entry.value,
            source=_config_source(entry.source),
            is_default=bool(entry.is_default),
            read_only=bool(entry.is_read_only),
            sensitive=bool(entry.is_sensitive),
        )
        for name, entry in entries.items()
    }


def _refusal(code: int, message: str | None, what: str) -> KafkaCallFailed:
    """A Kafka error code the wire client got, as the adapter's error with its name."""
    error = KafkaError(code)
    sentence = (message or error.str()).rstrip(".")
    return KafkaCallFailed(
        f"Kafka refused {what}: {sentence}.",
        code="kafka_error",
        details={"kafka_error": error.name()},
    )


def _error_name(error: Any) -> str | None:
    """The name of a KafkaError, or of the KafkaError a KafkaException carries."""
    if isinstance(error, KafkaException) and error.args:
        error = error.args[0]
    return error.name() if isinstance(error, KafkaError) else None


def _error_sentence(error: Any) -> str:
    if isinstance(error, KafkaException) and error.args and isinstance(error.args[0], KafkaError):
        return f"{error.args[0].name()}: {error.args[0].str()}"
    if isinstance(error, KafkaError):
        return f"{error.name()}: {error.str()}"
    return str(error)


def wire_error(exc: WireError | protocol.ProtocolError, what: str) -> KafkaAdapterError:
    """A wire-client failure as the adapter's error, with its cause in the sentence."""
    if isinstance(exc, WireUnreachable):
        return KafkaTimeout(f"Kafka did not answer {what} in time ({exc}).", code="kafka_timeout")
    if isinstance(exc, WireError):
        return KafkaCallFailed(f"Kafka refused {what}: {exc}.", code=exc.kind)
    return KafkaCallFailed(f"Kafka refused {what}: {exc}.", code="kafka_error")


class ClusterClient:
    """All Kafka calls for one cluster. Thread-safe; one per cluster (`for_cluster`)."""

    def __init__(
        self,
        cfg: ClusterConfig,
        timeout: float = DEFAULT_TIMEOUT_S,
        topic_grace_s: float = TOPIC_GRACE_S,
    ):
        self.cfg = cfg
        self.timeout = timeout
        self.topic_grace_s = topic_grace_s
        self.wire = WireClient(cfg.bootstrap_servers, cfg.security)
        self._admin: AdminClient | None = None
        self._producer: Producer | None = None  # made on the first produce (messages)
        # The last answer for all topics, converted: reused while Kafka's answer is unchanged.
        self._all_topics: tuple[protocol.Metadata, list[TopicMeta]] | None = None
        self._lock = threading.Lock()

    # --- plumbing -------------------------------------------------------------------------

    def config(self, **overrides: Any) -> dict[str, Any]:
        """librdkafka settings of this cluster (secrets included: never log them)."""
        return {**librdkafka_config(self.cfg), **overrides}

    def admin(self) -> AdminClient:
        with self._lock:
            if self._admin is None:
                # Nothing polls an AdminClient, so a Python logger would only queue its lines
                # (confluent-kafka-python#1734); errors reach us through the futures anyway.
                self._admin = AdminClient(self.config(log_level=2))
            return self._admin

    def close(self) -> None:
        with self._lock:
            self._admin = None
            if self._producer is not None:
                self._producer.flush(self.timeout)
                self._producer = None
        self.wire.close()

    def _retire_admin(self) -> None:
        """Drop the AdminClient after a call got no answer; the next call bootstraps afresh.

        A long-lived client can keep sending to a broker (or a stale "controller") that went
        away and time out for minutes; a new client asks the bootstrap servers again.
        """
        with self._lock:
            self._admin = None

    def _no_answer(self, what: str, detail: str = "") -> KafkaAdapterError:
        self._retire_admin()
        cause = self._diagnose()
        if cause is not None:
            return cause
        suffix = f" ({detail})" if detail else ""
        return KafkaTimeout(f"Kafka did not answer {what} in time{suffix}.", code="kafka_timeout")

    def _diagnose(self) -> KafkaCallFailed | None:
        """Why librdkafka got no answer, when it is our side's fault (credentials, TLS).

        librdkafka only logs authentication and certificate failures and then times out; one
        connection of the wire client, with the same settings, names the cause.
        """
        if not (self.cfg.security.uses_sasl or self.cfg.security.uses_tls):
            return None
        try:
            self.wire.first_answer(protocol.describe_quorum_request, min(self.timeout, 3.0))
        except WireUnreachable:
            return None
        except WireError as exc:
            return KafkaCallFailed(
                f"Cluster {self.cfg.name!r} refused the connection: {exc}.", code=exc.kind
            )
        return None

    def _translate(self, exc: BaseException | KafkaError, what: str) -> KafkaAdapterError:
        if isinstance(exc, FutureTimeout):
            return self._no_answer(what)
        if isinstance(exc, (KafkaException, KafkaError)):
            # Futures raise KafkaException(KafkaError); some results carry a bare KafkaError.
            err = exc if isinstance(exc, KafkaError) else (exc.args[0] if exc.args else None)
            if isinstance(err, KafkaError):
                if err.code() in _NO_ANSWER:
                    return self._no_answer(what, err.str())
                return KafkaCallFailed(
                    f"Kafka refused {what}: {err.str()}.",
                    code="kafka_error",
                    details={"kafka_error": err.name()},
                )
        return KafkaCallFailed(f"Kafka call {what} failed: {exc}.", code="kafka_error")

    def _result(self, future: Future, what: str) -> Any:
        try:
            self._refused_early(future)
            return future.result(timeout=self.timeout + 1)
        except (KafkaException, FutureTimeout) as exc:
            raise self._translate(exc, what) from exc

    def _refused_early(self, future: Future) -> None:
        """Raise the cluster's refusal (credentials, TLS) when a call on a secured cluster is
        not answered within _EARLY_DIAGNOSIS_S; otherwise return and let the call run on."""
        if not (self.cfg.security.uses_sasl or self.cfg.security.uses_tls):
            return
        try:
            future.exception(timeout=_EARLY_DIAGNOSIS_S)
            return  # answered (or failed) in time: the caller reads it
        except FutureTimeout:
            pass
        cause = self._diagnose()
        if cause is not None and cause.code in _REFUSALS:
            self._retire_admin()
            raise cause

    def _wait_all(self, futures: Mapping[Any, Future]) -> dict[Any, Any]:
        """Results of many futures under one deadline; a failed one maps to its error."""
        if futures:
            self._refused_early(next(iter(futures.values())))
        deadline = time.monotonic() + self.timeout + 1
        results: dict[Any, Any] = {}
        for key, future in futures.items():
            try:
                results[key] = future.result(timeout=max(0.0, deadline - time.monotonic()))
            except (KafkaException, FutureTimeout) as exc:
                results[key] = self._translate(exc, f"for {key}")
        return results

    def _wire(self, what: str, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except (WireError, protocol.ProtocolError) as exc:
            raise wire_error(exc, what) from exc
        except OSError as exc:  # a socket error the connection did not name: no answer
            raise wire_error(WireUnreachable(str(exc)), what) from exc
        except (ValueError, IndexError, UnicodeDecodeError) as exc:
            raise KafkaCallFailed(
                f"Kafka answered {what} with something unreadable: {exc}.", code="kafka_error"
            ) from exc

    # --- cluster and metadata ------------------------------------------------------------

    def describe_cluster(self) -> ClusterDescription:
        """Cluster id, the active controller and live brokers (registered with the controller).

        On KRaft, DescribeCluster names a random live broker as controller; the active one is
        the metadata quorum's leader (DescribeQuorum). ZooKeeper clusters have no quorum.
        """
        future = self.admin().describe_cluster(request_timeout=self.timeout)
        desc = self._result(future, "describe cluster")
        brokers = sorted(
            (Broker(n.id, n.host, n.port, n.rack or None) for n in desc.nodes),
            key=lambda b: b.id,
        )
        controller = desc.controller.id if desc.controller is not None else None
        try:
            leader = self._wire("describe quorum", self.wire.quorum_leader, min(self.timeout, 3.0))
        except KafkaTimeout:
            leader = None  # a ZooKeeper-era broker closes the connection on DescribeQuorum
        return ClusterDescription(
            desc.cluster_id, leader if leader is not None else controller, brokers
        )

    def topic_metadata(self, topic: str | None = None) -> list[TopicMeta]:
        """Leader, replicas and ISR of every partition of every topic (or of one): one
        Metadata request through the wire client, parsed in bulk (librdkafka's list_topics
        builds Python objects per partition: a second at 40,000 partitions)."""
        md = self._wire(
            "list topics", self.wire.metadata, None if topic is None else [topic], self.timeout
        )
        last = self._all_topics
        if topic is None and last is not None and last[0].topics is md.topics:  # unchanged
            return list(last[1])
        topics = [
            TopicMeta(name, name in INTERNAL_TOPICS, partitions)
            for name, partitions in sorted(md.topics.items())
        ]
        if topic is None:
            self._all_topics = (md, topics)
        return list(topics)

    def find_topic(
        self, topic: str, wanted: Iterable[int] = (), grace_s: float | None = None
    ) -> TopicMeta | None:
        """The topic as the brokers know it, None if it does not exist: a miss (or a topic
        without one of the `wanted` partitions) is believed only when no broker has known
        better for `grace_s` (the client's `topic_grace_s` unless given). A topic created (or
        grown) a moment ago reaches each broker a little later: one broker's Metadata answer is
        no proof it is missing."""
        if not _LEGAL_TOPIC.fullmatch(topic) or topic in (".", ".."):
            return None  # a name Kafka cannot hold: no broker will ever know it
        want = set(wanted)
        deadline = time.monotonic() + (self.topic_grace_s if grace_s is None else grace_s)
        pause = 0.05
        while True:
            found = self._wire(
                "list topics", self.wire.topic_on_any_broker, topic, want, self.timeout
            )
            have = {p.partition for p in found} if found is not None else set()
            if found is not None and want <= have:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(pause, left))
            pause *= 2
        if found is None:
            return None
        return TopicMeta(topic, topic in INTERNAL_TOPICS, list(found))

    def describe_topic_configs(self, topics: Iterable[str]) -> dict[str, dict[str, ConfigValue]]:
        """Every effective config (with its source) of some topics, batched."""
        resources = [ConfigResource(ResourceType.TOPIC, name) for name in topics]
        if not resources:
            return {}
        # Chunks, all sent before any is awaited: librdkafka puts one call's resources in one
        # request to one broker, so chunking spreads many topics over the brokers.
        admin = self.admin()
        futures: dict[Any, Future] = {}
        for start in range(0, len(resources), _CONFIG_CHUNK):
            chunk = resources[start : start + _CONFIG_CHUNK]
            futures.update(admin.describe_configs(chunk, request_timeout=self.timeout))
        out: dict[str, dict[str, ConfigValue]] = {}
        for resource, result in self._wait_all(futures).items():
            if isinstance(result, KafkaTimeout):
                raise result
            if isinstance(result, KafkaAdapterError):
                continue  # e.g. deleted meanwhile: the caller sees it missing from the result
            out[resource.name] = _config_values(result)
        return out

    def describe_broker_configs(self, broker_id: int) -> dict[str, ConfigValue]:
        """Every config of one broker with its source (default, static, dynamic broker,
        dynamic cluster-wide); sensitive values are never returned."""
        resource = ConfigResource(ResourceType.BROKER, str(broker_id))
        future = self.admin().describe_configs([resource], request_timeout=self.timeout)[resource]
        return _config_values(self._result(future, f"describe the configs of broker {broker_id}"))

    def broker_addresses(self) -> dict[int, tuple[str, int]]:
        """Live brokers' (host, port) as they advertise themselves, by node id."""
        meta = self._wire("describe the brokers", self.wire.metadata, [], self.timeout)
        return {node: (host, port) for node, (host, port, _) in meta.brokers.items()}

    def describe_log_dirs(
        self, broker_ids: Iterable[int] | None = None, partitions: Iterable[TP] | None = None
    ) -> dict[int, list[LogDir] | KafkaAdapterError]:
        """Each broker's log directories with every replica's size (as kafka-log-dirs.sh
        --describe reports them), or only the replicas of `partitions`; None asks every live
        broker. A broker that did not answer, or refused, maps to its error: the others still
        count."""
        addresses = self.broker_addresses()
        asked = list(addresses) if broker_ids is None else list(broker_ids)
        wanted = {b: addresses[b] for b in asked if b in addresses}
        only = None if partitions is None else sorted(set(partitions))
        answers = self._wire("describe log dirs", self.wire.log_dirs, wanted, self.timeout, only)
        out: dict[int, list[LogDir] | KafkaAdapterError] = {
            b: KafkaCallFailed(f"Broker {b} is not live.", code="broker_not_live")
            for b in asked
            if b not in addresses
        }
        for node, (error, dirs) in answers.items():
            if error == NO_ANSWER:
                out[node] = KafkaTimeout(
                    f"Broker {node} did not answer DescribeLogDirs in time.", code="kafka_timeout"
                )
            elif error:
                out[node] = KafkaCallFailed(
                    f"Broker {node} refused DescribeLogDirs (error code {error}).",
                    code="kafka_error",
                )
            else:
                out[node] = dirs
        return out

    def list_reassignments(self) -> dict[TP, Reassigning]:
        """Partitions being reassigned now: target-then-removing replicas, adding, removing."""
        what = "list partition reassignments"
        error, message, moving = self._wire(what, self.wire.reassignments, self.timeout)
        if error:
            raise _refusal(error, message, what)
        return {tp: Reassigning(r.replicas, r.adding, r.removing) for tp, r in moving.items()}

    def alter_reassignments(self, targets: Mapping[TP, list[int] | None]) -> dict[TP, str | None]:
        """Start each partition's move to its target replicas (None: cancel its move); per
        partition None when accepted, else Kafka's error name and message."""
        what = "alter partition reassignments"
        error, message, answers = self._wire(
            what, self.wire.alter_reassignments, targets, self.timeout
        )
        if error:
            raise _refusal(error, message, what)
        out: dict[TP, str | None] = {}
        for tp in targets:
            code, text = answers.get(tp, (protocol.UNKNOWN_SERVER_ERROR, "no answer"))
            out[tp] = None if not code else f"{KafkaError(code).name()}: {text or ''}".strip()
        return out

    def broker_api_versions(self, broker_id: int) -> dict[int, tuple[int, int]]:
        """{api key: (min, max)} the broker speaks (its ApiVersions answer)."""
        addresses = self.broker_addresses()
        if broker_id not in addresses:
            raise KafkaCallFailed(f"Broker {broker_id} is not live.", code="broker_not_live")
        return self._wire(
            f"ApiVersions of broker {broker_id}",
            self.wire.pool.api_versions,
            addresses[broker_id],
            self.timeout,
        )

    def topic_config_values(
        self, topics: list[str], keys: list[str], brokers: list[Broker] | None = None
    ) -> dict[str, dict[str, str | None]]:
        """A few config keys of many topics, in small answers spread over the brokers."""
        addresses = [(b.host, b.port) for b in brokers] if brokers else None
        return self._wire(
            "describe topic configs",
            self.wire.topic_config_values,
            topics,
            keys,
            self.timeout,
            addresses,
        )

    def list_offsets(
        self, partitions: Iterable[TP], spec: str | int, committed: bool = False
    ) -> dict[TP, OffsetResult | KafkaAdapterError]:
        """Offsets of many partitions: one ListOffsets per leader broker (the wire client).

        `spec` is "earliest", "latest", "max_timestamp" or a timestamp in epoch millis; with
        `committed`, as a read_committed consumer sees them ("latest" is the last stable
        offset). A partition that fails (its leader offline, say) maps to its error; the rest
        still count.
        """
        answers = self._offset_answers(partitions, spec, committed=committed)
        out: dict[TP, OffsetResult | KafkaAdapterError] = {}
        for tp, (error, ts, offset) in answers.items():
            if not error:
                out[tp] = OffsetResult(offset, ts if ts >= 0 else None)
            elif error == NO_ANSWER:
                out[tp] = KafkaTimeout(
                    f"The leader of {tp[0]}/{tp[1]} did not answer in time.", code="kafka_timeout"
                )
            else:
                kafka_error = KafkaError(error)
                out[tp] = KafkaCallFailed(
                    f"Kafka refused offsets of {tp[0]}/{tp[1]}: {kafka_error.str()}.",
                    code="kafka_error",
                    details={"kafka_error": kafka_error.name()},
                )
        return out

    def log_offsets(
        self,
        partitions: Iterable[TP],
        spec: str | int,
        leaders: Mapping[TP, tuple[str, int]] | None = None,
    ) -> dict[TP, int | None]:
        """`list_offsets` reduced to the offsets, None where a partition failed: the lag
        sampler's form, without an object per partition (tens of thousands per pass).
        `leaders` ((host, port) per partition, from a fresh snapshot) saves a Metadata call."""
        return {
            tp: (offset if not error else None)
            for tp, (error, _ts, offset) in self._offset_answers(partitions, spec, leaders).items()
        }

    def _offset_answers(
        self,
        partitions: Iterable[TP],
        spec: str | int,
        leaders: Mapping[TP, tuple[str, int]] | None = None,
        committed: bool = False,
    ) -> dict[TP, tuple[int, int, int]]:
        timestamp = _OFFSET_SPECS.get(spec) if isinstance(spec, str) else None
        if timestamp is None:
            timestamp = int(spec)
        wanted = list(partitions)
        if not wanted:
            return {}
        return self._wire(
            "list offsets",
            self.wire.list_offsets,
            wanted,
            timestamp,
            self.timeout,
            leaders,
            committed,
        )

    # --- producing -------------------------------------------------------------------------

    def produce(
        self,
        topic: str,
        partition: int | None,
        key: bytes | None,
        value: bytes | None,
        headers: list[tuple[str, bytes | None]],
    ) -> tuple[int, int, int | None]:
        """Write one record and wait for the brokers' acknowledgement (acks=all, idempotent);
        (partition, offset, timestamp ms). Without a partition, Kafka's murmur2 partitioner
        picks one for a key, a sticky one for a null key."""
        done: list[Any] = []
        pairs: list[tuple[str, str | bytes | None]] = list(headers)
        producer = self._producer_instance()
        # librdkafka's "unassigned" partition (-1) lets its partitioner choose.
        producer.produce(
            topic,
            value=value,
            key=key,
            partition=-1 if partition is None else partition,
            headers=pairs,
            on_delivery=lambda err, msg: done.append((err, msg)),
        )
        deadline = time.monotonic() + self.timeout
        while not done and time.monotonic() < deadline:
            producer.poll(min(0.1, max(0.0, deadline - time.monotonic())))
        if not done:
            raise self._no_answer(f"produce to {topic}")
        err, msg = done[0]
        if err is not None:
            raise self._translate(err, f"produce to {topic}")
        _, ts = msg.timestamp()
        return msg.partition(), msg.offset(), ts if ts >= 0 else None

    def _producer_instance(self) -> Producer:
        with self._lock:
            if self._producer is None:
                self._producer = Producer(
                    self.config(
                        **{
                            "acks": "all",
                            "enable.idempotence": True,
                            "partitioner": "murmur2_random",  # Java's, for keyed records
                            "linger.ms": 0,
                            "log_level": 2,
                        }
                    )
                )
            return self._producer

    # --- topic changes -------------------------------------------------------------------

    def create_topic(
        self,
        name: str,
        partitions: int,
        replication_factor: int,
        configs: Mapping[str, str],
        validate_only: bool = False,
    ) -> None:
        """Create one topic (or only validate the request, which changes nothing)."""
        topic = NewTopic(
            name,
            num_partitions=partitions,
            replication_factor=replication_factor,
            config=dict(configs),
        )
        futures = self.admin().create_topics(
            [topic],
            operation_timeout=self.timeout,
            request_timeout=self.timeout,
            validate_only=validate_only,
        )
        self._result(futures[name], f"create topic {name}")

    def delete_topics(self, names: list[str]) -> None:
        """Delete topics in one request; the first failure is raised after all have answered."""
        futures = self.admin().delete_topics(
            names, operation_timeout=self.timeout, request_timeout=self.timeout
        )
        for result in self._wait_all(futures).values():
            if isinstance(result, KafkaAdapterError):
                raise result

    def alter_topic_configs(
        self,
        name: str,
        set_configs: Mapping[str, str],
        delete_configs: Iterable[str],
        validate_only: bool = False,
    ) -> None:
        """Incrementally set and delete topic config keys (others stay as they are)."""
        self._alter_configs(ResourceType.TOPIC, name, set_configs, delete_configs, validate_only)

    def alter_broker_configs(
        self,
        broker_id: int | None,
        set_configs: Mapping[str, str],
        delete_configs: Iterable[str],
        validate_only: bool = False,
    ) -> None:
        """Incrementally set and delete dynamic broker configs of one broker, or the
        cluster-wide default (`broker_id` None: kafka-configs.sh --entity-default)."""
        if broker_id is not None:
            self._alter_configs(
                ResourceType.BROKER, str(broker_id), set_configs, delete_configs, validate_only
            )
            return
        # librdkafka refuses to name the default entity (""): the wire client asks.
        what = "alter the cluster-wide broker configs"
        error, message = self._wire(
            what,
            self.wire.alter_broker_defaults,
            set_configs,
            list(delete_configs),
            validate_only,
            self.timeout,
        )
        if error:
            raise _refusal(error, message, what)

    def describe_broker_defaults(self) -> dict[str, ConfigValue]:
        """The cluster-wide dynamic broker configs (DescribeConfigs of the default entity)."""
        what = "describe the cluster-wide broker configs"
        answer = self._wire(what, self.wire.broker_defaults, self.timeout)
        if isinstance(answer, int):
            raise _refusal(answer, None, what)
        return answer

    def _alter_configs(
        self,
        kind: Any,
        name: str,
        set_configs: Mapping[str, str],
        delete_configs: Iterable[str],
        validate_only: bool,
    ) -> None:
        entries = [
            ConfigEntry(k, str(v), incremental_operation=AlterConfigOpType.SET)
            for k, v in set_configs.items()
        ] + [
            ConfigEntry(k, None, incremental_operation=AlterConfigOpType.DELETE)
            for k in delete_configs
        ]
        resource = ConfigResource(kind, name, incremental_configs=entries)
        futures = self.admin().incremental_alter_configs(
            [resource], request_timeout=self.timeout, validate_only=validate_only
        )
        what = f"alter configs of {name}" if name else "alter the cluster-wide broker configs"
        for future in futures.values():
            self._result(future, what)

    def create_partitions(self, name: str, total: int, validate_only: bool = False) -> None:
        futures = self.admin().create_partitions(
            [NewPartitions(name, total)],
            operation_timeout=self.timeout,
            request_timeout=self.timeout,
            validate_only=validate_only,
        )
        self._result(futures[name], f"add partitions to {name}")

    def elect_leaders(self, election: str, partitions: Iterable[TP] | None) -> dict[TP, str | None]:
        """A preferred or unclean election; per partition, None or the error's sentence."""
        kind = ElectionType.PREFERRED if election == "preferred" else ElectionType.UNCLEAN
        tps = None if partitions is None else [TopicPartition(t, p) for t, p in partitions]
        # No timeout kwargs: this binding's elect_leaders rejects them (confluent-kafka 2.16),
        # so the bounded wait in _result bounds the call instead.
        results = self._result(self.admin().elect_leaders(kind, tps), f"{election} election")
        return {
            (tp.topic, tp.partition): None if error is None else _error_sentence(error)
            for tp, error in results.items()
        }

    # --- ACLs ----------------------------------------------------------------------------

    def describe_acls(self, flt: AclFilter) -> list[Acl]:
        """The bindings a filter selects (DescribeAcls), sorted."""
        what = "describe ACLs"
        error, message, acls = self._wire(what, self.wire.describe_acls, flt, self.timeout)
        if error:
            raise _refusal(error, message, what)
        return sorted(acls)

    def create_acls(self, acls: list[Acl]) -> dict[Acl, str | None]:
        """Create bindings (CreateAcls); per binding, None or the refusal's sentence."""
        what = "create ACLs"
        answers = self._wire(what, self.wire.create_acls, acls, self.timeout)
        if len(answers) != len(acls):
            raise KafkaCallFailed(
                f"Kafka answered {what} for {len(answers)} of {len(acls)}.", code="kafka_error"
            )
        return {
            acl: None if not error else _refusal(error, message, what).message
            for acl, (error, message) in zip(acls, answers, strict=True)
        }

    def delete_acls(self, filters: list[AclFilter]) -> list[Acl]:
        """Delete what the filters select (DeleteAcls): the bindings Kafka deleted, sorted."""
        what = "delete ACLs"
        answers = self._wire(what, self.wire.delete_acls, filters, self.timeout)
        deleted: set[Acl] = set()
        for error, message, acls in answers:
            if error:
                raise _refusal(error, message, what)
            deleted.update(acls)
        return sorted(deleted)

    # --- client quotas ---------------------------------------------------------------------

    def describe_client_quotas(
        self, entity_types: list[str] | None = None, entity: QuotaEntity | None = None
    ) -> dict[QuotaEntity, dict[str, float]]:
        """Entities with quotas and their values (DescribeClientQuotas). `entity`: exactly that
        one; `entity_types` (user, client-id, ip): the entities of exactly those types, named
        or default, as `kafka-configs.sh --describe --entity-type users` lists them; neither:
        every entity."""
        if entity is not None:
            components = [
                (kind, MATCH_DEFAULT if name is None else MATCH_EXACT, name)
                for kind, name in entity
            ]
        else:
            components = [(kind, MATCH_SPECIFIED, None) for kind in entity_types or []]
        strict = bool(components)
        what = "describe client quotas"
        call = self.wire.describe_client_quotas
        error, message, found = self._wire(what, call, components, strict, self.timeout)
        if error:
            raise _refusal(error, message, what)
        return found

    def alter_client_quotas(
        self,
        entity: QuotaEntity,
        set_values: dict[str, float],
        remove: list[str],
        validate_only: bool = False,
    ) -> None:
        """Set and remove one entity's quota values (AlterClientQuotas); a refusal raises with
        the controller's sentence (e.g. "Quota producer_byte_rate must be greater than 0")."""
        what = "alter client quotas"
        answers = self._wire(
            what,
            self.wire.alter_client_quotas,
            entity,
            set_values,
            remove,
            validate_only,
            self.timeout,
        )
        for error, message, _entity in answers:
            if error:
                raise _refusal(error, message, what)
        if not answers:
            raise KafkaCallFailed(f"Kafka answered {what} for no entity.", code="kafka_error")

    # --- SCRAM credentials -----------------------------------------------------------------

    def describe_scram_credentials(self) -> list[ScramCredential]:
        """Every user's SCRAM credentials (DescribeUserScramCredentials), sorted."""
        # Without users, one future of {user: description} (with users, a future per user).
        future = self.admin().describe_user_scram_credentials(request_timeout=self.timeout)
        assert isinstance(future, Future)
        described = self._result(future, "describe SCRAM credentials")
        return sorted(
            ScramCredential(user, _MECHANISM_NAMES[info.mechanism], int(info.iterations))
            for user, description in described.items()
            for info in description.scram_credential_infos
        )

    def upsert_scram_credential(
        self, user: str, mechanism: str, password: str, iterations: int
    ) -> None:
        """Create or replace one credential (AlterUserScramCredentials). The client salts and
        hashes the password: only the salted password reaches Kafka."""
        info = ScramCredentialInfo(_MECHANISMS[mechanism], iterations)
        change = UserScramCredentialUpsertion(user, info, password.encode())
        self._alter_scram(change, f"store the {mechanism} credential of {user}")

    def delete_scram_credential(self, user: str, mechanism: str) -> None:
        change = UserScramCredentialDeletion(user, _MECHANISMS[mechanism])
        self._alter_scram(change, f"delete the {mechanism} credential of {user}")

    def _alter_scram(self, change: Any, what: str) -> None:
        futures = self.admin().alter_user_scram_credentials([change], request_timeout=self.timeout)
        for future in futures.values():
            self._result(future, what)

    # --- consumer groups -----------------------------------------------------------------

    def list_groups(self) -> list[GroupListing]:
        """Every group of the cluster with its state and protocol type: ListGroups to every
        broker at once, through the wire client (librdkafka's listing drops the protocol
        type, which lets the lag read skip describing groups that are Empty)."""
        deadline = time.monotonic() + self.timeout
        for attempt in range(1, _LIST_GROUPS_ATTEMPTS + 1):
            answers = self._wire("list consumer groups", self.wire.list_groups, self.timeout)
            errors = [code for code, _ in answers.values() if code]
            if not errors:
                break
            # A broker whose group coordinator is still loading (just restarted) answers
            # COORDINATOR_LOAD_IN_PROGRESS for a moment: asked again within the timeout. A
            # broker that did not answer is an error of the listing, not an empty cluster.
            delay = 0.25 * attempt
            retriable = all(code in protocol.RETRIABLE_GROUP_ERRORS for code in errors)
            if not retriable or attempt == _LIST_GROUPS_ATTEMPTS:
                raise self._listing_error(errors[0])
            if time.monotonic() + delay > deadline:
                raise self._listing_error(errors[0])
            time.sleep(delay)
        listed = {g.group_id: g for _, groups in answers.values() for g in groups}
        return sorted(
            (
                GroupListing(g.group_id, g.state, g.protocol_type == "", g.protocol_type)
                for g in listed.values()
            ),
            key=lambda g: g.group_id,
        )

    @staticmethod
    def _listing_error(error: int) -> KafkaAdapterError:
        return _group_call_error(
            error, "A broker did not answer the list of consumer groups", "list consumer groups"
        )

    def describe_groups(self, group_ids: Iterable[str]) -> dict[str, GroupDescription]:
        """Many groups in one call per coordinator (DescribeGroups through the wire client).

        A group Kafka does not know is returned as Dead. Groups the classic DescribeGroups
        does not describe (GROUP_ID_NOT_FOUND: KIP-848 consumer groups) are asked again
        through librdkafka, which speaks ConsumerGroupDescribe.
        """
        ids = list(dict.fromkeys(group_ids))
        if not ids:
            return {}
        answers = self._wire("describe groups", self.wire.describe_groups, ids, self.timeout)
        out: dict[str, GroupDescription] = {}
        other_protocol = []
        for gid in ids:
            node, answer = answers.get(gid, (-1, NO_ANSWER))
            if answer == protocol.GROUP_ID_NOT_FOUND:
                other_protocol.append(gid)
                continue
            if isinstance(answer, int):
                raise self._group_error(gid, answer)
            out[gid] = GroupDescription(
                group_id=gid,
                state=answer.state,
                protocol_type=answer.protocol_type,
                assignor=answer.assignor,
                members=[
                    GroupMember(m.member_id, m.client_id, m.host, m.assignment)
                    for m in answer.members
                ],
                coordinator_id=node if node >= 0 else None,
                exists=answer.state != "Dead",
            )
        if other_protocol:
            out.update(self._describe_groups_librdkafka(other_protocol))
        return out

    def _group_error(self, group_id: str, error: int) -> KafkaAdapterError:
        return _group_call_error(
            error,
            f"The coordinator of group {group_id} did not answer",
            f"describe group {group_id}",
        )

    def _describe_groups_librdkafka(self, group_ids: Iterable[str]) -> dict[str, GroupDescription]:
        """librdkafka's DescribeConsumerGroups (one request per group), which also speaks
        ConsumerGroupDescribe for KIP-848 groups. A group Kafka does not know is Dead."""
        ids = list(group_ids)
        if not ids:
            return {}
        results: dict[str, Any] = {}
        pending = ids
        for attempt in range(_COORDINATOR_ATTEMPTS):
            if attempt:
                time.sleep(0.3 * attempt)
            futures = self.admin().describe_consumer_groups(pending, request_timeout=self.timeout)
            results.update(self._wait_all(futures))
            # A coordinator that just moved (broker restart, leader rebalance) answers
            # NOT_COORDINATOR for a moment: ask those groups again, briefly.
            pending = [
                gid
                for gid in pending
                if isinstance(results[gid], KafkaCallFailed)
                and results[gid].kafka_error in _COORDINATOR_MOVED
            ]
            if not pending:
                break
        out: dict[str, GroupDescription] = {}
        for gid, result in results.items():
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
        self, groups: Mapping[str, Iterable[TP] | None], stable: bool = False
    ) -> dict[str, dict[TP, int | None]]:
        """Committed offsets of many groups (None = every partition the group committed on).

        One OffsetFetch per coordinator for all groups, through the wire client. A partition
        without a committed offset maps to None. `stable`: read what the coordinator holds
        now, once replicated (a read after a commit of one's own); otherwise its last
        replicated snapshot, which is cheaper and what a lag reading wants.
        """
        if not groups:
            return {}
        return self._wire(
            "the committed-offsets request",
            partial(self.wire.committed_offsets, stable=stable),
            groups,
            self.timeout,
        )

    def commit_offsets(self, group: str, offsets: Mapping[TP, int]) -> dict[TP, str | None]:
        """Commit offsets for an inactive group; per partition, None or the error's sentence."""
        tps = [TopicPartition(t, p, o) for (t, p), o in offsets.items()]
        future = self.admin().alter_consumer_group_offsets(
            [ConsumerGroupTopicPartitions(group, tps)], request_timeout=self.timeout
        )[group]
        result = self._result(future, f"commit offsets of group {group}")
        out: dict[TP, str | None] = dict.fromkeys(offsets)
        for tp in result.topic_partitions:
            out[(tp.topic, tp.partition)] = None if tp.error is None else _error_sentence(tp.error)
        return out

    def delete_group(self, group: str) -> None:
        future = self.admin().delete_consumer_groups([group], request_timeout=self.timeout)[group]
        self._result(future, f"delete group {group}")

    def record_timestamps(self, positions: Mapping[TP, int]) -> dict[TP, int | None]:
        """Timestamp of the first record at or after each offset (None at the log end)."""
        found = self.record_timestamps_at(positions.items())
        return {tp: found[(tp, offset)] for tp, offset in positions.items()}

    def record_timestamps_at(
        self, positions: Iterable[tuple[TP, int]]
    ) -> dict[tuple[TP, int], int | None]:
        """Timestamps of the first record at or after each (partition, offset), several offsets
        of one partition allowed: one throw-away consumer (never commits) reads one record per
        position, all partitions at once per round, one round per offset of the same partition.
        None where the offset is the log end or nothing came within the timeout."""
        out: dict[tuple[TP, int], int | None] = dict.fromkeys(positions)
        if not out:
            return out
        rounds: list[dict[TP, int]] = []
        for tp, offset in sorted(out):
            for round_ in rounds:
                if tp not in round_:
                    round_[tp] = offset
                    break
            else:
                rounds.append({tp: offset})
        consumer = Consumer(
            self.config(
                **{
                    "group.id": "kafka-console-peek",
                    "enable.auto.commit": False,
                    "enable.partition.eof": True,
                    "auto.offset.reset": "latest",
                    "max.partition.fetch.bytes": 65536,
                    "fetch.wait.max.ms": 10,  # a round waits on the slowest partition
                    "log_level": 2,
                }
            )
        )
        deadline = time.monotonic() + self.timeout
        try:
            for round_ in rounds:
                assignment = [TopicPartition(t, p, o) for (t, p), o in round_.items()]
                consumer.assign(assignment)
                consumer.resume(assignment)  # paused in an earlier round: fetch again
                pending = set(round_)
                while pending and time.monotonic() < deadline:
                    # Short waits: consume() returns early only once it has num_messages.
                    batch = consumer.consume(num_messages=len(pending), timeout=0.05)
                    for message in batch:
                        key = (message.topic(), message.partition())
                        if key not in pending:
                            continue
                        if message.error() is None:
                            _, ts = message.timestamp()
                            out[(key, round_[key])] = ts if ts >= 0 else None
                        pending.discard(key)  # a record, or the end of the partition
                        consumer.pause([TopicPartition(*key)])
        finally:
            consumer.close()
        return out


_clients: dict[tuple, ClusterClient] = {}
_clients_lock = threading.Lock()


def for_cluster(cfg: ClusterConfig, timeout: float | None = None) -> ClusterClient:
    """The one client of a registered cluster (cached: admin clients and TLS are costly).

    The timeout is `KAFKA_TIMEOUT_SECONDS` unless given; a missing topic is believed after
    `KAFKA_TOPIC_GRACE_SECONDS`.
    """
    from django.conf import settings

    if timeout is None:
        timeout = float(getattr(settings, "KAFKA_TIMEOUT_SECONDS", DEFAULT_TIMEOUT_S))
    grace = float(getattr(settings, "KAFKA_TOPIC_GRACE_SECONDS", TOPIC_GRACE_S))
    key = (cfg.fingerprint(), timeout)
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = ClusterClient(cfg, timeout, grace)
        return client
