"""Encoding and decoding of the few Kafka requests the wire client sends (pure functions).

- DescribeQuorum v0 (API 55): the active KRaft controller, which librdkafka cannot ask for.
- FindCoordinator v4 + OffsetFetch v8: committed offsets of many groups in one request per
  coordinator (KIP-709). librdkafka sends one group per request, and its admin
  ListConsumerGroupOffsets crashes the process when a coordinator answers NOT_COORDINATOR
  (confluentinc/librdkafka#5040, open), which happens whenever group coordinators move.
- DescribeGroups v5: many groups in one request per coordinator (librdkafka: one per group).
- DescribeConfigs v4 with configuration keys: one key (min.insync.replicas) of thousands of
  topics in a small answer; librdkafka always asks for every key.
- SaslHandshake v1 + SaslAuthenticate v2: the SASL exchange (PLAIN, SCRAM) on a new connection.
- ApiVersions v3: first on every connection, so a request the broker does not speak is refused
  here with a sentence naming the request and the versions (`unsupported`), not sent.
- Metadata v12 + ListOffsets v7: partition leaders, then offsets of thousands of partitions in
  one request per leader broker. librdkafka's admin ListOffsets builds a future per partition
  (seconds of Python at 40,000 partitions) and keeps stale leaders after a broker restarts.
- IncrementalAlterConfigs v1 and DescribeConfigs of the broker resource "": the cluster-wide
  broker defaults (kafka-configs.sh --entity-default), which librdkafka refuses to name.
- ListPartitionReassignments v0 and AlterPartitionReassignments v0: the partitions being
  moved now, and moving (or cancelling) them; librdkafka has neither.
- DescribeLogDirs v4: a broker's log directories (total and usable bytes) and the size of
  every replica in them; librdkafka has no DescribeLogDirs.

All but SaslHandshake are flexible (compact strings and arrays, tagged fields): request header
v2 and response header v1. SaslHandshake uses request header v1 and response header v0, and so
does every ApiVersions response (a broker must be able to answer it before it knows which
versions the client speaks).

`SPOKEN` lists the version of each request sent here; together they need Kafka 3.1 or newer
(`MINIMUM_KAFKA`): OffsetFetch v8 and FindCoordinator v4 came with 3.0, Metadata v12 with 3.1.
DescribeLogDirs v4 came with 3.3: on a 3.1 or 3.2 broker only the broker page's log
directories are refused (kafka_version_unsupported), everything else works.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from console.kafka.types import ConfigValue, LogDir, PartitionMeta, ReplicaSize

TP = tuple[str, int]

DESCRIBE_QUORUM = 55
FIND_COORDINATOR = 10
OFFSET_FETCH = 9
# Group errors after which asking the (new) coordinator again is the right thing.
RETRIABLE_GROUP_ERRORS = {14, 15, 16}  # LOAD_IN_PROGRESS, NOT_AVAILABLE, NOT_COORDINATOR
GROUP_ID_NOT_FOUND = 69
UNKNOWN_SERVER_ERROR = -1


class ProtocolError(Exception):
    pass


# --- encoding -------------------------------------------------------------------------------


def uvarint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def compact_string(text: str) -> bytes:
    data = text.encode()
    return uvarint(len(data) + 1) + data


def compact_array(items: list[bytes] | None) -> bytes:
    if items is None:
        return uvarint(0)
    return uvarint(len(items) + 1) + b"".join(items)


NO_TAGS = b"\x00"


def compact_bytes(data: bytes) -> bytes:
    return uvarint(len(data) + 1) + data


def request(
    api_key: int, version: int, correlation_id: int, body: bytes, flexible: bool = True
) -> bytes:
    """A sized request: header v2 (flexible, with tags) or v1, then the body."""
    client_id = b"kafka-console"
    header = struct.pack(">hhih", api_key, version, correlation_id, len(client_id)) + client_id
    payload = header + (NO_TAGS if flexible else b"") + body
    return struct.pack(">i", len(payload)) + payload


# --- decoding -------------------------------------------------------------------------------


class Reader:
    def __init__(self, data: bytes, pos: int = 0):
        self.data = data
        self.pos = pos

    def _unpack(self, fmt: str) -> int:
        (value,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += struct.calcsize(fmt)
        return value

    def int8(self) -> int:
        return self._unpack(">b")

    def int16(self) -> int:
        return self._unpack(">h")

    def int32(self) -> int:
        return self._unpack(">i")

    def int64(self) -> int:
        return self._unpack(">q")

    def uvarint(self) -> int:
        shift = value = 0
        while True:
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7

    def string(self) -> str | None:
        length = self.int16()
        if length < 0:
            return None
        text = self.data[self.pos : self.pos + length].decode()
        self.pos += length
        return text

    def compact_bytes(self) -> bytes | None:
        length = self.uvarint()
        if length == 0:
            return None
        data = self.data[self.pos : self.pos + length - 1]
        self.pos += length - 1
        return data

    def compact_string(self) -> str | None:
        length = self.uvarint()
        if length == 0:
            return None
        text = self.data[self.pos : self.pos + length - 1].decode()
        self.pos += length - 1
        return text

    def array_length(self) -> int:
        return max(0, self.uvarint() - 1)

    def tags(self) -> None:
        for _ in range(self.uvarint()):
            self.uvarint()  # tag
            size = self.uvarint()  # read before moving: `pos += uvarint()` would lose it
            self.pos += size


def response_body(payload: bytes) -> Reader:
    """A reader positioned after response header v1 (correlation id, tags)."""
    reader = Reader(payload)
    reader.int32()
    reader.tags()
    return reader


# --- DescribeQuorum -------------------------------------------------------------------------


def describe_quorum_request(correlation_id: int) -> bytes:
    partition = struct.pack(">i", 0) + NO_TAGS
    topic = compact_string("__cluster_metadata") + compact_array([partition]) + NO_TAGS
    return request(DESCRIBE_QUORUM, 0, correlation_id, compact_array([topic]) + NO_TAGS)


def parse_describe_quorum_leader(payload: bytes) -> int | None:
    """Leader id from a DescribeQuorum v0 response, or None on any error."""
    reader = response_body(payload)
    if reader.int16():
        return None
    if reader.array_length() < 1:
        return None
    reader.compact_string()
    if reader.array_length() < 1:
        return None
    reader.int32()  # partition index
    error, leader = reader.int16(), reader.int32()
    return leader if error == 0 and leader >= 0 else None


# --- FindCoordinator + OffsetFetch ----------------------------------------------------------


def find_coordinators_request(groups: list[str], correlation_id: int) -> bytes:
    body = struct.pack(">b", 0) + compact_array([compact_string(g) for g in groups]) + NO_TAGS
    return request(FIND_COORDINATOR, 4, correlation_id, body)


class Coordinator(NamedTuple):
    node_id: int
    host: str
    port: int

    @property
    def address(self) -> tuple[str, int]:
        return (self.host, self.port)


def parse_find_coordinators(payload: bytes) -> dict[str, Coordinator | int]:
    """Per group: its coordinator, or the error code."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out: dict[str, Coordinator | int] = {}
    for _ in range(reader.array_length()):
        key = reader.compact_string() or ""
        node = reader.int32()
        host = reader.compact_string() or ""
        port = reader.int32()
        error = reader.int16()
        reader.compact_string()  # error message
        reader.tags()
        out[key] = error if error else Coordinator(node, host, port)
    return out


