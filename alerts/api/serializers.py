from rest_framework import serializers

from alerts import conditions, rules
from alerts.models import CHANNELS, AlertEvent, AlertRule
from console.api.limits import KafkaText
from console.clusters import get_cluster
from console.errors import BadInput

MAX_REPEAT_S = 7 * 86400


class SilenceSerializer(serializers.Serializer):
    starts_at = serializers.CharField(max_length=64, help_text="ISO-8601 with a zone")
    ends_at = serializers.CharField(
        max_length=64, help_text="ISO-8601 with a zone, after starts_at"
    )


class RuleInputSerializer(serializers.Serializer):
    """A rule as written (POST: all of it; PATCH: any of it)."""

    name = serializers.CharField(max_length=200)
    cluster = KafkaText(max_length=249)
    group_pattern = KafkaText(
        default="*", help_text="glob over group ids: * any text, ? one character, [abc] one of"
    )
    statuses = serializers.ListField(
        child=serializers.ChoiceField(choices=conditions.ALERT_STATUSES),
        default=list,
        max_length=len(conditions.ALERT_STATUSES),
        help_text="fire while the group's lag status is one of these",
    )
    lag_seconds_over = serializers.FloatField(
        allow_null=True, default=None, min_value=0, max_value=365 * 86400,
        help_text="fire while the oldest unread record is older than this many seconds",
    )  # fmt: skip
    retention_risk = serializers.BooleanField(
        default=False, help_text="fire while retention deleted or may soon delete unread records"
    )
    channel = serializers.ChoiceField(choices=[c for c, _ in CHANNELS])
    target = serializers.CharField(
        max_length=2000, help_text="the receiver's URL, or email addresses separated by commas"
    )
    repeat_interval_s = serializers.IntegerField(
        default=3600, min_value=0, max_value=MAX_REPEAT_S,
        help_text="tell again while it fires, every this many seconds (0: once)",
    )  # fmt: skip
    silences = SilenceSerializer(many=True, default=list, help_text="windows with no alerts sent")
    enabled = serializers.BooleanField(default=True)

    def validate_cluster(self, value: str) -> str:
        get_cluster(value)  # 404 naming it when it is not registered
        return value

    def validate(self, data: dict) -> dict:
        merged = {**self._stored(), **data}
        if (
            not (merged["statuses"] or merged["lag_seconds_over"] is not None)
            and not merged["retention_risk"]
        ):
            raise BadInput(
                "statuses",
                "statuses: give at least one condition (statuses, lag_seconds_over or "
                "retention_risk).",
            )
        if "target" in data or "channel" in data:
            data["target"] = rules.check_target(merged["channel"], merged["target"])
        if "silences" in data:
            rules.parse_silences([dict(w) for w in data["silences"]])
            data["silences"] = [dict(w) for w in data["silences"]]
        if "statuses" in data:
            data["statuses"] = sorted(set(data["statuses"]))
        return data

    def _stored(self) -> dict:
        rule = self.context.get("rule")
        if rule is None:
            return {}
        keys = ("statuses", "lag_seconds_over", "retention_risk", "channel", "target")
        return {key: getattr(rule, key) for key in keys}


class RuleSerializer(serializers.ModelSerializer):
    target = serializers.SerializerMethodField(
        help_text="a URL shows only its scheme and host (Slack and Teams URLs are secrets)"
    )
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    firing_groups = serializers.SerializerMethodField(help_text="groups the rule holds for now")

    class Meta:
        model = AlertRule
        fields = [
            "id", "name", "cluster", "group_pattern", "statuses", "lag_seconds_over",
            "retention_risk", "channel", "target", "repeat_interval_s", "silences", "enabled",
            "created_by", "created_at", "updated_at", "firing_groups",
        ]  # fmt: skip

    def get_target(self, rule: AlertRule) -> str:
        return rules.shown_target(rule.channel, rule.target)

    def get_firing_groups(self, rule: AlertRule) -> list[str]:
        return sorted(s.group_id for s in rule.states.all() if s.firing)


class AttemptSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    ok = serializers.BooleanField()
    answer = serializers.CharField()
    duration_ms = serializers.FloatField()


class EventSerializer(serializers.ModelSerializer):
    attempts = AttemptSerializer(many=True, read_only=True)

    class Meta:
        model = AlertEvent
        fields = [
            "id", "rule", "rule_name", "cluster", "group_id", "kind", "reason", "snapshot",
            "at", "channel", "state", "attempts",
        ]  # fmt: skip
