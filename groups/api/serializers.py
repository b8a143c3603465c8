"""Request and response shapes of the groups API (also the OpenAPI schema's source)."""

from rest_framework import serializers

from console.api.limits import MAX_CSV_CHARS, KafkaText, int32, int64, no_duplicates
from groups.resets.strategies import STRATEGIES


class TopicScopeSerializer(serializers.Serializer):
    topic = KafkaText()
    # Required: `null` (explicitly) is every partition of the topic; a missing key is a 400,
    # never "all" (a misspelt `partition` once reset every partition).
    partitions = serializers.ListField(child=int32(), allow_null=True)

    def validate_partitions(self, value: list[int] | None) -> list[int] | None:
        if value is not None:
            no_duplicates(value, "partition")
        return value


class ScopeSerializer(serializers.Serializer):
    all_topics = serializers.BooleanField(required=False, default=False)
    topics = TopicScopeSerializer(many=True, required=False)

    def validate_topics(self, value: list) -> list:
        if any(not isinstance(item, dict) for item in value):
            raise serializers.ValidationError("every entry is {topic, partitions}.")
        return value

    def validate(self, data: dict) -> dict:
        if data.get("all_topics") and data.get("topics"):
            raise serializers.ValidationError("give either all_topics or topics, not both.")
        if not data.get("all_topics") and not data.get("topics"):
            raise serializers.ValidationError(
                'choose the partitions: {"all_topics": true} or {"topics": [...]}.'
            )
        return data


class StrategySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=STRATEGIES)
    offset = int64(required=False, allow_null=True)
    shift = int64(required=False, allow_null=True)
    datetime = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=64
    )
    duration = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=64
    )
    csv = serializers.CharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        trim_whitespace=False,
        max_length=MAX_CSV_CHARS,
    )


class ResetRequestSerializer(serializers.Serializer):
    scope = ScopeSerializer(required=False)
    strategy = StrategySerializer()
    dry_run = serializers.BooleanField(required=False, default=True)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)

    def validate(self, data: dict) -> dict:
        if data["strategy"]["type"] != "from_file" and not data.get("scope"):
            raise serializers.ValidationError({"scope": ["required for this strategy."]})
        return data


class ReasonRequestSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class PlanRowSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    current_offset = serializers.IntegerField(allow_null=True)
    new_offset = serializers.IntegerField()
    log_start_offset = serializers.IntegerField()
    log_end_offset = serializers.IntegerField()
    lag_before = serializers.IntegerField(allow_null=True)
    lag_after = serializers.IntegerField()
    clamped = serializers.BooleanField()
    new_offset_timestamp = serializers.CharField(allow_null=True)


class ResultRowSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    new_offset = serializers.IntegerField(allow_null=True)
    committed = serializers.BooleanField()
    error = serializers.CharField(allow_null=True)


class OffsetResetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    cluster = serializers.CharField()
    group_id = serializers.CharField()
    dry_run = serializers.BooleanField()
    executed = serializers.BooleanField()
    state = serializers.CharField()
    strategy = serializers.DictField()
    scope = serializers.DictField()
    reason = serializers.CharField()
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.CharField()
    executed_at = serializers.CharField(allow_null=True)
    undo_of = serializers.IntegerField(allow_null=True)
    plan = PlanRowSerializer(many=True)
    result = ResultRowSerializer(many=True, allow_null=True)


LAG_STATUSES = ("OK", "WARN", "ERR", "STOP", "STALL", "REWIND", "UNKNOWN")
RETENTION_RISKS = ("none", "near", "lost")


class RatesSerializer(serializers.Serializer):
    write_per_s = serializers.FloatField(allow_null=True, help_text="records/s written")
    consume_per_s = serializers.FloatField(allow_null=True, help_text="records/s consumed")