# --- ListGroups -----------------------------------------------------------------------------

LIST_GROUPS = 16


class ListedGroup(NamedTuple):
    group_id: str
    protocol_type: str  # "" for a group that only commits offsets (a "simple" group)
    state: str  # as Kafka's tools print it: Stable, Empty, PreparingRebalance, ...


def list_groups_request(correlation_id: int) -> bytes:
    """ListGroups v4 (Kafka 2.6+, the first with each group's state): every group the broker
    coordinates, in every state (an empty states filter)."""
    return request(LIST_GROUPS, 4, correlation_id, compact_array([]) + NO_TAGS)


def parse_list_groups(payload: bytes) -> tuple[int, list[ListedGroup]]:
    """(error code, the broker's groups)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error = reader.int16()
    groups = []
    for _ in range(reader.array_length()):
        group_id = reader.compact_string() or ""
        protocol_type = reader.compact_string() or ""
        state = reader.compact_string() or ""
        reader.tags()
        groups.append(ListedGroup(group_id, protocol_type, state))
    return error, groups


_OFFSET_FETCH_PARTITION = struct.Struct(">iqi")  # index, committed offset, leader epoch
_INT16 = struct.Struct(">h")


def offset_fetch_request(
    groups: Mapping[str, list[TP] | None], correlation_id: int, require_stable: bool = False
) -> bytes:
    """OffsetFetch v8. `require_stable`: the coordinator answers from its latest state once
    that is replicated (KIP-447), not from its last replicated snapshot, which can still miss
    an acknowledged commit for a moment after the coordinator moved."""
    entries = []
    for group, partitions in groups.items():
        topics: list[bytes] | None = None
        if partitions is not None:
            by_topic: dict[str, list[int]] = {}
            for topic, partition in partitions:
                by_topic.setdefault(topic, []).append(partition)
            topics = [
                compact_string(topic)
                + compact_array([struct.pack(">i", p) for p in sorted(parts)])
                + NO_TAGS
                for topic, parts in sorted(by_topic.items())
            ]
        entries.append(compact_string(group) + compact_array(topics) + NO_TAGS)
    body = compact_array(entries) + struct.pack(">b", 1 if require_stable else 0) + NO_TAGS
    return request(OFFSET_FETCH, 8, correlation_id, body)


# A partition's answer without metadata or tagged fields (what brokers send for offsets
# committed by Kafka's clients): index, offset, leader epoch, empty metadata (its length + 1,
# 1), error code, no tags. A topic's run of them is read in C.
_PLAIN_OFFSET = struct.Struct(">iqiBhB")


def _plain_run(run: bytes, count: int) -> bool:
    """Whether `run` is `count` answers laid out as `_PLAIN_OFFSET` (the first one that is
    not has its metadata length or tag count where this layout expects it, so checking
    those bytes is enough)."""
    size = _PLAIN_OFFSET.size
    return (
        len(run) == count * size
        and run[16::size].count(1) == count
        and run[size - 1 :: size].count(0) == count
    )


def parse_offset_fetch(payload: bytes) -> dict[str, dict[TP, int | None] | int]:
    """Per group: {(topic, partition): committed offset or None}, or the group's error code."""
    reader = response_body(payload)
    reader.int32()  # throttle
    data = reader.data
    out: dict[str, dict[TP, int | None] | int] = {}
    for _ in range(reader.array_length()):
        group = reader.compact_string() or ""
        offsets: dict[TP, int | None] = {}
        for _ in range(reader.array_length()):
            topic = reader.compact_string() or ""
            count = reader.array_length()
            end = reader.pos + count * _PLAIN_OFFSET.size
            run = data[reader.pos : end] if end <= len(data) else b""
            if _plain_run(run, count):
                offsets.update(
                    ((topic, partition), committed if committed >= 0 and not error else None)
                    for partition, committed, _, _, error, _ in _PLAIN_OFFSET.iter_unpack(run)
                )
                reader.pos = end
                reader.tags()
                continue
            for _ in range(count):
                # Thousands of partitions per answer: fixed fields in one unpack.
                partition, committed, _epoch = _OFFSET_FETCH_PARTITION.unpack_from(data, reader.pos)
                reader.pos += _OFFSET_FETCH_PARTITION.size
                metadata_size = data[reader.pos]  # committed metadata: skipped
                if metadata_size < 0x80:  # a one-byte length (always, for short metadata)
                    reader.pos += 1 + max(0, metadata_size - 1)
                else:
                    metadata_size = reader.uvarint()  # read before moving (see Reader.tags)
                    reader.pos += max(0, metadata_size - 1)
                (error,) = _INT16.unpack_from(data, reader.pos)
                reader.pos += 2
                if data[reader.pos]:
                    reader.tags()
                else:  # no tagged fields (always, today): one byte, no call
                    reader.pos += 1
                offsets[(topic, partition)] = committed if committed >= 0 and not error else None
            reader.tags()
        error = reader.int16()
        reader.tags()
        out[group] = error if error and error != GROUP_ID_NOT_FOUND else offsets
    return out


