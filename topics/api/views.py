from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from approvals import service as approval_service
from approvals.api.serializers import ApprovalWrapSerializer
from approvals.respond import requested
from console.api.base import ConsoleAPIView, query_bool
from console.audit import audited
from console.clusters import all_clusters
from console.metadata import cache
from topics import approval_actions as held
from topics import broker_configs, broker_detail, changes, cluster_overview, listing
from topics.api import serializers as s
from topics.health import FILTERS


class ClusterListView(ConsoleAPIView):
    @extend_schema(responses=s.ClusterSerializer(many=True), summary="List registered clusters")
    def get(self, request: Request) -> Response:
        scope = self.scope()
        mine = [cfg for cfg in all_clusters() if scope.allows(cfg.name)]
        return Response(cluster_overview.list_clusters(mine))


class ClusterDetailView(ConsoleAPIView):
    @extend_schema(responses=s.ClusterDetailSerializer, summary="One cluster with its brokers")
    def get(self, request: Request, cluster: str) -> Response:
        return Response(cluster_overview.cluster_detail(self.cluster()))


class BrokerListView(ConsoleAPIView):
    @extend_schema(responses=s.BrokerSerializer(many=True), summary="Live brokers of a cluster")
    def get(self, request: Request, cluster: str) -> Response:
        return Response(cluster_overview.cluster_brokers(self.cluster()))


class BrokerDetailView(ConsoleAPIView):
    @extend_schema(
        responses=s.BrokerDetailSerializer,
        summary="One broker: log dirs with replica sizes, configs with sources, API versions",
    )
    def get(self, request: Request, cluster: str, broker: int) -> Response:
        return Response(broker_detail.broker_detail(self.cluster(), broker))


class BrokerConfigsView(ConsoleAPIView):
    @extend_schema(
        request=s.ConfigPatchSerializer,
        responses={200: s.ConfigEntrySerializer(many=True), 202: ApprovalWrapSerializer},
        summary="Set and delete one broker's dynamic configs (kafka-configs.sh semantics)",
    )
    def patch(self, request: Request, cluster: str, broker: int) -> Response:
        return _patch_broker_configs(self, request, "broker.configs", broker, f"broker {broker}")


class BrokerDefaultsView(ConsoleAPIView):
    @extend_schema(
        responses=s.ConfigEntrySerializer(many=True),
        summary="The cluster-wide dynamic broker configs (--entity-default)",
    )
    def get(self, request: Request, cluster: str) -> Response:
        return Response(broker_configs.broker_defaults(self.cluster()))

    @extend_schema(
        request=s.ConfigPatchSerializer,
        responses={200: s.ConfigEntrySerializer(many=True), 202: ApprovalWrapSerializer},
        summary="Set and delete cluster-wide dynamic broker configs (kafka-configs.sh semantics)",
    )
    def patch(self, request: Request, cluster: str) -> Response:
        return _patch_broker_configs(self, request, "broker.defaults", None, "all brokers")


def _patch_broker_configs(
    view: ConsoleAPIView, request: Request, action: str, broker: int | None, target: str
) -> Response:
    """One broker's dynamic configs (`broker`), or the cluster-wide ones (None), set and
    deleted; on a protected cluster, a request for approval instead."""
    cfg = view.cluster()
    with audited(
        request.user,
        action,
        cluster=cfg.name,
        target=target,
        request=broker_configs.redacted(request.data),
    ) as log:
        body = view.validated(s.ConfigPatchSerializer, request.data)
        if approval_service.protected(cfg):
            asked = held.ask_broker_change(request.user, cfg, log.action, broker, body)
            return requested(log, asked)
        configs = broker_configs.alter_broker_configs(cfg, broker, body["set"], body["delete"])
    return Response(configs)


class TopicListView(ConsoleAPIView):
    @extend_schema(
        responses=s.TopicRowSerializer(many=True),
        summary="Topics with partition health counts",
        parameters=[
            OpenApiParameter("include_internal", bool),
            OpenApiParameter("filter", str, enum=list(FILTERS)),
            OpenApiParameter("search", str),
        ],
    )
    def get(self, request: Request, cluster: str) -> Response:
        query = request.query_params
        rows = listing.list_topics(
            self.cluster(),
            include_internal=query_bool(query, "include_internal", False),
            health_filter=query.get("filter") or None,
            search=query.get("search") or None,
        )
        return Response(rows)

    @extend_schema(
        request=s.TopicCreateSerializer,
        responses={201: s.TopicDetailSerializer},
        summary="Create a topic",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user,
            "topic.create",
            cluster=cfg.name,
            target=self.body_field("name"),
            request=request.data,
        ):
            body = self.validated(s.TopicCreateSerializer, request.data)
            snap = changes.create_topic(
                cfg, body["name"], body["partitions"], body["replication_factor"], body["configs"]
            )
        return Response(listing.topic_detail(cfg, body["name"], snap), status=201)


