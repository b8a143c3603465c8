"""Response shapes, declared for the OpenAPI schema (the SPA's types come from it)."""

from rest_framework import serializers


class BrokerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    host = serializers.CharField()
    port = serializers.IntegerField()
    rack = serializers.CharField(allow_null=True)
    is_controller = serializers.BooleanField()
    leader_count = serializers.IntegerField()
    replica_count = serializers.IntegerField()
    offline_replica_count = serializers.IntegerField()


class ClusterSerializer(serializers.Serializer):
    name = serializers.CharField()
    bootstrap_servers = serializers.CharField()
    cluster_id = serializers.CharField(allow_null=True)
    controller_id = serializers.IntegerField(allow_null=True)
    broker_count = serializers.IntegerField(allow_null=True)
    reachable = serializers.BooleanField()


class ClusterDetailSerializer(ClusterSerializer):
    brokers = BrokerSerializer(many=True)