# --- DescribeGroups -------------------------------------------------------------------------

DESCRIBE_GROUPS = 15


class DescribedMember(NamedTuple):
    member_id: str
    client_id: str
    host: str
    assignment: list[TP]  # decoded for consumer groups; [] for other protocols


class DescribedGroup(NamedTuple):
    state: str  # as Kafka names it: Stable, Empty, PreparingRebalance, Dead, ...
    protocol_type: str  # "consumer", "" for a group that only commits offsets, "connect", ...
    assignor: str
    members: list[DescribedMember]


def describe_groups_request(groups: list[str], correlation_id: int) -> bytes:
    """DescribeGroups v5 for many groups of one coordinator."""
    body = compact_array([compact_string(g) for g in groups]) + b"\x00" + NO_TAGS
    return request(DESCRIBE_GROUPS, 5, correlation_id, body)


def parse_consumer_assignment(data: bytes | None) -> list[TP]:
    """The partitions in a consumer-protocol Assignment (any version: version, then the
    topic partitions, then user data we do not need)."""
    if not data:
        return []
    reader = Reader(data)
    reader.int16()  # version
    out: list[TP] = []
    for _ in range(max(0, reader.int32())):
        topic = reader.string() or ""
        count = max(0, reader.int32())
        out.extend((topic, p) for p in struct.unpack_from(f">{count}i", data, reader.pos))
        reader.pos += 4 * count
    return sorted(out)


