"""What the adapter returns: plain frozen dataclasses, no confluent-kafka objects."""

from __future__ import annotations

from dataclasses import dataclass, field

TP = tuple[str, int]

# Kafka's own internal topics (org.apache.kafka.common.internals.Topic), as TopicCommand's
# --exclude-internal understands them.
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


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


@dataclass(frozen=True)
class ConfigValue:
    value: str | None
    source: str  # e.g. DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG
    is_default: bool
    read_only: bool
    sensitive: bool


@dataclass(frozen=True)
class ReplicaSize:
    """One replica in a broker's log directory, as DescribeLogDirs reports it."""

    topic: str
    partition: int
    size_bytes: int
    offset_lag: int  # how far a follower (or a future replica) is behind its leader's end
    is_future: bool  # being moved into this directory from another one (AlterReplicaLogDirs)


@dataclass(frozen=True)
class LogDir:
    path: str
    error: int  # a Kafka error code; KAFKA_STORAGE_ERROR (56) for an offline directory
    total_bytes: int | None
    usable_bytes: int | None
    replicas: list[ReplicaSize]


@dataclass(frozen=True)
class Reassigning:
    """A partition being reassigned (ListPartitionReassignments)."""

    replicas: list[int]  # the target's order, then the replicas being removed
    adding: list[int]
    removing: list[int]


@dataclass(frozen=True)
class OffsetResult:
    offset: int  # -1 when nothing matched (a timestamp later than every record)
    timestamp_ms: int | None


@dataclass(frozen=True)
class GroupListing:
    group_id: str
    state: str  # as Kafka's tools print it: Stable, Empty, PreparingRebalance, ...
    is_simple: bool  # no protocol type: offsets committed without joining the group
    protocol_type: str = ""  # "consumer", "connect", ... ("" for a simple group)


@dataclass(frozen=True)
class GroupMember:
    member_id: str
    client_id: str
    host: str
    assignments: list[TP]


@dataclass(frozen=True)
class GroupDescription:
    group_id: str
    state: str  # as Kafka's tools print it: Stable, Empty, Dead, PreparingRebalance, ...
    protocol_type: str
    assignor: str
    members: list[GroupMember]
    coordinator_id: int | None
    exists: bool = True


@dataclass(frozen=True, order=True)
class Acl:
    """One ACL binding: a resource pattern and one entry. Names as kafka-acls.sh prints them
    (TOPIC, LITERAL, User:alice, *, READ, ALLOW)."""

    resource_type: str
    resource_name: str
    pattern_type: str
    principal: str
    host: str
    operation: str
    permission: str

    def as_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class AclFilter:
    """What DescribeAcls / DeleteAcls select: None is any; pattern_type is LITERAL, PREFIXED,
    MATCH or ANY."""

    resource_type: str | None = None
    resource_name: str | None = None
    pattern_type: str = "ANY"
    principal: str | None = None
    host: str | None = None
    operation: str | None = None
    permission: str | None = None


# A client-quota entity: (entity type, name) in Kafka's order user, client-id, ip; a None
# name is that type's default entity.
QuotaEntity = tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, order=True)
class ScramCredential:
    """One SCRAM credential of a user: what Kafka tells of it (never the password, salt or
    keys)."""

    user: str
    mechanism: str  # SCRAM-SHA-256 or SCRAM-SHA-512
    iterations: int
