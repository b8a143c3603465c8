"""A maintenance history for the predictive-maintenance demo (docs/maintenance-data.md).

`generate` is pure: from (equipment, days, seed, pattern, anchor) it builds the same alarm
events and work orders every time. `backfill` writes them to Kafka with the record timestamp
(CreateTime) = the event time, once per topic pair.

The data:
- equipment `eq-0001` ... with alarms every day at a base rate per fault code, each alarm with
  a severity and three sensor readings (temperature, vibration, pressure);
- failures (a few per equipment over the history, at least REPAIR_DAYS apart): a `FAILURE`
  alarm and/or a work order of type `failure`; preventive and inspection work orders as noise;
- the planted pattern: in the RAMP_DAYS before a failure the counts of the PRECURSOR_CODES
  rise towards the failure and so do the vibration and temperature readings. With
  `pattern=False` the same ramps are planted before the days of an independent "decoy"
  process with the same rate instead: same volume, same failures, no signal (a control).

Idempotence: the backfill writes a marker record into the work-orders topic before (state
`started`) and after (`complete`) the history; a backfill that finds a marker there writes
nothing (complete) or refuses (started: an earlier run stopped half way).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from console.clusters import ClusterConfig
from console.kafka import dev, for_cluster
from console.kafka.client import ClusterClient

ALARMS_TOPIC = "equipment-alarms"  # devtools.demo.traffic.ALARMS_TOPIC, which also writes it
WORK_ORDERS_TOPIC = "work-orders"
PREDICTIONS_TOPIC = "equipment-failure-predictions"
ALARMS_PARTITIONS = 6  # as demotraffic creates it
OTHER_PARTITIONS = 3
# Topics the backfill creates keep their records for a year: the history is up to 60 days
# old, and the default retention (7 days) would delete a segment once its newest record is.
RETENTION_MS = str(365 * 24 * 3600 * 1000)

DEFAULT_EQUIPMENT = 200
DEFAULT_DAYS = 60
DEFAULT_SEED = 1
DAY_MS = 24 * 3600 * 1000

FAILURE = "FAILURE"
# Alarms per equipment per day, before the equipment's own rate multiplier.
BASE_RATES = {
    "E101-OVERHEAT": 1.0,
    "E202-PRESSURE-LOW": 3.5,
    "E303-VIBRATION": 1.0,
    "W010-MAINTENANCE-DUE": 2.5,
}
FAULT_CODES = tuple(BASE_RATES)
# The planted pattern: extra alarms per day at the peak of a ramp (the day of the failure).
PRECURSOR_PEAK = {"E303-VIBRATION": 3.0, "E101-OVERHEAT": 2.0}
PRECURSOR_CODES = tuple(PRECURSOR_PEAK)
RAMP_DAYS = (7, 14)  # a ramp's length, drawn per failure (inclusive)
FAILURE_HAZARD = 0.025  # chance of a failure on a day, once repaired
REPAIR_DAYS = 10  # no failure within this many days after one
# How a failure shows: a FAILURE alarm and a failure work order; the alarm only; the work
# order only (so labels must take both sources).
FAILURE_KINDS = (("both", 0.8), ("alarm", 0.1), ("work_order", 0.1))
PREVENTIVE_EVERY = (21, 35)  # days between preventive work orders, drawn per equipment
INSPECTION_RATE = 0.05  # inspection work orders per equipment per day
MARKER_KEY = "__backfill__"
MARKER_KIND = "kafka-console-maintenance-backfill"


@dataclass(frozen=True)
class Alarm:
    equipment_id: str
    ts_ms: int
    fault_code: str
    severity: int
    temperature: float
    vibration: float
    pressure: float

    def value(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class WorkOrder:
    work_order_id: str
    equipment_id: str
    ts_ms: int
    type: str  # failure | preventive | inspection

    def value(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class History:
    anchor: date  # the first day after the history (a UTC midnight)
    days: int
    equipment: int
    seed: int
    pattern: bool
    alarms: list[Alarm]
    work_orders: list[WorkOrder]
    # Per equipment, the day indexes (0 = first_day) of its failures and of the ramps' ends.
    failures: dict[str, list[int]] = field(default_factory=dict)
    episodes: dict[str, list[int]] = field(default_factory=dict)

    @property
    def first_day(self) -> date:
        return self.anchor - timedelta(days=self.days)

    @property
    def last_day(self) -> date:
        return self.anchor - timedelta(days=1)


def anchor_for(now: datetime | None = None) -> date:
    """The last UTC midnight at or before `now` (default: now), as a date: the history's
    days are the `days` whole UTC days before it."""
    now = now or datetime.now(UTC)
    return now.astimezone(UTC).date()


def equipment_ids(count: int) -> list[str]:
    return [f"eq-{n:04d}" for n in range(1, count + 1)]


def _day_ms(day: date) -> int:
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def _poisson(rng: random.Random, lam: float) -> int:
    """Knuth's method: exact and reproducible for the small rates used here."""
    if lam <= 0:
        return 0
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def _failure_days(rng: random.Random, days: int) -> list[int]:
    """A renewal process: FAILURE_HAZARD a day, none for REPAIR_DAYS after a failure."""
    out: list[int] = []
    day = 0
    while day < days:
        if rng.random() < FAILURE_HAZARD:
            out.append(day)
            day += REPAIR_DAYS
        else:
            day += 1
    return out