def parse_describe_groups(payload: bytes) -> dict[str, DescribedGroup | int]:
    """Per group: what it is, or its error code (69 GROUP_ID_NOT_FOUND: unknown to the
    classic protocol, e.g. a KIP-848 consumer group, which ConsumerGroupDescribe answers)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out: dict[str, DescribedGroup | int] = {}
    for _ in range(reader.array_length()):
        error = reader.int16()
        group = reader.compact_string() or ""
        state = reader.compact_string() or ""
        protocol_type = reader.compact_string() or ""
        assignor = reader.compact_string() or ""
        members = []
        for _ in range(reader.array_length()):
            member_id = reader.compact_string() or ""
            reader.compact_string()  # group instance id
            client_id = reader.compact_string() or ""
            host = reader.compact_string() or ""
            reader.compact_bytes()  # member metadata (subscription)
            assignment = reader.compact_bytes()
            reader.tags()
            partitions = (
                parse_consumer_assignment(assignment) if protocol_type == "consumer" else []
            )
            members.append(DescribedMember(member_id, client_id, host, partitions))
        reader.int32()  # authorized operations
        reader.tags()
        out[group] = error if error else DescribedGroup(state, protocol_type, assignor, members)
    return out


# --- DescribeConfigs ------------------------------------------------------------------------

DESCRIBE_CONFIGS = 32
TOPIC_RESOURCE = 2
BROKER_RESOURCE = 4
# DescribeConfigs' ConfigSource values, by the names Kafka's tools print.
CONFIG_SOURCES = {
    0: "UNKNOWN",
    1: "DYNAMIC_TOPIC_CONFIG",
    2: "DYNAMIC_BROKER_CONFIG",
    3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG",
    5: "DEFAULT_CONFIG",
    6: "DYNAMIC_BROKER_LOGGER_CONFIG",
    7: "CLIENT_METRICS_CONFIG",
    8: "GROUP_CONFIG",
}


def describe_configs_request(
    topics: list[str], keys: list[str] | None, correlation_id: int, kind: int = TOPIC_RESOURCE
) -> bytes:
    """DescribeConfigs v4 for topics (or other resources of `kind`, e.g. BROKER_RESOURCE
    with name "" for the cluster-wide broker defaults); `keys` None asks for every key."""
    wanted = None if keys is None else [compact_string(k) for k in keys]
    resources = [
        struct.pack(">b", kind) + compact_string(t) + compact_array(wanted) + NO_TAGS
        for t in topics
    ]
    # include_synonyms false, include_documentation false
    body = compact_array(resources) + b"\x00\x00" + NO_TAGS
    return request(DESCRIBE_CONFIGS, 4, correlation_id, body)


def parse_describe_configs(payload: bytes) -> dict[str, dict[str, str | None] | int]:
    """Per topic: {key: value}, or the resource's error code."""
    return {
        name: entries if isinstance(entries, int) else {k: v.value for k, v in entries.items()}
        for name, entries in parse_config_entries(payload).items()
    }


def parse_config_entries(payload: bytes) -> dict[str, dict[str, ConfigValue] | int]:
    """Per resource name: {key: ConfigValue with its source}, or the resource's error code.
    A sensitive value is dropped here (Kafka sends none anyway)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out: dict[str, dict[str, ConfigValue] | int] = {}
    for _ in range(reader.array_length()):
        error = reader.int16()
        reader.compact_string()  # error message
        reader.int8()  # resource type
        name = reader.compact_string() or ""
        values: dict[str, ConfigValue] = {}
        for _ in range(reader.array_length()):
            key = reader.compact_string() or ""
            value = reader.compact_string()
            read_only = bool(reader.int8())
            source = CONFIG_SOURCES.get(reader.int8(), "UNKNOWN")
            sensitive = bool(reader.int8())
            for _ in range(reader.array_length()):  # synonyms (none asked)
                reader.compact_string()
                reader.compact_string()
                reader.int8()
                reader.tags()
            reader.int8()  # config type
            reader.compact_string()  # documentation
            reader.tags()
            values[key] = ConfigValue(
                None if sensitive else value,
                source,
                source == "DEFAULT_CONFIG",
                read_only,
                sensitive,
            )
        reader.tags()
        out[name] = error if error else values
    return out


# --- IncrementalAlterConfigs ----------------------------------------------------------------

INCREMENTAL_ALTER_CONFIGS = 44
_SET, _DELETE = 0, 1


def incremental_alter_configs_request(
    kind: int,
    name: str,
    set_configs: Mapping[str, str],
    delete: list[str],
    validate_only: bool,
    correlation_id: int,
) -> bytes:
    """IncrementalAlterConfigs v1 of one resource: SET and DELETE operations."""
    ops = [
        compact_string(k) + struct.pack(">b", _SET) + compact_string(str(v)) + NO_TAGS
        for k, v in set_configs.items()
    ] + [compact_string(k) + struct.pack(">b", _DELETE) + uvarint(0) + NO_TAGS for k in delete]
    resource = struct.pack(">b", kind) + compact_string(name) + compact_array(ops) + NO_TAGS
    body = compact_array([resource]) + struct.pack(">?", validate_only) + NO_TAGS
    return request(INCREMENTAL_ALTER_CONFIGS, 1, correlation_id, body)


def parse_incremental_alter_configs(payload: bytes) -> list[tuple[int, str | None]]:
    """(error code, error message) per resource, in the request's order."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out = []
    for _ in range(reader.array_length()):
        error, message = reader.int16(), reader.compact_string()
        reader.int8()  # resource type
        reader.compact_string()  # resource name
        reader.tags()
        out.append((error, message))
    return out


