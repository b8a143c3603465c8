"""Trained models, the active model and its promotion (operator), the latest predictions
(viewer), the worklist and a crew's marks (operator); the logic is maintenance/service.py,
maintenance/lifecycle.py and maintenance/worklist.py."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView, query_int
from console.audit import audited
from console.clusters import get_cluster
from console.errors import BadInput
from maintenance import drift, lifecycle, service, worklist
from maintenance.api import serializers as s
from maintenance.types_features import DEFAULT_ALARMS_TOPIC, DEFAULT_WORK_ORDERS_TOPIC
from maintenance.types_model import DEFAULT_PREDICTIONS_TOPIC

MODELS_DEFAULT, MODELS_MAX = 100, 1000
PREDICTIONS_DEFAULT, PREDICTIONS_MAX = 20, 1000
WORKLIST_DEFAULT, WORKLIST_MAX = 50, 1000


class ModelListView(ConsoleAPIView):
    @extend_schema(
        responses=s.SparkModelSerializer(many=True),
        summary="Trained failure models, newest first",
        parameters=[
            OpenApiParameter(
                "limit", int, description=f"1..{MODELS_MAX} (default {MODELS_DEFAULT})"
            )
        ],
    )
    def get(self, request: Request) -> Response:
        limit = query_int(request.query_params, "limit", MODELS_DEFAULT, 1, MODELS_MAX)
        models = lifecycle.list_models(limit, self.scope())
        return Response(s.SparkModelSerializer(models, many=True).data)


class PredictionListView(ConsoleAPIView):
    @extend_schema(
        responses=s.PredictionSerializer(many=True),
        summary="The latest failure prediction per equipment, highest probability first",
        parameters=[
            OpenApiParameter("cluster", str, required=True),
            OpenApiParameter(
                "limit",
                int,
                description=f"1..{PREDICTIONS_MAX} (default {PREDICTIONS_DEFAULT})",
            ),
            OpenApiParameter(
                "topic",
                str,
                description=f"the predictions topic (default {DEFAULT_PREDICTIONS_TOPIC})",
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        cluster = query.get("cluster")
        if not cluster:
            raise BadInput("cluster", "cluster: name the cluster whose predictions to read.")
        self.require_role(cluster)
        limit = query_int(query, "limit", PREDICTIONS_DEFAULT, 1, PREDICTIONS_MAX)
        predictions = service.read_predictions(cluster, query.get("topic"), limit)
        return Response(s.PredictionSerializer(predictions, many=True).data)


class ActiveModelView(ConsoleAPIView):
    @extend_schema(
        responses=s.ActiveModelSerializer,
        summary="A cluster's active failure model, why it is active, and its promotions",
        parameters=[OpenApiParameter("cluster", str, required=True)],
    )
    def get(self, request: Request) -> Response:
        cluster = request.query_params.get("cluster")
        if not cluster:
            raise BadInput("cluster", "cluster: name the cluster whose active model to show.")
        self.require_role(cluster)
        cfg = get_cluster(cluster)  # ClusterNotFound: 404
        return Response(s.ActiveModelSerializer(lifecycle.active_model(cfg.name)).data)


class ModelPromoteView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.PromoteInputSerializer,
        responses=s.ActiveModelSerializer,
        summary="Make a usable model the active one of the cluster it was trained on "
        "(also to roll back to an earlier one)",
    )
    def post(self, request: Request, model_id: int) -> Response:
        with audited(
            request.user, "spark.model.promote", target=str(model_id), request=request.data
        ) as log:
            body = self.validated(s.PromoteInputSerializer, request.data)
            log.cluster = lifecycle.get_model(model_id)["cluster"]
            self.require_role(log.cluster)
            state = lifecycle.promote(model_id, request.user, body["reason"])
        return Response(s.ActiveModelSerializer(state).data)


def _topic_params() -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "topic", str, description=f"the predictions topic (default {DEFAULT_PREDICTIONS_TOPIC})"
        ),
        OpenApiParameter(
            "alarms_topic",
            str,
            description=f"where FAILURE alarms come from (default {DEFAULT_ALARMS_TOPIC})",
        ),
        OpenApiParameter(
            "work_orders_topic",
            str,
            description=f"where work orders come from (default {DEFAULT_WORK_ORDERS_TOPIC})",
        ),
    ]


def _cluster_param(request: Request, what: str) -> str:
    cluster = request.query_params.get("cluster")
    if not cluster:
        raise BadInput("cluster", f"cluster: name the cluster {what}.")
    return cluster


class WorklistView(ConsoleAPIView):
    @extend_schema(
        responses=s.WorklistItemSerializer(many=True),
        summary="Equipment most likely to fail, with why, what happened since and the crew's "
        "status",
        parameters=[
            OpenApiParameter("cluster", str, required=True),
            OpenApiParameter(
                "limit", int, description=f"1..{WORKLIST_MAX} (default {WORKLIST_DEFAULT})"
            ),
            *_topic_params(),
        ],
    )
    def get(self, request: Request) -> Response:
        query = request.query_params
        cluster = _cluster_param(request, "whose worklist to show")
        self.require_role(cluster)
        limit = query_int(query, "limit", WORKLIST_DEFAULT, 1, WORKLIST_MAX)
        rows = worklist.worklist(
            cluster,
            limit,
            query.get("topic"),
            query.get("alarms_topic"),
            query.get("work_orders_topic"),
        )
        return Response(s.WorklistItemSerializer(rows, many=True).data)


class WorklistMarkView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.WorklistMarkInputSerializer,
        responses=s.WorklistItemSerializer,
        summary="Mark an equipment of the worklist acknowledged, inspected, dismissed or open "
        "again, with a note",
        parameters=[OpenApiParameter("cluster", str, required=True), *_topic_params()],
    )
    def post(self, request: Request, equipment_id: str) -> Response:
        query = request.query_params
        with audited(
            request.user, "maintenance.worklist.mark", target=equipment_id, request=request.data
        ) as log:
            body = self.validated(s.WorklistMarkInputSerializer, request.data)
            cluster = _cluster_param(request, "the equipment is on")
            log.cluster = cluster
            self.require_role(cluster)
            row = worklist.mark(
                cluster,
                equipment_id,
                body["status"],
                body["note"],
                request.user,
                query.get("topic"),
                query.get("alarms_topic"),
                query.get("work_orders_topic"),
            )
        return Response(s.WorklistItemSerializer(row).data)


class ModelPerformanceView(ConsoleAPIView):
    @extend_schema(
        responses=s.PerformanceSerializer,
        summary="How a model's past predictions turned out, per scored day (the newest "
        "model-performance job's result)",
    )
    def get(self, request: Request, model_id: int) -> Response:
        self.require_role(lifecycle.get_model(model_id)["cluster"])
        return Response(s.PerformanceSerializer(lifecycle.performance(model_id)).data)


class ModelDriftView(ConsoleAPIView):
    @extend_schema(
        responses=s.DriftSerializer,
        summary="How far the days a model scored drifted from its training population, per "
        "feature (population-stability index)",
    )
    def get(self, request: Request, model_id: int) -> Response:
        self.require_role(lifecycle.get_model(model_id)["cluster"])
        return Response(s.DriftSerializer(drift.model_drift(model_id)).data)
