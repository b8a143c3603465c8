"""Request and response shapes of the reassignment API (the OpenAPI schema's source)."""

from typing import Any

from rest_framework import serializers

from console.api.limits import KafkaText, int16, int32
from reassign.models import Reassignment
from reassign.progress import PARTITION_STATES


class PlanRequestSerializer(serializers.Serializer):
    """Exactly one of: `topics` with `brokers` (--generate), `topic` with
    `replication_factor`, or `plan` (the CLI's JSON)."""

    topics = serializers.ListField(child=KafkaText(), required=False, min_length=1)
    brokers = serializers.ListField(child=int32(), required=False, min_length=1)
    topic = KafkaText(required=False)
    replication_factor = int16(min_value=1, required=False)
    plan = serializers.JSONField(
        required=False,
        help_text='kafka-reassign-partitions.sh\'s {"version": 1, "partitions": [{"topic", '
        '"partition", "replicas", "log_dirs"}]}.',
    )
    throttle_bytes_per_s = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="For the time estimate."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        shapes = {
            "topics": "topics" in attrs or "brokers" in attrs,
            "topic": "topic" in attrs or "replication_factor" in attrs,
            "plan": "plan" in attrs,
        }
        given = [k for k, present in shapes.items() if present]
        if len(given) != 1:
            raise serializers.ValidationError(
                {
                    "plan": "give exactly one of: topics with brokers, topic with "
                    "replication_factor, or plan."
                }
            )
        if given == ["topics"]:
            for key in ("topics", "brokers"):
                if key not in attrs:
                    raise serializers.ValidationError({key: "required with topics/brokers."})
        if given == ["topic"]:
            for key in ("topic", "replication_factor"):
                if key not in attrs:
                    raise serializers.ValidationError(
                        {key: "required with topic/replication_factor."}
                    )
        return attrs


class PlanPartitionSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    replicas = serializers.ListField(child=serializers.IntegerField())
    log_dirs = serializers.ListField(child=serializers.CharField())


class PlanDocumentSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    partitions = PlanPartitionSerializer(many=True)


class MoveSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    # "from" is a Python keyword: declared by name below.
    to = serializers.ListField(child=serializers.IntegerField())
    adding = serializers.ListField(child=serializers.IntegerField())
    removing = serializers.ListField(child=serializers.IntegerField())
    bytes = serializers.IntegerField(
        allow_null=True, help_text="What the brokers gaining a replica must copy, in all."
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = serializers.ListField(child=serializers.IntegerField())
        return fields


class PlanSerializer(serializers.Serializer):
    proposed = PlanDocumentSerializer()
    current = PlanDocumentSerializer(help_text="The rollback plan.")
    moves = MoveSerializer(many=True)
    total_bytes = serializers.IntegerField(allow_null=True)
    estimated_seconds = serializers.IntegerField(
        allow_null=True, help_text="At throttle_bytes_per_s; null without one."
    )
    throttle_bytes_per_s = serializers.IntegerField(allow_null=True)


class ExecuteRequestSerializer(serializers.Serializer):
    plan = serializers.JSONField(help_text="kafka-reassign-partitions.sh's JSON.")
    throttle_bytes_per_s = serializers.IntegerField(
        allow_null=True, help_text="Bytes/s per broker while replicas copy; null: none."
    )
    reason = serializers.CharField(max_length=500, allow_blank=True, required=False, default="")


class ThrottlePatchSerializer(serializers.Serializer):
    throttle_bytes_per_s = serializers.IntegerField()


class ReassignmentPartitionSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    to = serializers.ListField(child=serializers.IntegerField())
    adding = serializers.ListField(child=serializers.IntegerField())
    removing = serializers.ListField(child=serializers.IntegerField())
    isr = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    leader = serializers.IntegerField(
        allow_null=True, help_text="Its leader now; null when it has none or Kafka is away."
    )
    state = serializers.ChoiceField(choices=PARTITION_STATES)
    bytes_copied = serializers.IntegerField()
    bytes_total = serializers.IntegerField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = serializers.ListField(child=serializers.IntegerField())
        return fields


class _ReassignmentFields(serializers.Serializer):
    id = serializers.IntegerField()
    cluster = serializers.CharField()
    state = serializers.ChoiceField(choices=Reassignment.State.choices)
    throttle_bytes_per_s = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    error = serializers.CharField(allow_null=True)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ReassignmentSerializer(_ReassignmentFields):
    partitions = ReassignmentPartitionSerializer(many=True)
    bytes_copied = serializers.IntegerField()
    bytes_total = serializers.IntegerField()
    seconds_left = serializers.IntegerField(allow_null=True)
    plan = PlanDocumentSerializer()
    rollback = PlanDocumentSerializer()
    throttled_topics = serializers.ListField(child=serializers.CharField())
    throttled_brokers = serializers.ListField(child=serializers.IntegerField())


class ReassignmentRowSerializer(_ReassignmentFields):
    partition_count = serializers.IntegerField()
    topics = serializers.ListField(child=serializers.CharField())


class KafkaReassigningSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    replicas = serializers.ListField(child=serializers.IntegerField())
    adding = serializers.ListField(child=serializers.IntegerField())
    removing = serializers.ListField(child=serializers.IntegerField())


class ReassignmentListSerializer(serializers.Serializer):
    reassignments = ReassignmentRowSerializer(many=True)
    in_kafka = KafkaReassigningSerializer(
        many=True, help_text="Every partition Kafka is moving now, whoever started it."
    )