# --- Metadata --------------------------------------------------------------------------------

METADATA = 3
LIST_OFFSETS = 2
_NULL_UUID = bytes(16)


@dataclass(frozen=True)
class Metadata:
    """A Metadata answer: brokers as advertised, and every partition's placement."""

    cluster_id: str | None
    controller_id: int
    brokers: dict[int, tuple[str, int, str | None]]  # node id -> (host, port, rack)
    topics: dict[str, list[PartitionMeta]]
    topic_errors: dict[str, int]  # e.g. 3 UNKNOWN_TOPIC_OR_PARTITION
    internal: frozenset[str]

    def leader_addresses(self) -> dict[TP, tuple[str, int]]:
        """(host, port) of each partition's leader, for partitions that have one."""
        out: dict[TP, tuple[str, int]] = {}
        for name, partitions in self.topics.items():
            for p in partitions:
                broker = self.brokers.get(p.leader) if p.leader is not None else None
                if broker is not None:
                    out[(name, p.partition)] = (broker[0], broker[1])
        return out


def metadata_request(topics: list[str] | None, correlation_id: int) -> bytes:
    """Metadata v12 for some topics (None: every topic); never creates a topic."""
    wanted = (
        None
        if topics is None
        else [_NULL_UUID + compact_string(t) + NO_TAGS for t in sorted(set(topics))]
    )
    body = compact_array(wanted) + b"\x00\x00" + NO_TAGS  # no auto-create, no authorized ops
    return request(METADATA, 12, correlation_id, body)


def _int32_array(reader: Reader) -> list[int]:
    count = reader.array_length()  # read before moving, as in Reader.tags
    values = list(struct.unpack_from(f">{count}i", reader.data, reader.pos))
    reader.pos += 4 * count
    return values


_PARTITION_HEAD = struct.Struct(">hiii")  # error, index, leader, leader epoch


def _metadata_partition(reader: Reader) -> PartitionMeta:
    # Tens of thousands per answer: the common shape (short arrays, no tagged fields) is read
    # inline; anything else goes through the general reader.
    data, pos = reader.data, reader.pos
    _error, index, leader, _epoch = _PARTITION_HEAD.unpack_from(data, pos)
    pos += _PARTITION_HEAD.size
    arrays: list[list[int]] = []
    for _ in range(3):  # replicas, isr, offline replicas
        size = data[pos]
        if size & 0x80:  # 127 or more entries: a multi-byte length
            reader.pos = pos
            arrays.append(_int32_array(reader))
            pos = reader.pos
            continue
        count = max(0, size - 1)
        arrays.append(list(struct.unpack_from(f">{count}i", data, pos + 1)))
        pos += 1 + 4 * count
    reader.pos = pos
    if data[pos]:
        reader.tags()
    else:
        reader.pos += 1
    return PartitionMeta(index, leader if leader >= 0 else None, arrays[0], arrays[1])


def metadata_controller_span(payload: bytes) -> tuple[int, int]:
    """Where the controller id sits in a Metadata answer: KRaft brokers name a random live
    broker there, so two answers about an unchanged cluster differ only in those 4 bytes."""
    reader = response_body(payload)
    reader.int32()  # throttle
    for _ in range(reader.array_length()):
        reader.int32()
        reader.compact_string()
        reader.int32()
        reader.compact_string()
        reader.tags()
    reader.compact_string()  # cluster id
    return reader.pos, reader.pos + 4


