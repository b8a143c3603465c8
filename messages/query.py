"""The reading of a messages query (REST query string, or a socket's scan frame turned into
one), every problem a 400 naming its parameter, before anything is read from Kafka."""

from __future__ import annotations

from typing import Any

from console.api.base import query_int
from console.api.limits import INT64_MAX, iso_millis
from console.errors import BadInput
from messages.browse import DEFAULT_LIMIT, MAX_LIMIT, POSITIONS, BrowseQuery
from messages.decoding import FORMATS
from messages.filtering import RecordFilter
from messages.paging import BACKWARD, FORWARD, parse_cursor

ISOLATIONS = {"read_committed": True, "read_uncommitted": False}
_MAX_PARTITION = 2**31 - 1
# What a cursor replaces: given with one, the two would disagree.
_POSITIONAL = ("partition", "position", "offset", "timestamp", "direction")


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
        committed=ISOLATIONS[_choice(query, "isolation", tuple(ISOLATIONS), "read_committed")],
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
