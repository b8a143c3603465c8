"""Response shapes, declared for the OpenAPI schema (the SPA's types come from it)."""

from rest_framework import serializers

from console.api.limits import (
    KafkaText,
    KafkaTextMap,
    int16,
    int32,
    no_duplicates,
    partition_count_field,
)


class BrokerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    host = serializers.CharField()
    port = serializers.IntegerField()
    rack = serializers.CharField(allow_null=True)
    is_controller = serializers.BooleanField()
    leader_count = serializers.IntegerField()
    replica_count = serializers.IntegerField()
    offline_replica_count = serializers.IntegerField()


class _ClusterFieldsSerializer(serializers.Serializer):
    name = serializers.CharField()
    bootstrap_servers = serializers.CharField()
    cluster_id = serializers.CharField(allow_null=True)
    controller_id = serializers.IntegerField(allow_null=True)
    broker_count = serializers.IntegerField(allow_null=True)
    reachable = serializers.BooleanField()
    # Always sent; optional in the schema only so that clients built before it still type.
    protected = serializers.BooleanField(
        required=False,
        help_text="Changes here wait for a second person's approval (docs/governance.md).",
    )


class ClusterSerializer(_ClusterFieldsSerializer):
    # Always sent; optional in the schema only so that clients built before it still type.
    same_cluster_as = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The other registry entries with the same Kafka cluster id (the same "
        "cluster reached another way, e.g. another listener), in registry order; empty when "
        "there is none or the cluster is unreachable. /metrics exports such a cluster once.",
    )


class BrokerDiskSerializer(BrokerSerializer):
    disk_total_bytes = serializers.IntegerField(
        allow_null=True, help_text="The broker's log directories' total bytes, summed."
    )
    disk_usable_bytes = serializers.IntegerField(allow_null=True)
    replicas_size_bytes = serializers.IntegerField(
        allow_null=True, help_text="The bytes of every replica the broker holds."
    )


class ClusterDetailSerializer(_ClusterFieldsSerializer):
    brokers = BrokerDiskSerializer(many=True)


class ConfigWarningSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="For now only min_isr_unreachable: a partition has fewer replicas than "
        "min.insync.replicas, so acks=all produces to it always fail."
    )
    message = serializers.CharField(help_text="The cause, its consequence and the remedy.")


_MIN_ISR_UNREACHABLE_HELP = (
    "A configuration problem, not a lost replica: some partition has fewer replicas than "
    "min.insync.replicas, so it can never have enough replicas in sync and every acks=all "
    "produce to it fails with NOT_ENOUGH_REPLICAS."
)


# What a topic's row in the list and its detail page both start with.
class _TopicFieldsSerializer(serializers.Serializer):
    name = serializers.CharField()
    internal = serializers.BooleanField()
    partition_count = serializers.IntegerField()
    replication_factor = serializers.IntegerField()
    size_bytes = serializers.IntegerField(
        allow_null=True,
        help_text="The leader replicas' size on disk (null: a leader's size is not known).",
    )
    replicas_size_bytes = serializers.IntegerField(
        allow_null=True, help_text="Every replica's size on the live brokers."
    )
    message_count = serializers.IntegerField(
        allow_null=True, help_text="End offset minus start offset, summed over the partitions."
    )
    message_count_is_upper_bound = serializers.BooleanField(
        help_text="A compacted topic: cleaned records leave gaps, so fewer messages remain."
    )


class ReaderSerializer(serializers.Serializer):
    group_id = serializers.CharField()
    lag = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(allow_null=True)


class TopicRowSerializer(_TopicFieldsSerializer):
    under_replicated_count = serializers.IntegerField()
    under_min_isr_count = serializers.IntegerField(
        help_text="As kafka-topics.sh --under-min-isr-partitions: counts the partitions of "
        "min_isr_unreachable_count too."
    )
    at_min_isr_count = serializers.IntegerField()
    unavailable_count = serializers.IntegerField()
    min_isr_unreachable = serializers.BooleanField(help_text=_MIN_ISR_UNREACHABLE_HELP)
    min_isr_unreachable_count = serializers.IntegerField(
        help_text="Partitions with fewer replicas than min.insync.replicas."
    )
    under_min_isr_outage_count = serializers.IntegerField(
        help_text="Partitions under min ISR with enough replicas: replicas out of sync or "
        "no leader (under_min_isr_count minus the misconfigured ones)."
    )
    config_warnings = ConfigWarningSerializer(many=True)
    reader_groups = serializers.IntegerField(
        allow_null=True,
        help_text="Groups with committed offsets on the topic at the lag sampler's last pass "
        "(null: no pass known).",
    )