def _pick(rng: random.Random, weighted: Iterable[tuple[str, float]]) -> str:
    r, total = rng.random(), 0.0
    items = list(weighted)
    for name, weight in items:
        total += weight
        if r < total:
            return name
    return items[-1][0]


def _intensity(day: int, ramps: list[tuple[int, int]]) -> float:
    """The precursor intensity of a day: 1 on a ramp's last day (the failure's), falling
    linearly to 1/length on its first; 0 outside every ramp."""
    x = 0.0
    for end, length in ramps:
        before = end - day
        if 0 <= before < length:
            x = max(x, 1.0 - before / length)
    return x


def _equipment_history(
    eq: str, seed: int, days: int, first_ms: int, pattern: bool
) -> tuple[list[Alarm], list[WorkOrder], list[int], list[int]]:
    # One random stream per purpose, so the failures (and the decoys) are the same whether
    # the pattern is planted or not, and the alarm stream is the same given the ramps.
    def stream(name: str) -> random.Random:
        return random.Random(f"{seed}/{eq}/{name}")

    traits = stream("traits")
    rate = traits.lognormvariate(0.0, 0.25)
    temp_base = 62.0 + traits.gauss(0.0, 3.0)
    vib_base = 2.0 + traits.gauss(0.0, 0.3)
    pressure_base = 6.0 + traits.gauss(0.0, 0.5)
    failures = _failure_days(stream("failures"), days)
    decoys = _failure_days(stream("decoys"), days)
    ramp_rng = stream("ramps")
    episodes = failures if pattern else decoys
    ramps = [(day, ramp_rng.randint(*RAMP_DAYS)) for day in episodes]

    rng = stream("alarms")
    alarms: list[Alarm] = []

    def alarm(ts: int, code: str, x: float) -> Alarm:
        temperature = temp_base + rng.gauss(0.0, 4.0) + 10.0 * x
        vibration = vib_base + abs(rng.gauss(0.0, 0.5)) + 3.0 * x
        pressure = pressure_base + rng.gauss(0.0, 0.8)
        severity = {"W010-MAINTENANCE-DUE": 1, "E202-PRESSURE-LOW": 2}.get(code, 3)
        if code == "E101-OVERHEAT":
            temperature += 12.0
        elif code == "E303-VIBRATION":
            vibration += 1.5
        elif code == "E202-PRESSURE-LOW":
            pressure -= 2.0
        if code == FAILURE:
            severity = 5
        elif code in PRECURSOR_PEAK and rng.random() < x:
            severity += 1
        return Alarm(
            eq, ts, code, severity, round(temperature, 2), round(vibration, 3), round(pressure, 3)
        )

    for day in range(days):
        x = _intensity(day, ramps)
        day_ms = first_ms + day * DAY_MS
        for code in FAULT_CODES:
            for _ in range(
                _poisson(rng, BASE_RATES[code] * rate + PRECURSOR_PEAK.get(code, 0) * x)
            ):
                alarms.append(alarm(day_ms + rng.randrange(DAY_MS), code, x))

    orders_rng = stream("work-orders")
    orders: list[WorkOrder] = []

    def order(ts: int, kind: str) -> None:
        orders.append(WorkOrder(f"wo-{seed}-{eq}-{len(orders) + 1:04d}", eq, ts, kind))

    for day in failures:
        # Before 20:00 and the work order within 3 hours: both on the failure's day.
        ts = first_ms + day * DAY_MS + orders_rng.randrange(20 * 3600 * 1000)
        kind = _pick(orders_rng, FAILURE_KINDS)
        if kind in ("both", "alarm"):
            # Its readings are the day's (so the control data has no signal in them either).
            alarms.append(alarm(ts, FAILURE, _intensity(day, ramps)))
        if kind in ("both", "work_order"):
            order(ts + orders_rng.randrange(30, 180) * 60_000, "failure")
    every = orders_rng.randint(*PREVENTIVE_EVERY)
    for day in range(orders_rng.randrange(every), days, every):
        order(first_ms + day * DAY_MS + orders_rng.randrange(6, 16) * 3_600_000, "preventive")
    for day in range(days):
        if orders_rng.random() < INSPECTION_RATE:
            order(first_ms + day * DAY_MS + orders_rng.randrange(DAY_MS), "inspection")
    return alarms, orders, failures, [end for end, _ in ramps]