class LagEvaluationFields(serializers.Serializer):
    """What the lag sampler adds (docs/live-lag.md); UNKNOWN and nulls before its first pass."""

    status = serializers.ChoiceField(choices=LAG_STATUSES)
    max_lag_seconds = serializers.FloatField(
        allow_null=True, help_text="age of the oldest unconsumed record over all partitions"
    )
    rates = RatesSerializer()
    catch_up_seconds = serializers.FloatField(
        allow_null=True, help_text="time to reach the log end at current rates; null: never"
    )
    retention_risk = serializers.ChoiceField(choices=RETENTION_RISKS)
    retention_reason = serializers.CharField(
        allow_null=True, help_text="why retention_risk is near or lost, in words; null: none"
    )
    sampled_at = serializers.CharField(allow_null=True, help_text="the sample evaluated")


# What a group's row in the list and its detail page both hold besides the lag evaluation.
class _GroupFieldsSerializer(LagEvaluationFields):
    group_id = serializers.CharField()
    state = serializers.CharField()
    protocol_type = serializers.CharField()


class GroupRowSerializer(_GroupFieldsSerializer):
    member_count = serializers.IntegerField()
    topics = serializers.ListField(child=serializers.CharField())
    total_lag = serializers.IntegerField(allow_null=True)
    max_lag = serializers.IntegerField(allow_null=True)
    sampled_at = serializers.CharField(
        allow_null=True,
        help_text="when Kafka was read for this row: the sampler's latest pass, or this "
        "request's live read (`fresh`, or no recent pass)",
    )


class AssignmentSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()


class MemberSerializer(serializers.Serializer):
    member_id = serializers.CharField()
    client_id = serializers.CharField()
    host = serializers.CharField()
    assignments = AssignmentSerializer(many=True)


class GroupOffsetSerializer(serializers.Serializer):
    topic = serializers.CharField()
    partition = serializers.IntegerField()
    committed_offset = serializers.IntegerField(allow_null=True)
    log_start_offset = serializers.IntegerField(allow_null=True)
    log_end_offset = serializers.IntegerField(allow_null=True)
    lag = serializers.IntegerField(allow_null=True)
    lag_seconds = serializers.FloatField(allow_null=True)
    member_id = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=LAG_STATUSES)
    retention_risk = serializers.ChoiceField(choices=RETENTION_RISKS)
    retention_reason = serializers.CharField(
        allow_null=True, help_text="why retention_risk is near or lost, in words; null: none"
    )


class GroupTopicLagSerializer(serializers.Serializer):
    topic = serializers.CharField()
    lag = serializers.IntegerField(allow_null=True)
    max_lag_seconds = serializers.FloatField(allow_null=True)
    rates = RatesSerializer()
    catch_up_seconds = serializers.FloatField(allow_null=True)
    retention_risk = serializers.ChoiceField(choices=RETENTION_RISKS)
    retention_reason = serializers.CharField(
        allow_null=True, help_text="why retention_risk is near or lost, in words; null: none"
    )


class GroupDetailSerializer(_GroupFieldsSerializer):
    assignor = serializers.CharField()
    coordinator = serializers.IntegerField(allow_null=True)
    members = MemberSerializer(many=True)
    offsets = GroupOffsetSerializer(many=True)
    total_lag = serializers.IntegerField(allow_null=True)
    topics = GroupTopicLagSerializer(many=True)
    read_at = serializers.CharField(
        help_text="when this answer read the committed offsets: a live sample whose pass began "
        "before it is older for a partition whose committed offset differs from this answer's"
    )


class LagPointSerializer(serializers.Serializer):
    ts = serializers.CharField()
    topic = serializers.CharField()
    lag = serializers.IntegerField(allow_null=True)
    lag_seconds = serializers.FloatField(allow_null=True)
    write_per_s = serializers.FloatField(allow_null=True)
    consume_per_s = serializers.FloatField(allow_null=True)
    status = serializers.ChoiceField(choices=LAG_STATUSES)


class LagHistorySerializer(serializers.Serializer):
    group_id = serializers.CharField()
    window = serializers.ChoiceField(choices=("1h", "24h", "7d"))
    points = LagPointSerializer(many=True)