def parse_metadata(payload: bytes) -> Metadata:
    reader = response_body(payload)
    reader.int32()  # throttle
    brokers: dict[int, tuple[str, int, str | None]] = {}
    for _ in range(reader.array_length()):
        node = reader.int32()
        host = reader.compact_string() or ""
        port = reader.int32()
        rack = reader.compact_string()
        reader.tags()
        brokers[node] = (host, port, rack)
    cluster_id = reader.compact_string()
    controller_id = reader.int32()
    topics: dict[str, list[PartitionMeta]] = {}
    topic_errors: dict[str, int] = {}
    internal: set[str] = set()
    for _ in range(reader.array_length()):
        topic_error = reader.int16()
        name = reader.compact_string() or ""
        reader.pos += 16  # topic id
        if reader.int8():
            internal.add(name)
        partitions = [_metadata_partition(reader) for _ in range(reader.array_length())]
        reader.int32()  # topic authorized operations
        reader.tags()
        if topic_error:
            topic_errors[name] = topic_error
        if topic_error != UNKNOWN_TOPIC:  # e.g. a topic still electing leaders is listed
            topics[name] = sorted(partitions, key=lambda p: p.partition)
    reader.tags()
    return Metadata(cluster_id, controller_id, brokers, topics, topic_errors, frozenset(internal))


# --- ListOffsets -----------------------------------------------------------------------------

UNKNOWN_TOPIC = 3  # UNKNOWN_TOPIC_OR_PARTITION
LEADER_NOT_AVAILABLE = 5
# The special timestamps of ListOffsets.
LATEST, EARLIEST, MAX_TIMESTAMP = -1, -2, -3
# Partition errors after which fresh metadata (a new leader) is the answer.
LEADER_MOVED_ERRORS = {5, 6, 74, 75}  # LEADER_NOT_AVAILABLE, NOT_LEADER, FENCED/UNKNOWN EPOCH
_PARTITION_ANSWER = struct.Struct(">ihqqi")  # index, error, timestamp, offset, leader epoch
# The same with its tag count: a run of untagged answers is read in one call.
_UNTAGGED_ANSWER = struct.Struct(">ihqqiB")
_PARTITION_ASK = struct.Struct(">iiqB")  # index, current leader epoch, timestamp, no tags


def list_offsets_request(
    partitions: Mapping[str, list[int]],
    timestamp: int,
    correlation_id: int,
    committed: bool = False,
) -> bytes:
    """ListOffsets v7: read uncommitted (as kafka-consumer-groups.sh reads log ends), or with
    `committed` read committed (LATEST is then the last stable offset, and a time found at or
    past it answers -1)."""
    # One precompiled pack per partition (tens of thousands per sampler pass).
    pack = _PARTITION_ASK.pack
    topics = [
        compact_string(topic)
        + uvarint(len(parts) + 1)
        + b"".join([pack(p, -1, timestamp, 0) for p in sorted(parts)])
        + NO_TAGS
        for topic, parts in sorted(partitions.items())
    ]
    body = struct.pack(">ib", -1, 1 if committed else 0) + compact_array(topics) + NO_TAGS
    return request(LIST_OFFSETS, 7, correlation_id, body)


def parse_list_offsets(payload: bytes) -> dict[TP, tuple[int, int, int]]:
    """Per partition: (error code, timestamp, offset); -1 where nothing matched."""
    reader = response_body(payload)
    reader.int32()  # throttle
    data = reader.data
    out: dict[TP, tuple[int, int, int]] = {}
    size = _UNTAGGED_ANSWER.size
    for _ in range(reader.array_length()):
        topic = reader.compact_string() or ""
        count = reader.array_length()
        end = reader.pos + count * size
        # Brokers send no tagged fields per partition: a topic's answers are then a run of
        # fixed-size records, read in C. A run that has tags is read one by one.
        run = data[reader.pos : end] if end <= len(data) else b""
        if len(run) == count * size and run[size - 1 :: size].count(0) == count:
            out.update(
                ((topic, partition), (error, ts, offset))
                for partition, error, ts, offset, _epoch, _tag in _UNTAGGED_ANSWER.iter_unpack(run)
            )
            reader.pos = end
        else:
            for _ in range(count):
                partition, error, ts, offset, _epoch = _PARTITION_ANSWER.unpack_from(
                    data, reader.pos
                )
                reader.pos += _PARTITION_ANSWER.size
                if data[reader.pos]:
                    reader.tags()
                else:
                    reader.pos += 1
                out[(topic, partition)] = (error, ts, offset)
        reader.tags()
    return out


# --- SASL -----------------------------------------------------------------------------------

SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36


def sasl_handshake_request(mechanism: str, correlation_id: int) -> bytes:
    data = mechanism.encode()
    body = struct.pack(">h", len(data)) + data
    return request(SASL_HANDSHAKE, 1, correlation_id, body, flexible=False)


def parse_sasl_handshake(payload: bytes) -> tuple[int, list[str]]:
    """(error code, mechanisms the broker enables); response header v0."""
    reader = Reader(payload)
    reader.int32()  # correlation id
    error = reader.int16()
    mechanisms = [reader.string() or "" for _ in range(max(0, reader.int32()))]
    return error, mechanisms


