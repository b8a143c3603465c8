from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.clusters import all_clusters
from topics import cluster_overview
from topics.api.serializers import BrokerSerializer, ClusterDetailSerializer, ClusterSerializer


class ClusterListView(ConsoleAPIView):
    @extend_schema(responses=ClusterSerializer(many=True), summary="List registered clusters")
    def get(self, request: Request) -> Response:
        return Response(cluster_overview.list_clusters(all_clusters()))


class ClusterDetailView(ConsoleAPIView):
    @extend_schema(responses=ClusterDetailSerializer, summary="One cluster with its brokers")
    def get(self, request: Request, cluster: str) -> Response:
        return Response(cluster_overview.cluster_detail(self.cluster()))


class BrokerListView(ConsoleAPIView):
    @extend_schema(responses=BrokerSerializer(many=True), summary="Live brokers of a cluster")
    def get(self, request: Request, cluster: str) -> Response:
        _, brokers = cluster_overview.cluster_brokers(self.cluster())
        return Response(brokers)
