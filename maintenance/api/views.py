"""Trained models, the active model and its promotion (operator), the latest predictions
(viewer); the logic is maintenance/service.py and maintenance/lifecycle.py."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView, query_int
from console.audit import audited
from console.clusters import get_cluster
from console.errors import BadInput
from maintenance import lifecycle, service
from maintenance.api import serializers as s
from maintenance.types_model import DEFAULT_PREDICTIONS_TOPIC

MODELS_DEFAULT, MODELS_MAX = 100, 1000
PREDICTIONS_DEFAULT, PREDICTIONS_MAX = 20, 1000


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
        return Response(s.SparkModelSerializer(lifecycle.list_models(limit), many=True).data)


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
            state = lifecycle.promote(model_id, request.user, body["reason"])
        return Response(s.ActiveModelSerializer(state).data)