def sasl_authenticate_request(auth_bytes: bytes, correlation_id: int) -> bytes:
    return request(SASL_AUTHENTICATE, 2, correlation_id, compact_bytes(auth_bytes) + NO_TAGS)


def parse_sasl_authenticate(payload: bytes) -> tuple[int, str | None, bytes]:
    """(error code, error message, the server's auth bytes)."""
    reader = response_body(payload)
    error = reader.int16()
    message = reader.compact_string()
    data = reader.compact_bytes() or b""
    return error, message, data


# --- DescribeLogDirs ------------------------------------------------------------------------

DESCRIBE_LOG_DIRS = 35


def describe_log_dirs_request(correlation_id: int, partitions: Iterable[TP] | None = None) -> bytes:
    """DescribeLogDirs v4 for every replica the broker holds (topics null: all of them), or
    only for `partitions`.

    v4 (Kafka 3.3) is the first to report each directory's total and usable bytes."""
    topics: list[bytes] | None = None
    if partitions is not None:
        by_topic: dict[str, set[int]] = {}
        for topic, partition in partitions:
            by_topic.setdefault(topic, set()).add(partition)
        topics = [
            compact_string(topic)
            + compact_array([struct.pack(">i", p) for p in sorted(parts)])
            + NO_TAGS
            for topic, parts in sorted(by_topic.items())
        ]
    return request(DESCRIBE_LOG_DIRS, 4, correlation_id, compact_array(topics) + NO_TAGS)


def parse_describe_log_dirs(payload: bytes) -> tuple[int, list[LogDir]]:
    """(the request's error code, the broker's log directories with their replicas)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error = reader.int16()
    dirs: list[LogDir] = []
    for _ in range(reader.array_length()):
        dir_error = reader.int16()
        path = reader.compact_string() or ""
        replicas: list[ReplicaSize] = []
        for _ in range(reader.array_length()):
            topic = reader.compact_string() or ""
            for _ in range(reader.array_length()):
                partition, size, lag = reader.int32(), reader.int64(), reader.int64()
                future = bool(reader.int8())
                reader.tags()
                replicas.append(ReplicaSize(topic, partition, size, lag, future))
            reader.tags()
        total, usable = reader.int64(), reader.int64()
        reader.tags()
        dirs.append(
            LogDir(
                path,
                dir_error,
                total if total >= 0 else None,  # -1: the broker could not tell
                usable if usable >= 0 else None,
                sorted(replicas, key=lambda r: (r.topic, r.partition, r.is_future)),
            )
        )
    reader.tags()
    return error, sorted(dirs, key=lambda d: d.path)


# --- ListPartitionReassignments -------------------------------------------------------------

LIST_PARTITION_REASSIGNMENTS = 46


class Reassigning(NamedTuple):
    replicas: list[int]  # target order, then the replicas being removed
    adding: list[int]
    removing: list[int]


def list_partition_reassignments_request(correlation_id: int, timeout_ms: int = 30000) -> bytes:
    """ListPartitionReassignments v0 for every partition (topics null)."""
    body = struct.pack(">i", timeout_ms) + compact_array(None) + NO_TAGS
    return request(LIST_PARTITION_REASSIGNMENTS, 0, correlation_id, body)


def parse_list_partition_reassignments(
    payload: bytes,
) -> tuple[int, str | None, dict[TP, Reassigning]]:
    """(error code, message, the partitions being reassigned now)."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error, message = reader.int16(), reader.compact_string()
    out: dict[TP, Reassigning] = {}
    for _ in range(reader.array_length()):
        topic = reader.compact_string() or ""
        for _ in range(reader.array_length()):
            partition = reader.int32()
            replicas = _int32_array(reader)
            adding, removing = _int32_array(reader), _int32_array(reader)
            reader.tags()
            out[(topic, partition)] = Reassigning(replicas, adding, removing)
        reader.tags()
    reader.tags()
    return error, message, out


# --- AlterPartitionReassignments -------------------------------------------------------------

ALTER_PARTITION_REASSIGNMENTS = 45


def alter_partition_reassignments_request(
    targets: Mapping[TP, list[int] | None], correlation_id: int, timeout_ms: int = 30000
) -> bytes:
    """AlterPartitionReassignments v0: each partition's target replicas; None cancels the
    partition's reassignment."""
    by_topic: dict[str, list[bytes]] = {}
    for (topic, partition), replicas in sorted(targets.items()):
        encoded = None if replicas is None else [struct.pack(">i", b) for b in replicas]
        by_topic.setdefault(topic, []).append(
            struct.pack(">i", partition) + compact_array(encoded) + NO_TAGS
        )
    topics = [compact_string(t) + compact_array(parts) + NO_TAGS for t, parts in by_topic.items()]
    body = struct.pack(">i", timeout_ms) + compact_array(topics) + NO_TAGS
    return request(ALTER_PARTITION_REASSIGNMENTS, 0, correlation_id, body)


