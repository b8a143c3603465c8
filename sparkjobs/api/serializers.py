from rest_framework import serializers

from console.api.limits import KafkaText
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.models import SparkJob
from sparkjobs.schema_order import in_schema_order


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
    failure_lines = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="A failed job's driver-log lines that explain the failure, in log order: the "
        "exception lines of the last error report (without stack frames) and the ERROR/FATAL "
        "lines, each once, at most 40; [] for any other job",
    )
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="null once the user who submitted it was deleted",
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
            "failure_lines",
            "log_tail",
            "steps",
        ]
        read_only_fields = fields

    def to_representation(self, instance: SparkJob) -> dict:
        data = super().to_representation(instance)
        job_type = JOB_TYPES.get(instance.job_type)
        if job_type is not None:
            data["params"] = in_schema_order(data["params"], job_type.params_schema)
            data["result"] = in_schema_order(data["result"], job_type.result_schema)
        return data
