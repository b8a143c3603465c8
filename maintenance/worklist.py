"""The maintenance worklist: equipment ranked by failure probability for a crew, with why
(the drivers and recent alarms the score job wrote with each prediction), what happened since
the scored day (a failure, a work order), and what the crew said about it (marks).

- Predictions: `service.read_predictions` (the latest per equipment, highest first).
- Outcomes: read from the alarms and work-orders topics from the earliest scored day's next
  UTC midnight on (ListOffsets by time), at most `OUTCOME_SCAN` records per partition; a
  FAILURE alarm or a `failure` work order after the scored day is a failure, any other work
  order a work order; a failure outranks a work order, the earliest of the kind is shown. A
  topic that does not exist gives no outcome (the worklist works without it).
- Marks: the newest `WorklistMark` of an equipment is its status ("open" before any).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from console import kafka
from console.clusters import get_cluster
from console.errors import NotFound
from console.kafka.records import Record, read_ranges
from console.metadata import cache
from maintenance import service
from maintenance.models import WorklistMark
from maintenance.types_features import DEFAULT_ALARMS_TOPIC, DEFAULT_WORK_ORDERS_TOPIC

# How the history shows a failure (devtools/demo/maintenance_history.py writes them, the
# failure-labels job reads them: tests/unit/test_worklist.py keeps the three in step).
FAILURE_CODE = "FAILURE"
FAILURE_WORK_ORDER = "failure"
# Records read per partition of each outcome topic: the events of the days after a score, not
# the topic's whole history; a partition with more shows the earliest ones.
OUTCOME_SCAN = 10_000
# Predictions read to find one equipment when a crew marks it.
ALL_EQUIPMENT = 1_000_000


@dataclass(frozen=True)
class Event:
    equipment_id: str
    kind: str  # "failure" | "work_order"
    ts_ms: int
    detail: str  # the fault code or the work order's type


def _json(value: bytes | None) -> dict[str, Any] | None:
    try:
        data = json.loads(value) if value is not None else None
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def alarm_events(records: Iterable[Record]) -> list[Event]:
    """The failures among alarms: a `FAILURE` fault code. Other alarms are not an outcome."""
    out = []
    for _key, value, ts in records:
        data = _json(value)
        if data is None or ts is None:
            continue
        equipment, code = data.get("equipment_id"), data.get("fault_code")
        if isinstance(equipment, str) and code == FAILURE_CODE:
            out.append(Event(equipment, "failure", ts, code))
    return out


def work_order_events(records: Iterable[Record]) -> list[Event]:
    """Every work order; one of type `failure` is a failure (the backfill's marker, with no
    equipment, is skipped)."""
    out = []
    for _key, value, ts in records:
        data = _json(value)
        if data is None or ts is None:
            continue
        equipment, kind = data.get("equipment_id"), data.get("type")
        if isinstance(equipment, str) and isinstance(kind, str):
            out.append(
                Event(
                    equipment, "failure" if kind == FAILURE_WORK_ORDER else "work_order", ts, kind
                )
            )
    return out


def after_day_ms(day: str | None) -> int | None:
    """The first millisecond after a scored day (its next UTC midnight), None for no day."""
    try:
        parsed = date.fromisoformat(day) if day else None
    except ValueError:
        return None
    if parsed is None:
        return None
    midnight = datetime(parsed.year, parsed.month, parsed.day, tzinfo=UTC) + timedelta(days=1)
    return int(midnight.timestamp() * 1000)


def outcome_of(prediction: Mapping[str, Any], events: Iterable[Event]) -> dict[str, Any]:
    """What happened to the equipment after its scored day: {outcome, outcome_at,
    outcome_detail}, all None when nothing did (or the prediction has no day)."""
    since = after_day_ms(prediction.get("day"))
    best: Event | None = None
    if since is not None:
        for event in events:
            if event.equipment_id != prediction["equipment_id"] or event.ts_ms < since:
                continue
            rank = (event.kind != "failure", event.ts_ms)
            if best is None or rank < (best.kind != "failure", best.ts_ms):
                best = event
    if best is None:
        return {"outcome": None, "outcome_at": None, "outcome_detail": None}
    return {
        "outcome": best.kind,
        "outcome_at": datetime.fromtimestamp(best.ts_ms / 1000, UTC),
        "outcome_detail": best.detail,
    }


def _mark_fields(mark: WorklistMark | None) -> dict[str, Any]:
    if mark is None:
        return {
            "status": WorklistMark.Status.OPEN.value,
            "note": "",
            "marked_by": None,
            "marked_at": None,
            "marked_day": None,
        }
    return {
        "status": mark.status,
        "note": mark.note,
        "marked_by": mark.marked_by.get_username() if mark.marked_by else None,
        "marked_at": mark.marked_at,
        "marked_day": mark.day.isoformat() if mark.day else None,
    }


def latest_marks(cluster: str, equipment: Iterable[str]) -> dict[str, WorklistMark]:
    """{equipment id: its newest mark} for those that have one."""
    marks: dict[str, WorklistMark] = {}
    rows = WorklistMark.objects.filter(cluster=cluster, equipment_id__in=list(equipment))
    for mark in rows.select_related("marked_by"):  # newest first (Meta.ordering)
        marks.setdefault(mark.equipment_id, mark)
    return marks


def items(
    predictions: list[dict[str, Any]],
    events: list[Event],
    marks: Mapping[str, WorklistMark],
) -> list[dict[str, Any]]:
    """Worklist rows in the predictions' order: each prediction with its outcome and mark."""
    by_equipment: dict[str, list[Event]] = {}
    for event in events:
        by_equipment.setdefault(event.equipment_id, []).append(event)
    return [
        {
            **p,
            **outcome_of(p, by_equipment.get(p["equipment_id"], ())),
            **_mark_fields(marks.get(p["equipment_id"])),
        }
        for p in predictions
    ]


