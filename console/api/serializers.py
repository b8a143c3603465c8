from rest_framework import serializers

from console.models import AuditEntry


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.CharField()


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
