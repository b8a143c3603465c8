from rest_framework import serializers

from approvals.models import ApprovalRequest
from console.api.limits import KafkaText


class ApprovalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    cluster = serializers.CharField()
    action = serializers.CharField(help_text="The change, as the audit log names it.")
    target = serializers.CharField()
    summary = serializers.CharField(help_text="What will run, in a sentence.")
    plan = serializers.JSONField(help_text="Exactly what runs once approved.")
    state = serializers.ChoiceField(choices=ApprovalRequest.State.choices)
    requested_by = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    decided_by = serializers.CharField(allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_reason = serializers.CharField(allow_blank=True)
    result = serializers.JSONField(allow_null=True, help_text="The change's answer once run.")
    error = serializers.JSONField(allow_null=True, help_text="Why the approved change failed.")


class ApprovalWrapSerializer(serializers.Serializer):
    """The 202 answer of a change on a protected cluster."""

    approval = ApprovalSerializer()


class DecisionSerializer(serializers.Serializer):
    reason = KafkaText(required=False, default="", allow_blank=True, max_length=1000)