class PartitionSerializer(serializers.Serializer):
    partition = serializers.IntegerField()
    leader = serializers.IntegerField(allow_null=True)
    replicas = serializers.ListField(child=serializers.IntegerField())
    isr = serializers.ListField(child=serializers.IntegerField())
    offline_replicas = serializers.ListField(child=serializers.IntegerField())
    preferred_leader = serializers.IntegerField(allow_null=True)
    is_preferred_leader = serializers.BooleanField()
    under_replicated = serializers.BooleanField()
    under_min_isr = serializers.BooleanField()
    at_min_isr = serializers.BooleanField()
    unavailable = serializers.BooleanField()
    min_isr_unreachable = serializers.BooleanField(
        help_text="Fewer replicas than min.insync.replicas (configuration, not a lost replica)."
    )
    log_start_offset = serializers.IntegerField(allow_null=True)
    log_end_offset = serializers.IntegerField(allow_null=True)
    size_bytes = serializers.IntegerField(allow_null=True, help_text="The leader replica's size.")


class ConfigEntrySerializer(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.CharField(allow_null=True)
    source = serializers.CharField()  # type: ignore[assignment]
    is_default = serializers.BooleanField()
    read_only = serializers.BooleanField()  # type: ignore[assignment]
    sensitive = serializers.BooleanField()


class TopicDetailSerializer(_TopicFieldsSerializer):
    min_insync_replicas = serializers.IntegerField()
    configs = serializers.DictField(child=serializers.CharField(allow_null=True))
    config_entries = ConfigEntrySerializer(many=True)
    partitions = PartitionSerializer(many=True)
    min_isr_unreachable = serializers.BooleanField(help_text=_MIN_ISR_UNREACHABLE_HELP)
    config_warnings = ConfigWarningSerializer(many=True)
    live_brokers = serializers.ListField(child=serializers.IntegerField())
    readers = ReaderSerializer(
        many=True,
        allow_null=True,
        help_text="The groups reading the topic at the lag sampler's last pass, with their lag.",
    )


class TopicCreateSerializer(serializers.Serializer):
    name = KafkaText(allow_blank=True)
    partitions = partition_count_field()
    replication_factor = int16(min_value=1)
    configs = KafkaTextMap(required=False, default=dict)


class ConfigPatchSerializer(serializers.Serializer):
    set = KafkaTextMap(required=False, default=dict)
    delete = serializers.ListField(child=KafkaText(), required=False, default=list)

    def validate_delete(self, value: list[str]) -> list[str]:
        no_duplicates(value, "config key")
        return value


class PartitionCountSerializer(serializers.Serializer):
    count = partition_count_field()


class TopicPartitionRefSerializer(serializers.Serializer):
    topic = KafkaText()
    partition = int32()


class ElectLeadersSerializer(serializers.Serializer):
    election = serializers.ChoiceField(choices=["preferred", "unclean"])
    # Required: an explicit null elects every partition; never a missing field.
    partitions = TopicPartitionRefSerializer(many=True, allow_null=True, allow_empty=False)

    def validate_partitions(self, value: list[dict] | None) -> list[dict] | None:
        if value is not None:
            if any(not isinstance(item, dict) for item in value):
                raise serializers.ValidationError("every partition is {topic, partition}.")
            no_duplicates(value, "partition")
        return value


class ElectionResultSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["elected", "not_needed", "failed"])
    error = serializers.CharField(allow_null=True)


class ReplicaSizeSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    size_bytes = serializers.IntegerField()
    offset_lag = serializers.IntegerField(
        help_text="How far this replica is behind its leader's end (0 on the leader)."
    )
    is_future = serializers.BooleanField(
        help_text="Being moved into this directory from another one of the same broker."
    )


class LogDirSerializer(serializers.Serializer):
    path = serializers.CharField()
    total_bytes = serializers.IntegerField(allow_null=True)
    usable_bytes = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_null=True, help_text="e.g. KAFKA_STORAGE_ERROR: offline.")
    replicas = ReplicaSizeSerializer(many=True)


class ApiVersionSerializer(serializers.Serializer):
    key = serializers.IntegerField()
    api = serializers.CharField(help_text="As kafka-broker-api-versions.sh names it.")
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class BrokerDetailSerializer(BrokerSerializer):
    log_dirs = LogDirSerializer(many=True)
    log_dirs_error = serializers.CharField(
        allow_null=True, help_text="Why the broker's log directories could not be read."
    )
    configs = ConfigEntrySerializer(many=True)
    api_versions = ApiVersionSerializer(many=True)