def parse_alter_partition_reassignments(
    payload: bytes,
) -> tuple[int, str | None, dict[TP, tuple[int, str | None]]]:
    """(the request's error code and message, per partition (error code, message))."""
    reader = response_body(payload)
    reader.int32()  # throttle
    error, message = reader.int16(), reader.compact_string()
    out: dict[TP, tuple[int, str | None]] = {}
    for _ in range(reader.array_length()):
        topic = reader.compact_string() or ""
        for _ in range(reader.array_length()):
            partition, code, text = reader.int32(), reader.int16(), reader.compact_string()
            reader.tags()
            out[(topic, partition)] = (code, text)
        reader.tags()
    reader.tags()
    return error, message, out


# --- ApiVersions ----------------------------------------------------------------------------

API_VERSIONS = 18
UNSUPPORTED_VERSION = 35
MINIMUM_KAFKA = "3.1"

# The version of each request this module sends (kept in step with the builders above; a unit
# test checks each builder's header against this table).
DESCRIBE_ACLS, CREATE_ACLS, DELETE_ACLS = 29, 30, 31
ACL_VERSION = 3  # the first flexible version of all three (Kafka 2.8)
DESCRIBE_CLIENT_QUOTAS, ALTER_CLIENT_QUOTAS = 48, 49
QUOTA_VERSION = 1  # the first flexible version of both (Kafka 2.8)

SPOKEN: dict[int, tuple[str, int]] = {
    DESCRIBE_QUORUM: ("DescribeQuorum", 0),
    FIND_COORDINATOR: ("FindCoordinator", 4),
    OFFSET_FETCH: ("OffsetFetch", 8),
    DESCRIBE_GROUPS: ("DescribeGroups", 5),
    LIST_GROUPS: ("ListGroups", 4),
    DESCRIBE_CONFIGS: ("DescribeConfigs", 4),
    METADATA: ("Metadata", 12),
    LIST_OFFSETS: ("ListOffsets", 7),
    SASL_HANDSHAKE: ("SaslHandshake", 1),
    SASL_AUTHENTICATE: ("SaslAuthenticate", 2),
    DESCRIBE_LOG_DIRS: ("DescribeLogDirs", 4),
    INCREMENTAL_ALTER_CONFIGS: ("IncrementalAlterConfigs", 1),
    LIST_PARTITION_REASSIGNMENTS: ("ListPartitionReassignments", 0),
    ALTER_PARTITION_REASSIGNMENTS: ("AlterPartitionReassignments", 0),
    # Encoded in acl_protocol.py.
    DESCRIBE_ACLS: ("DescribeAcls", ACL_VERSION),
    CREATE_ACLS: ("CreateAcls", ACL_VERSION),
    DELETE_ACLS: ("DeleteAcls", ACL_VERSION),
    # Encoded in quota_protocol.py.
    DESCRIBE_CLIENT_QUOTAS: ("DescribeClientQuotas", QUOTA_VERSION),
    ALTER_CLIENT_QUOTAS: ("AlterClientQuotas", QUOTA_VERSION),
}


def api_versions_request(correlation_id: int) -> bytes:
    body = compact_string("kafka-console") + compact_string("1") + NO_TAGS
    return request(API_VERSIONS, 3, correlation_id, body)


def parse_api_versions(payload: bytes) -> tuple[int, dict[int, tuple[int, int]]]:
    """(error code, {api key: (min version, max version)}); response header v0.

    A broker that does not speak ApiVersions v3 (older than 2.4) answers UNSUPPORTED_VERSION
    in the v0 layout; its table is not needed: it is too old for `SPOKEN` anyway."""
    reader = Reader(payload)
    reader.int32()  # correlation id
    error = reader.int16()
    if error:
        return error, {}
    versions = {}
    for _ in range(reader.array_length()):
        key, low, high = reader.int16(), reader.int16(), reader.int16()
        reader.tags()
        versions[key] = (low, high)
    return error, versions


def header_key_version(data: bytes) -> tuple[int, int]:
    """The (api key, version) of a sized request built by `request`."""
    key, version = struct.unpack_from(">hh", data, 4)
    return key, version


def unsupported(versions: dict[int, tuple[int, int]], key: int, version: int) -> str | None:
    """Why a broker with this ApiVersions table cannot take the request; None when it can."""
    name = SPOKEN.get(key, (f"API {key}", version))[0]
    if key not in versions:
        return f"it does not support {name} at all"
    low, high = versions[key]
    if not low <= version <= high:
        return f"it speaks {name} v{low}-v{high}, the console sends v{version}"
    return None