def generate(
    equipment: int = DEFAULT_EQUIPMENT,
    days: int = DEFAULT_DAYS,
    seed: int = DEFAULT_SEED,
    pattern: bool = True,
    anchor: date | None = None,
) -> History:
    """The whole history, each list in time order; the same for the same arguments."""
    if equipment < 1 or days < 1:
        raise ValueError("equipment and days must be at least 1")
    anchor = anchor or anchor_for()
    first_ms = _day_ms(anchor - timedelta(days=days))
    alarms: list[Alarm] = []
    orders: list[WorkOrder] = []
    failures: dict[str, list[int]] = {}
    episodes: dict[str, list[int]] = {}
    for eq in equipment_ids(equipment):
        a, o, failures[eq], episodes[eq] = _equipment_history(eq, seed, days, first_ms, pattern)
        alarms += a
        orders += o
    alarms.sort(key=lambda a: (a.ts_ms, a.equipment_id, a.fault_code))
    orders.sort(key=lambda o: (o.ts_ms, o.work_order_id))
    return History(anchor, days, equipment, seed, pattern, alarms, orders, failures, episodes)


# --- the backfill -----------------------------------------------------------------------------
class BackfillRefused(Exception):
    """The topics hold something the backfill must not write over or next to."""


@dataclass(frozen=True)
class BackfillResult:
    alarms_topic: str
    work_orders_topic: str
    anchor: date
    first_day: date
    alarms: int  # records written (0 when skipped)
    work_orders: int
    seconds: float
    skipped: bool = False
    reason: str = ""


def marker_value(
    state: str, history: History, alarms_topic: str, work_orders_topic: str
) -> dict[str, Any]:
    """The marker's value: no `equipment_id` and no `type`, so feature and label jobs skip it."""
    return {
        "backfill": {
            "kind": MARKER_KIND,
            "state": state,
            "alarms_topic": alarms_topic,
            "work_orders_topic": work_orders_topic,
            "anchor": history.anchor.isoformat(),
            "first_day": history.first_day.isoformat(),
            "days": history.days,
            "equipment": history.equipment,
            "seed": history.seed,
            "pattern": history.pattern,
            "alarms": len(history.alarms),
            "work_orders": len(history.work_orders),
        }
    }


