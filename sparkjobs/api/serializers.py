from rest_framework import serializers

from console.api.limits import KafkaText
from sparkjobs.models import SparkJob


class JobTypeSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    params_schema = serializers.JSONField(help_text="JSON Schema of the job's params")
    result_schema = serializers.JSONField(help_text="JSON Schema of the job's result")


class SubmitSerializer(serializers.Serializer):
    job_type = serializers.CharField(max_length=64)
    cluster = KafkaText(max_length=64)
    params = serializers.JSONField(required=False, default=dict)


class SparkJobSerializer(serializers.ModelSerializer):
    steps = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text='A multi-step job\'s steps (null for others): [{"name", "state" (pending, '
        'running, succeeded, failed, skipped), "started_at", "finished_at", "result", "error"}]',
    )
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )

    class Meta:
        model = SparkJob
        fields = [
            "id",
            "job_type",
            "cluster",
            "params",
            "state",
            "progress",
            "spark_app_id",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
            "heartbeat_at",
            "cancel_requested",
            "result",
            "error",
            "log_tail",
            "steps",
        ]
        read_only_fields = fields
