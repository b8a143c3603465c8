"""`/ws/clusters/{cluster}/topics/{topic}/messages`: scans that stream, and a live tail.

The client sends one of:
- `{"scan": {...the GET query's fields as JSON...}}`: pages are read one after the other from
  the position (or cursor) and each page's matches are sent as they are found (`records`),
  with `progress` (scanned, matched, positions) after each, until `limit` matches (up to
  10,000 here), the end, or the socket's budget (1,000,000 records or 60 s examined); then
  `done` with why it stopped and the cursor to go on.
- `{"tail": {"partition"?, "filter"?, "key_format"?, "value_format"?, "isolation"?}}`: new
  records from now on, filtered, at most TAIL_RATE a second toward the browser; what is over
  that is counted and said (`dropped`), never queued without bound.
- `{"cancel": true}`: stops the scan or tail (`done` with `stopped_by: "cancelled"`).
A new scan or tail replaces the running one. Frames are read like REST bodies; a bad one is
answered with an `error` message in the REST shape and the socket stays open. Viewers and up.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.http import QueryDict
from rest_framework import serializers

from console import kafka
from console.clusters import ClusterConfig, ClusterNotFound, get_cluster
from console.errors import BadInput, ConsoleError
from console.kafka.errors import KafkaAdapterError
from console.kafka.records import RawRecord, Tail
from console.ws_auth import AuthenticatedConsumer
from console.ws_frames import FrameError, error_message, read_frame
from messages.browse import (
    BrowseQuery,
    browse,
    chosen_partitions,
    filter_variables,
    render_record,
    scan_reader,
)
from messages.filtering import RecordFilter
from messages.paging import parse_cursor
from messages.query import read_query
from messages.registry import schema_source

CLOSE_UNKNOWN_CLUSTER = 4404
SCAN_DEFAULT, SCAN_MAX = 500, 10_000  # matches a streamed scan sends
SCAN_RECORDS, SCAN_SECONDS = 1_000_000, 60.0  # a streamed scan's budget
CHUNK = 100  # matches per page read while streaming
TAIL_RATE = 100  # records a second sent to the browser by a tail
_TAIL_BATCH, _TAIL_WAIT_S = 500, 0.5


class _ScanFields(serializers.Serializer):
    partition = serializers.ListField(child=serializers.IntegerField())
    position = serializers.CharField()
    offset = serializers.IntegerField()
    timestamp = serializers.CharField()
    direction = serializers.CharField()
    limit = serializers.IntegerField()
    key_format = serializers.CharField()
    value_format = serializers.CharField()
    isolation = serializers.CharField()
    filter = serializers.CharField()
    cursor = serializers.CharField()


class _TailFields(serializers.Serializer):
    partition = serializers.ListField(child=serializers.IntegerField())
    key_format = serializers.CharField()
    value_format = serializers.CharField()
    isolation = serializers.CharField()
    filter = serializers.CharField()


class _Frame(serializers.Serializer):
    scan = _ScanFields()
    tail = _TailFields()
    cancel = serializers.BooleanField()


FRAME = _Frame()


def _in_thread(fn: Callable[..., Any]) -> Callable[..., Any]:
    # Kafka reads block: each runs in a thread of its own, never in the shared sync thread.
    return sync_to_async(fn, thread_sensitive=False)


def read_request(text_data: str | None) -> tuple[str, dict[str, Any]]:
    """("scan" | "tail" | "cancel", its fields); FrameError saying what is wrong."""
    frame = read_frame(text_data, FRAME)
    if len(frame) != 1:
        raise FrameError('frame: send one of {"scan": ...}, {"tail": ...} or {"cancel": true}.')
    kind, fields = next(iter(frame.items()))
    if kind == "cancel":
        if fields is not True:
            raise FrameError('cancel: send {"cancel": true}.', field="cancel")
        return kind, {}
    if not isinstance(fields, dict):
        raise FrameError(f"{kind}: an object of its fields.", field=kind)
    return kind, fields


def scan_query(fields: dict[str, Any]) -> tuple[BrowseQuery, int]:
    """A scan frame's fields read as the REST query is (the same 400s, named `scan.<field>`),
    and how many matches to send."""
    fields = dict(fields)
    limit = fields.pop("limit", SCAN_DEFAULT)
    if not 1 <= limit <= SCAN_MAX:
        raise FrameError(f"scan.limit: from 1 to {SCAN_MAX}.", field="scan.limit")
    return _as_query("scan", fields), limit


def tail_query(fields: dict[str, Any]) -> BrowseQuery:
    return _as_query("tail", fields)


def _as_query(kind: str, fields: dict[str, Any]) -> BrowseQuery:
    query = QueryDict(mutable=True)
    for name, value in fields.items():
        query.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    try:
        return read_query(query)
    except BadInput as exc:
        field = f"{kind}.{exc.field}"
        raise FrameError(
            exc.message.replace(f"{exc.field}:", f"{field}:", 1),
            field=field,
            details={**exc.details, "field": field},
        ) from None


class MessagesConsumer(AuthenticatedConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cfg: ClusterConfig | None = None
        self.topic = ""
        self.task: asyncio.Task | None = None

    async def on_authenticated(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        try:
            self.cfg = get_cluster(kwargs["cluster"])
        except ClusterNotFound:
            await self.close(code=CLOSE_UNKNOWN_CLUSTER)
            return
        self.topic = kwargs["topic"]

    async def disconnect(self, code: int) -> None:
        await self._stop()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if self.cfg is None:
            return
        try:
            kind, fields = read_request(text_data)
            if kind == "scan":
                query, limit = scan_query(fields)
                await self._start(self._scan(query, limit), kind)
            elif kind == "tail":
                await self._start(self._tail(tail_query(fields)), kind)
            else:
                stopped = await self._stop()
                await self.send_json(
                    {"type": "done", "stopped_by": "cancelled" if stopped else None}
                )
        except FrameError as exc:
            await self.send_json(error_message(exc))

    async def _start(self, work: Any, kind: str) -> None:
        await self._stop()
        self.task = asyncio.create_task(self._guarded(work, kind))

    async def _stop(self) -> bool:
        """Cancel what runs; whether something did."""
        task, self.task = self.task, None
        if task is None or task.done():
            return False
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return True

    async def _guarded(self, work: Any, kind: str) -> None:
        """Kafka's and the input's errors end the scan or tail with an `error` message; an
        input's is named inside the frame (`scan.partition`)."""
        try:
            await work
        except (ConsoleError, KafkaAdapterError) as exc:
            details = dict(getattr(exc, "details", None) or {})
            if isinstance(exc, BadInput):
                details["field"] = f"{kind}.{exc.field}"
            await self.send_json(
                {
                    "type": "error",
                    "error": {"code": exc.code, "message": exc.message, "details": details},
                }
            )

    async def _scan(self, query: BrowseQuery, limit: int) -> None:
        assert self.cfg is not None
        # One reader for the scan's pages: what a page read ahead is the next one's.
        reader = await _in_thread(scan_reader)(self.cfg, self.topic, query)
        try:
            await self._scan_pages(query, limit, reader)
        finally:
            await _in_thread(reader.close)()

    async def _scan_pages(self, query: BrowseQuery, limit: int, reader: Any) -> None:
        assert self.cfg is not None
        started, scanned, matched = time.monotonic(), 0, 0
        page: dict[str, Any] = {}
        while True:
            chunk = dataclasses.replace(query, limit=min(CHUNK, limit - matched))
            page = await _in_thread(browse)(self.cfg, self.topic, chunk, reader)
            scanned += page["scan"]["scanned"]
            matched += len(page["records"])
            if page["records"]:
                await self.send_json({"type": "records", "records": page["records"]})
            await self.send_json(
                {
                    "type": "progress",
                    "scanned": scanned,
                    "matched": matched,
                    "positions": page["scan"]["positions"],
                }
            )
            stopped = page["scan"]["stopped_by"]
            if stopped == "end" or matched >= limit:
                stopped = "end" if stopped == "end" else "limit"
                break
            if scanned >= SCAN_RECORDS:
                stopped = "records"
                break
            if time.monotonic() - started >= SCAN_SECONDS:
                stopped = "time"
                break
            query = dataclasses.replace(query, cursor=parse_cursor(page["next_cursor"]))
        await self.send_json(
            {"type": "done", "stopped_by": stopped, "next_cursor": page.get("next_cursor")}
        )

    async def _tail(self, query: BrowseQuery) -> None:
        assert self.cfg is not None
        cfg, topic = self.cfg, self.topic
        partitions = await _in_thread(chosen_partitions)(cfg, topic, query)
        client = kafka.for_cluster(cfg)
        tail = await _in_thread(Tail)(client, topic, partitions, query.committed)
        record_filter = RecordFilter(query.filter) if query.filter else None
        schemas = schema_source(cfg)

        def shown(records: list[RawRecord]) -> list[dict[str, Any]]:
            out = []
            for record in records:
                row = render_record(record, query, schemas)
                if record_filter is None or record_filter.matches(filter_variables(record, row)):
                    out.append(row)
            return out

        try:
            await self.send_json({"type": "tailing", "partitions": partitions})
            window, allowance, dropped = time.monotonic(), TAIL_RATE, 0
            while True:
                records = await _in_thread(tail.poll)(_TAIL_BATCH, _TAIL_WAIT_S)
                rows = await _in_thread(shown)(records) if records else []
                now = time.monotonic()
                if now - window >= 1.0:
                    if dropped:
                        await self.send_json({"type": "dropped", "count": dropped})
                    window, allowance, dropped = now, TAIL_RATE, 0
                sent, dropped = rows[:allowance], dropped + max(0, len(rows) - allowance)
                allowance -= len(sent)
                if sent:
                    await self.send_json({"type": "records", "records": sent})
        finally:
            await _in_thread(tail.close)()