def earlier_backfill(markers: list[dict[str, Any]], alarms_topic: str) -> dict[str, Any] | None:
    """From the markers found in the work-orders topic (oldest first): the completed backfill
    that makes this one a no-op, or None when there is none. Raises BackfillRefused when an
    earlier backfill started but never completed (its records may be partly written), or
    when the work orders there belong to another alarms topic's history."""
    done = [m for m in markers if m.get("state") == "complete"]
    started = [m for m in markers if m.get("state") == "started"]
    for found in done:
        if found.get("alarms_topic") != alarms_topic:
            raise BackfillRefused(
                f"the work-orders topic already holds the history of alarms topic "
                f"{found.get('alarms_topic')!r}; use another work-orders topic"
            )
    if done:
        return done[-1]
    if started:
        raise BackfillRefused(
            f"an earlier backfill (anchor {started[-1].get('anchor')}) started but did not "
            "complete, so the topics may hold part of a history; delete them or use fresh ones"
        )
    return None


def read_markers(client: ClusterClient, topic: str) -> list[dict[str, Any]]:
    markers = []
    for record in dev.read_topic(client, topic):
        if record.key != MARKER_KEY.encode() or record.value is None:
            continue
        try:
            found = json.loads(record.value)["backfill"]
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(found, dict) and found.get("kind") == MARKER_KIND:
            markers.append(found)
    return markers


def ensure_topics(
    client: ClusterClient, alarms_topic: str, work_orders_topic: str, predictions_topic: str
) -> None:
    """Create what is missing: the alarms topic with 6 partitions, the others with 3; the
    replication factor 3, or the cluster's broker count when it has fewer. The history's
    topics keep their records for RETENTION_MS; predictions get the broker's default."""
    rf = min(3, len(client.describe_cluster().brokers))
    kept = {"retention.ms": RETENTION_MS}
    wanted = [
        (alarms_topic, ALARMS_PARTITIONS, kept),
        (work_orders_topic, OTHER_PARTITIONS, kept),
        (predictions_topic, OTHER_PARTITIONS, {}),
    ]
    missing = [(name, n, rf, cfg) for name, n, cfg in wanted if not client.topic_metadata(name)]
    dev.create_topics(client, missing)
    # A topic that was already there (the live demo creates the alarms topic with the broker's
    # default retention) gets the long retention too, or the history would be deleted.
    created = {name for name, *_ in missing}
    for name in (alarms_topic, work_orders_topic):
        if name not in created:
            client.alter_topic_configs(name, kept, ())


class _Writer:
    """One producer for the whole backfill; `write` returns once every record is written."""

    def __init__(self, client: ClusterClient):
        self.producer = dev.make_producer(
            client,
            **{
                "acks": "all",
                "enable.idempotence": True,  # a retried batch is not written twice
                "linger.ms": 50,
                "compression.type": "lz4",
                "queue.buffering.max.messages": 1_000_000,
                # The Java client's partitioner: a key lands where Spark's Kafka sink puts it.
                "partitioner": "murmur2_random",
            },
        )
        self.failed: list[str] = []

    def _delivered(self, err: Any, _msg: Any) -> None:
        if err is not None:
            self.failed.append(str(err))

    def write(self, records: Iterable[tuple[str, str, dict[str, Any], int]]) -> None:
        """(topic, key, value, timestamp ms) records, in order; raises if any was not written."""
        for topic, key, value, ts in records:
            while True:
                try:
                    self.producer.produce(
                        topic,
                        key=key.encode(),
                        value=json.dumps(value, separators=(",", ":")).encode(),
                        timestamp=ts,
                        on_delivery=self._delivered,
                    )
                    break
                except BufferError:
                    self.producer.poll(0.1)  # the local queue is full: let it drain
            self.producer.poll(0)
        left = self.producer.flush(120)
        if left or self.failed:
            raise RuntimeError(
                f"{left} records not delivered, {len(self.failed)} failed "
                f"(first: {self.failed[:1]})"
            )


