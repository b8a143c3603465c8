from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from console.api.limits import KafkaText
from console.clusters import ClusterNotFound, get_cluster
from console.errors import BadInput
from sparkjobs import schedules
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.models import Schedule, ScheduleRun, SparkJob
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
    schedule_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="the schedule that started it, if one did"
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
            "schedule_id",
        ]
        read_only_fields = fields

    def to_representation(self, instance: SparkJob) -> dict:
        data = super().to_representation(instance)
        job_type = JOB_TYPES.get(instance.job_type)
        if job_type is not None:
            data["params"] = in_schema_order(data["params"], job_type.params_schema)
            data["result"] = in_schema_order(data["result"], job_type.result_schema)
        return data


class ScheduleInputSerializer(serializers.Serializer):
    """A schedule as written (POST: all of it; PATCH: any of it)."""

    job_type = serializers.CharField(max_length=64)
    cluster = KafkaText(max_length=64)
    params = serializers.JSONField(required=False, default=dict)
    cron = serializers.CharField(
        max_length=200,
        allow_null=True,
        default=None,
        help_text="five-field cron expression in `timezone` (minute hour day month weekday), or "
        "null with every_minutes",
    )
    every_minutes = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="run every N minutes (1..527040), or null with cron",
    )
    timezone = serializers.CharField(
        max_length=64, default="UTC", help_text="IANA time zone of the cron expression"
    )
    enabled = serializers.BooleanField(default=True)

    def validate_cluster(self, value: str) -> str:
        try:
            get_cluster(value)
        except ClusterNotFound:
            raise BadInput("cluster", f"cluster: there is no cluster named {value!r}.") from None
        return value

    def validate(self, data: dict) -> dict:
        return schedules.checked(dict(data), self.context.get("schedule"))


class ScheduleRunSerializer(serializers.ModelSerializer):
    job_id = serializers.IntegerField(source="job.id", allow_null=True, read_only=True)
    job_state = serializers.CharField(source="job.state", allow_null=True, read_only=True)

    class Meta:
        model = ScheduleRun
        fields = ["due_at", "ran_at", "outcome", "job_id", "job_state", "reason"]
        read_only_fields = fields


class ScheduleSerializer(serializers.ModelSerializer):
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    next_run_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="null while the schedule is disabled"
    )
    last_job_id = serializers.SerializerMethodField()

    class Meta:
        model = Schedule
        fields = [
            "id", "job_type", "cluster", "params", "cron", "every_minutes", "timezone",
            "enabled", "next_run_at", "last_job_id", "created_by", "created_at", "updated_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_last_job_id(self, schedule: Schedule) -> int | None:
        return schedules.last_job_id(schedule)


class ScheduleDetailSerializer(ScheduleSerializer):
    runs = serializers.SerializerMethodField(
        help_text=f"the last {schedules.RECENT_RUNS} slots, newest first: started (a job), "
        "skipped (the schedule's previous job still queued or running) or refused (the "
        "submit's checks said no; `reason`)"
    )

    class Meta(ScheduleSerializer.Meta):
        fields = [*ScheduleSerializer.Meta.fields, "runs"]
        read_only_fields = fields

    @extend_schema_field(ScheduleRunSerializer(many=True))
    def get_runs(self, schedule: Schedule) -> Any:
        return ScheduleRunSerializer(schedules.recent_runs(schedule), many=True).data