# --- reading Kafka ----------------------------------------------------------------------------
def _read_since(cfg: Any, topic: str, since_ms: int) -> list[Record]:
    """The records of `topic` from the first one at or after `since_ms` on, at most
    `OUTCOME_SCAN` per partition; [] when the topic does not exist."""
    partitions = cache.snapshot(cfg).partitions_of(topic)
    if not partitions:
        return []
    client = kafka.for_cluster(cfg)
    tps = [(topic, p) for p in partitions]
    starts = client.list_offsets(tps, since_ms)
    ends = client.list_offsets(tps, "latest")
    ranges: dict[int, tuple[int, int]] = {}
    for tp in tps:
        start, end = starts[tp], ends[tp]
        if isinstance(start, kafka.KafkaAdapterError):
            raise start
        if isinstance(end, kafka.KafkaAdapterError):
            raise end
        if 0 <= start.offset < end.offset:
            ranges[tp[1]] = (start.offset, min(end.offset, start.offset + OUTCOME_SCAN))
    if not ranges:
        return []
    reads = read_ranges(client, topic, ranges, OUTCOME_SCAN)
    return [(r.key, r.value, r.timestamp_ms) for read in reads.values() for r in read.records]


def read_events(
    cfg: Any, predictions: list[dict[str, Any]], alarms_topic: str, work_orders_topic: str
) -> list[Event]:
    """The outcome events that can matter to these predictions (after the earliest day)."""
    starts = [ms for ms in (after_day_ms(p.get("day")) for p in predictions) if ms is not None]
    if not starts:
        return []
    since = min(starts)
    return alarm_events(_read_since(cfg, alarms_topic, since)) + work_order_events(
        _read_since(cfg, work_orders_topic, since)
    )


def outcome_topics(alarms_topic: str | None, work_orders_topic: str | None) -> tuple[str, str]:
    """The alarms and work-orders topics to read outcomes from (checked names; defaults the
    maintenance jobs' own)."""
    return (
        service.checked_topic(alarms_topic or DEFAULT_ALARMS_TOPIC, "alarms_topic"),
        service.checked_topic(work_orders_topic or DEFAULT_WORK_ORDERS_TOPIC, "work_orders_topic"),
    )


def worklist(
    cluster: str,
    limit: int,
    topic: str | None = None,
    alarms_topic: str | None = None,
    work_orders_topic: str | None = None,
) -> list[dict[str, Any]]:
    """The `limit` equipment most likely to fail on `cluster`, each with why, what happened
    since and the crew's status."""
    alarms, orders = outcome_topics(alarms_topic, work_orders_topic)
    cfg = get_cluster(cluster)
    predictions = service.read_predictions(cfg.name, topic, limit)
    events = read_events(cfg, predictions, alarms, orders)
    marks = latest_marks(cfg.name, (p["equipment_id"] for p in predictions))
    return items(predictions, events, marks)


def mark(
    cluster: str,
    equipment_id: str,
    status: str,
    note: str,
    actor: Any,
    topic: str | None = None,
    alarms_topic: str | None = None,
    work_orders_topic: str | None = None,
) -> dict[str, Any]:
    """Record a crew's status of an equipment that has a prediction; its worklist row."""
    alarms, orders = outcome_topics(alarms_topic, work_orders_topic)
    cfg = get_cluster(cluster)
    predictions = service.read_predictions(cfg.name, topic, ALL_EQUIPMENT)
    prediction = next((p for p in predictions if p["equipment_id"] == equipment_id), None)
    if prediction is None:
        raise NotFound(
            f"Equipment {equipment_id!r} has no prediction on cluster {cfg.name!r} (the "
            "worklist lists what a score job scored).",
            code="equipment_not_found",
        )
    day = prediction.get("day")
    WorklistMark.objects.create(
        cluster=cfg.name,
        equipment_id=equipment_id,
        day=date.fromisoformat(day) if isinstance(day, str) and after_day_ms(day) else None,
        failure_probability=prediction["failure_probability"],
        status=status,
        note=note,
        marked_by=actor if getattr(actor, "pk", None) else None,
    )
    events = read_events(cfg, [prediction], alarms, orders)
    return items([prediction], events, latest_marks(cfg.name, [equipment_id]))[0]
