"""A topic's records (viewer); the logic is messages/browse.py, the query is read here."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from console.api.base import ConsoleAPIView, query_int
from console.api.limits import INT64_MAX, iso_millis
from console.audit import audited
from console.errors import BadInput
from messages.api import serializers as s
from messages.browse import DEFAULT_LIMIT, MAX_LIMIT, POSITIONS, BrowseQuery, browse
from messages.decoding import FORMATS
from messages.filtering import RecordFilter
from messages.paging import BACKWARD, FORWARD, parse_cursor
from messages.produce import produce

_ISOLATIONS = {"read_committed": True, "read_uncommitted": False}
_MAX_PARTITION = 2**31 - 1
# What a cursor replaces: given with one, the two would disagree.
_POSITIONAL = ("partition", "position", "offset", "timestamp", "direction")


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
                "isolation", str, enum=list(_ISOLATIONS), description="Default read_committed."
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


def read_query(query: Any) -> BrowseQuery:
    """The query string as a BrowseQuery; anything unreadable is a 400 naming its parameter."""
    cursor_text = query.get("cursor")
    cursor = parse_cursor(cursor_text) if cursor_text else None
    if cursor is not None:
        for name in _POSITIONAL:
            if name in query:
                raise BadInput(name, f"{name}: a cursor says where to read; give one or the other.")
    position = _choice(query, "position", POSITIONS, "latest")
    offset = query.get("offset")
    stamp = query.get("timestamp")
    if position == "offset" and offset is None:
        raise BadInput("offset", "offset: position=offset needs an offset.")
    if position == "timestamp" and stamp is None:
        raise BadInput("timestamp", "timestamp: position=timestamp needs a timestamp.")
    for name, needs in (("offset", "offset"), ("timestamp", "timestamp")):
        if name in query and position != needs:
            raise BadInput(name, f"{name}: only with position={needs}.")
    direction = query.get("direction")
    if direction is not None:
        direction = _choice(query, "direction", (FORWARD, BACKWARD), FORWARD)
    return BrowseQuery(
        partitions=_partitions(query),
        position=position,
        offset=query_int(query, "offset", 0, 0, INT64_MAX) if offset is not None else None,
        timestamp_ms=(
            iso_millis(stamp, "timestamp", zone_required=True, example="2026-11-21T10:03:12Z")
            if stamp is not None
            else None
        ),
        direction=direction,
        limit=query_int(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT),
        key_format=_choice(query, "key_format", FORMATS, "auto"),
        value_format=_choice(query, "value_format", FORMATS, "auto"),
        committed=_ISOLATIONS[_choice(query, "isolation", tuple(_ISOLATIONS), "read_committed")],
        cursor=cursor,
        filter=_filter(query),
    )


def _filter(query: Any) -> str | None:
    """The filter expression, checked before anything is read (a 400 names where it fails)."""
    expression = query.get("filter")
    if expression is None:
        return None
    RecordFilter(expression)
    return expression


def _choice(query: Any, name: str, allowed: tuple[str, ...], default: str) -> str:
    raw = query.get(name)
    if raw is None:
        return default
    if raw not in allowed:
        raise BadInput(name, f"{name}: give one of {', '.join(allowed)}, not {raw!r}.")
    return raw


def _partitions(query: Any) -> list[int] | None:
    values = query.getlist("partition")
    if not values:
        return None
    out = []
    for raw in values:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 10) or int(raw) > _MAX_PARTITION:
            raise BadInput("partition", f"partition: {raw!r} is not a partition number.")
        out.append(int(raw))
    return sorted(set(out))


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