def _records(
    history: History,
    alarms_topic: str,
    work_orders_topic: str,
    first: date | None,
    end: date | None,
) -> list[tuple[str, str, dict[str, Any], int]]:
    """The history's alarms and work orders of the days [first, end) (None: unbounded) as
    (topic, key, value, timestamp ms) records, each partition's log in event-time order."""
    low = _day_ms(first) if first is not None else None
    high = _day_ms(end) if end is not None else None

    def inside(ts: int) -> bool:
        return (low is None or ts >= low) and (high is None or ts < high)

    merged = [
        (alarms_topic, a.equipment_id, a.value(), a.ts_ms)
        for a in history.alarms
        if inside(a.ts_ms)
    ]
    merged += [
        (work_orders_topic, o.equipment_id, o.value(), o.ts_ms)
        for o in history.work_orders
        if inside(o.ts_ms)
    ]
    merged.sort(key=lambda r: r[3])
    return merged


def write_days(
    cfg: ClusterConfig,
    history: History,
    alarms_topic: str,
    work_orders_topic: str,
    first: date,
    end: date,
) -> int:
    """Write the history's records of the days [first, end) into the topics (which must
    exist: `ensure_topics`), and return how many: a history that arrives a day at a time, as
    it would in production (the loop's simulation, bench/maintenance_loop.py). No markers:
    the caller owns the topics."""
    records = _records(history, alarms_topic, work_orders_topic, first, end)
    _Writer(for_cluster(cfg)).write(records)
    return len(records)


def backfill(
    cfg: ClusterConfig,
    *,
    alarms_topic: str = ALARMS_TOPIC,
    work_orders_topic: str = WORK_ORDERS_TOPIC,
    predictions_topic: str = PREDICTIONS_TOPIC,
    equipment: int = DEFAULT_EQUIPMENT,
    days: int = DEFAULT_DAYS,
    seed: int = DEFAULT_SEED,
    pattern: bool = True,
    anchor: date | None = None,
) -> BackfillResult:
    """Write the history once: creates the topics if missing, writes nothing when the
    work-orders topic already holds a completed backfill of `alarms_topic`."""
    started = time.monotonic()
    client = for_cluster(cfg)
    # Refused before anything is created; a missing work-orders topic holds no marker.
    found = earlier_backfill(read_markers(client, work_orders_topic), alarms_topic)
    ensure_topics(client, alarms_topic, work_orders_topic, predictions_topic)
    anchor = anchor or anchor_for()
    if found is not None:
        return BackfillResult(
            alarms_topic,
            work_orders_topic,
            date.fromisoformat(found["anchor"]),
            date.fromisoformat(found["first_day"]),
            0,
            0,
            time.monotonic() - started,
            skipped=True,
            reason=f"{work_orders_topic!r} already holds a backfill of {alarms_topic!r} "
            f"(anchor {found['anchor']}, seed {found['seed']}, {found['alarms']} alarms)",
        )
    history = generate(equipment, days, seed, pattern, anchor)
    now_ms = int(time.time() * 1000)

    def marker(state: str) -> tuple[str, str, dict[str, Any], int]:
        value = marker_value(state, history, alarms_topic, work_orders_topic)
        return (work_orders_topic, MARKER_KEY, value, now_ms)

    writer = _Writer(client)
    # Started first and flushed: if the run dies half way, the next one knows and refuses.
    writer.write([marker("started")])
    writer.write(_records(history, alarms_topic, work_orders_topic, None, None))
    writer.write([marker("complete")])
    return BackfillResult(
        alarms_topic,
        work_orders_topic,
        history.anchor,
        history.first_day,
        len(history.alarms),
        len(history.work_orders),
        time.monotonic() - started,
    )
