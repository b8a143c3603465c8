"""The one way to reach Kafka: a client bound to a registered cluster.

    client = kafka.for_cluster(cfg)      # cfg: console.clusters.ClusterConfig
    client.topic_metadata(); client.committed_offsets({"g": None}); ...

Nothing outside this package imports confluent_kafka. `client` holds the product's calls,
`wire` the small wire-protocol client for what librdkafka lacks, `dev` helpers for the dev
stack and tests only. Errors: `KafkaTimeout` (504) and `KafkaCallFailed` (502).
"""

from console.kafka.client import DEFAULT_TIMEOUT_S, ClusterClient, for_cluster
from console.kafka.errors import KafkaAdapterError, KafkaCallFailed, KafkaTimeout
from console.kafka.types import (
    INTERNAL_TOPICS,
    TP,
    Broker,
    ClusterDescription,
    ConfigValue,
    GroupDescription,
    GroupListing,
    GroupMember,
    LogDir,
    OffsetResult,
    PartitionMeta,
    Reassigning,
    ReplicaSize,
    TopicMeta,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "INTERNAL_TOPICS",
    "TP",
    "Broker",
    "ClusterClient",
    "ClusterDescription",
    "ConfigValue",
    "GroupDescription",
    "GroupListing",
    "GroupMember",
    "KafkaAdapterError",
    "KafkaCallFailed",
    "KafkaTimeout",
    "LogDir",
    "OffsetResult",
    "PartitionMeta",
    "Reassigning",
    "ReplicaSize",
    "TopicMeta",
    "for_cluster",
]
