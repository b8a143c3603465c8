from rest_framework import serializers

from console.models import AuditEntry


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.CharField(
        allow_null=True, help_text="The highest role held on any cluster (null: none)."
    )
    cluster_roles = serializers.DictField(
        child=serializers.CharField(),
        help_text="The role on each registered cluster where the user holds one.",
    )


class AuditEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "actor",
            "action",
            "cluster",
            "target",
            "request",
            "outcome",
            "details",
        ]
