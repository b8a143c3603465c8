"""A topic's records (viewer) and producing one (operator); the logic is messages/browse.py,
messages/query.py and messages/produce.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView
from console.audit import audited
from messages.api import serializers as s
from messages.browse import DEFAULT_LIMIT, MAX_LIMIT, POSITIONS, browse
from messages.decoding import FORMATS
from messages.paging import BACKWARD, FORWARD
from messages.produce import produce
from messages.query import ISOLATIONS, read_query


class MessageListView(ConsoleAPIView):
    write_role = "operator"

    @extend_schema(
        request=s.ProduceSerializer,
        responses={201: s.ProducedSerializer},
        summary="Produce one record",
        description="Key, value and headers each given as {format, data}; the partition "
        "asked for, or Kafka's default partitioner. Audited without the record's content.",
    )
    def post(self, request: Request, cluster: str, topic: str) -> Response:
        cfg = self.cluster()
        with audited(request.user, "message.produce", cluster=cfg.name, target=topic) as entry:
            entry.request = _shape(request.data)
            body = self.validated(s.ProduceSerializer, request.data)
            written = produce(cfg, topic, body)
            entry.details = written.audit()
        return Response(written.answer(), status=201)

    @extend_schema(
        responses=s.MessagePageSerializer,
        summary="A page of a topic's records, decoded",
        description="Records from a position (earliest, latest: the last `limit`, an offset, "
        "a timestamp), forward (oldest first) or backward (newest first), with cursors to "
        "the next and previous pages that neither skip nor repeat a record.",
        parameters=[
            OpenApiParameter(
                "partition", int, many=True, description="Repeatable; default every partition."
            ),
            OpenApiParameter("position", str, enum=list(POSITIONS), description="Default latest."),
            OpenApiParameter("offset", int, description="With position=offset."),
            OpenApiParameter(
                "timestamp", str, description="ISO-8601 with a zone, with position=timestamp."
            ),
            OpenApiParameter(
                "direction",
                str,
                enum=[FORWARD, BACKWARD],
                description="Default backward for position=latest, forward otherwise.",
            ),
            OpenApiParameter("limit", int, description=f"1..{MAX_LIMIT} (default {DEFAULT_LIMIT})"),
            OpenApiParameter("key_format", str, enum=list(FORMATS), description="Default auto."),
            OpenApiParameter("value_format", str, enum=list(FORMATS), description="Default auto."),
            OpenApiParameter(
                "isolation", str, enum=list(ISOLATIONS), description="Default read_committed."
            ),
            OpenApiParameter(
                "cursor", str, description="next_cursor or prev_cursor of an earlier page."
            ),
            OpenApiParameter(
                "filter",
                str,
                description="A CEL expression over key, value, headers, partition, offset and "
                'timestamp, e.g. value.customer.id == "c-17" && value.amount > 6000.',
            ),
        ],
    )
    def get(self, request: Request, cluster: str, topic: str) -> Response:
        cfg = self.cluster()
        return Response(browse(cfg, topic, read_query(request.query_params)))


def _shape(body: Any) -> dict[str, Any]:
    """A produce request as the audit log keeps it: formats and counts, never the content."""

    def fmt(part: Any) -> str | None:
        return part.get("format") if isinstance(part, dict) else None

    if not isinstance(body, dict):
        return {}
    return {
        "partition": body.get("partition"),
        "key_format": fmt(body.get("key")),
        "value_format": fmt(body.get("value")),
        "headers": len(body.get("headers") or []),
    }