class TopicDetailView(ConsoleAPIView):
    @extend_schema(responses=s.TopicDetailSerializer, summary="A topic with its partitions")
    def get(self, request: Request, cluster: str, topic: str) -> Response:
        return Response(listing.topic_detail(self.cluster(), topic))

    @extend_schema(
        responses={204: None, 202: ApprovalWrapSerializer},
        summary="Delete a topic (on a protected cluster: a request for approval, 202)",
    )
    def delete(self, request: Request, cluster: str, topic: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "topic.delete", cluster=cfg.name, target=topic) as log:
            self.no_body()
            if approval_service.protected(cfg):
                listing.get_topic_meta(cache.snapshot(cfg), topic)  # 404 for no such topic
                summary = f"Delete topic {topic} and every record in it."
                found = approval_service.ask(
                    request.user, cfg, "topic.delete", topic, {"topic": topic}, summary
                )
                return requested(log, found)
            changes.delete_topic(cfg, topic)
        return Response(status=204)


class TopicConfigsView(ConsoleAPIView):
    @extend_schema(
        request=s.ConfigPatchSerializer,
        responses={200: s.TopicDetailSerializer, 202: ApprovalWrapSerializer},
        summary="Set and delete topic configs",
    )
    def patch(self, request: Request, cluster: str, topic: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user, "topic.configs", cluster=cfg.name, target=topic, request=request.data
        ) as log:
            body = self.validated(s.ConfigPatchSerializer, request.data)
            if approval_service.protected(cfg):
                keys = [*body["set"], *body["delete"]]
                plan = {**body, "topic": topic, "before": held.config_state(cfg, topic, keys)}
                summary = f"Change configs of {topic}: set {body['set']}, delete {body['delete']}."
                return requested(
                    log, approval_service.ask(request.user, cfg, log.action, topic, plan, summary)
                )
            configs = changes.alter_configs(cfg, topic, body["set"], body["delete"])
        return Response(listing.topic_detail(cfg, topic, configs=configs))


class TopicPartitionsView(ConsoleAPIView):
    @extend_schema(
        request=s.PartitionCountSerializer,
        responses={200: s.TopicDetailSerializer, 202: ApprovalWrapSerializer},
        summary="Raise a topic's partition count",
    )
    def post(self, request: Request, cluster: str, topic: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user, "topic.partitions", cluster=cfg.name, target=topic, request=request.data
        ) as log:
            body = self.validated(s.PartitionCountSerializer, request.data)
            if approval_service.protected(cfg):
                before = held.partition_count(cfg, topic)
                plan = {"topic": topic, "count": body["count"], "before": before}
                summary = f"Raise {topic} from {before} to {body['count']} partitions."
                return requested(
                    log, approval_service.ask(request.user, cfg, log.action, topic, plan, summary)
                )
            snap = changes.add_partitions(cfg, topic, body["count"])
        return Response(listing.topic_detail(cfg, topic, snap))


class ElectLeadersView(ConsoleAPIView):
    @extend_schema(
        request=s.ElectLeadersSerializer,
        responses={200: s.ElectionResultSerializer(many=True), 202: ApprovalWrapSerializer},
        summary="Preferred or unclean leader election",
    )
    def post(self, request: Request, cluster: str) -> Response:
        cfg = self.cluster()
        with audited(
            request.user,
            "leaders.elect",
            cluster=cfg.name,
            target=self.body_field("election"),
            request=request.data,
        ) as log:
            body = self.validated(s.ElectLeadersSerializer, request.data)
            if approval_service.protected(cfg):
                plan = {"election": body["election"], "partitions": body.get("partitions")}
                scope = (
                    "every partition"
                    if plan["partitions"] is None
                    else (f"{len(plan['partitions'])} partition(s)")
                )
                summary = f"A {body['election']} leader election on {scope}."
                found = approval_service.ask(
                    request.user, cfg, log.action, body["election"], plan, summary
                )
                return requested(log, found)
            parts = body.get("partitions")
            refs = None if parts is None else [(p["topic"], p["partition"]) for p in parts]
            rows = changes.elect_leaders(cfg, body["election"], refs)
            log.details["results"] = rows
        return Response(rows)
