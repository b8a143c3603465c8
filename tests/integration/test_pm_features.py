"""The maintenance history and its two feature jobs end to end: the backfill
(devtools/demo/maintenance_history.py) into fresh topics of the dev stack, then
`window-features` and `failure-labels` submitted to a real console (daphne, its own SQLite)
and run by the Procfile's Celery worker with real Spark (local[2]).

Every figure is checked against a plain-Python computation over the same records, read back
from the topics with confluent-kafka (`console.kafka.dev.read_topic`). The alarms topic also
holds a few live records written before the backfill (like `demotraffic`'s, with the current
time), so the backfill's old timestamps come after newer ones in the log: the time-bounded
job must still find them.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pyarrow.parquet as pq
import pytest

from console.clusters import get_cluster
from console.kafka import dev
from devtools.demo import maintenance_history as mh
from tests.spark_helpers import maintenance_topic_names, start_spark_console
from tests.stack import cluster_client, log_ends

pytestmark = pytest.mark.integration

# test_spark_jobs 11, test_spark_standalone 12, test_pm_pipeline 13 (+14), test_pm_model 15
CELERY_DB = 10
EQUIPMENT, DAYS, SEED = 30, 40, 5
CODES = ["E101-OVERHEAT", "E303-VIBRATION"]  # the job's default fault codes
SENSORS = ["vibration", "temperature", "pressure"]
WINDOWS = [7, 14, 21]
HORIZON = 7
CHECKED = 5  # equipment whose every feature value is compared
JOB_TIMEOUT = 180


def _slug(code: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in code.lower())


def _columns(windows: list[int]) -> list[str]:
    out = []
    for w in windows:
        out += [f"count_{_slug(c)}_{w}d" for c in CODES]
        out.append(f"severity_sum_{w}d")
        out += [f"max_{s}_{w}d" for s in SENSORS]
    return out


def _day(ts_ms: int) -> date:
    return datetime.fromtimestamp(ts_ms / 1000, UTC).date()


def _iso(day: date, hour: int = 0) -> str:
    return f"{day.isoformat()}T{hour:02d}:00:00Z"


def _events(topic: str, start_ms: int | None = None, end_ms: int | None = None) -> list[dict]:
    """The topic's JSON values with an equipment id (markers and junk skipped), each with the
    UTC day of its record timestamp; only those with a timestamp in [start, end)."""
    out = []
    for record in dev.read_topic(cluster_client(), topic):
        ts = record.timestamp_ms
        assert ts is not None
        if (start_ms is not None and ts < start_ms) or (end_ms is not None and ts >= end_ms):
            continue
        try:
            value = json.loads(record.value or b"")
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("equipment_id"):
            out.append({**value, "day": _day(ts)})
    return out


def expected_features(alarms: list[dict], windows: list[int]) -> dict[tuple[str, date], list]:
    """{(equipment, day): the feature values in column order}, the grid from each equipment's
    first alarm day to the last day of any alarm."""
    first: dict[str, date] = {}
    daily: dict[tuple[str, date], list[dict]] = defaultdict(list)
    for a in alarms:
        first[a["equipment_id"]] = min(first.get(a["equipment_id"], a["day"]), a["day"])
        daily[(a["equipment_id"], a["day"])].append(a)
    last = max(a["day"] for a in alarms)
    out = {}
    for eq, start in first.items():
        for n in range((last - start).days + 1):
            day = start + timedelta(days=n)
            row: list[Any] = []
            for w in windows:
                inside = [a for k in range(w) for a in daily.get((eq, day - timedelta(days=k)), [])]
                row += [sum(1 for a in inside if a["fault_code"] == c) for c in CODES]
                row.append(sum(a.get("severity") or 0 for a in inside))
                for s in SENSORS:
                    readings = [a[s] for a in inside if a.get(s) is not None]
                    row.append(max(readings) if readings else 0.0)
            out[(eq, day)] = row
    return out


def expected_labels(
    alarms: list[dict], orders: list[dict], horizon: int
) -> tuple[dict[tuple[str, date], int], int]:
    """({(equipment, day): label} without censored days, censored days)."""
    failed = {(a["equipment_id"], a["day"]) for a in alarms if a["fault_code"] == "FAILURE"}
    failed |= {(o["equipment_id"], o["day"]) for o in orders if o.get("type") == "failure"}
    first: dict[str, date] = {}
    for a in alarms:
        first[a["equipment_id"]] = min(first.get(a["equipment_id"], a["day"]), a["day"])
    last = max(a["day"] for a in alarms)
    labels, censored = {}, 0
    for eq, start in first.items():
        for n in range((last - start).days + 1):
            day = start + timedelta(days=n)
            if day + timedelta(days=horizon) > last:
                censored += 1
                continue
            ahead = (day + timedelta(days=k) for k in range(1, horizon + 1))
            labels[(eq, day)] = int(any((eq, d) in failed for d in ahead))
    return labels, censored


def _table(path: str) -> list[dict]:
    return pq.read_table(path).to_pylist()


@pytest.fixture(scope="module")
def history(stack) -> dict[str, Any]:
    """A small backfill into fresh topics, after a few live records with the current time."""
    client = cluster_client()
    topics = maintenance_topic_names()
    dev.create_topics(client, [(topics["alarms"], mh.ALARMS_PARTITIONS, 3, {})])
    log_ends(client, [(topics["alarms"], p) for p in range(mh.ALARMS_PARTITIONS)])
    producer = dev.make_producer(client, acks="all")
    now_ms = int(time.time() * 1000)
    for i in range(12):  # demotraffic's shape: other fields, no vibration, no severity
        live = {
            "equipment_id": f"pump-{i % 3 + 1:02d}",
            "fault_code": CODES[i % 2],
            "temperature_c": 70.0 + i,
            "ts_ms": now_ms,
        }
        producer.produce(topics["alarms"], key=live["equipment_id"], value=json.dumps(live))
    producer.produce(topics["alarms"], key=b"junk", value=b"not json")
    assert producer.flush(30) == 0

    started = time.monotonic()
    kwargs = {
        "alarms_topic": topics["alarms"],
        "work_orders_topic": topics["work_orders"],
        "predictions_topic": topics["predictions"],
        "equipment": EQUIPMENT,
        "days": DAYS,
        "seed": SEED,
    }
    first = mh.backfill(get_cluster("local"), **kwargs)
    seconds = time.monotonic() - started
    partitions = [(topics["alarms"], p) for p in range(mh.ALARMS_PARTITIONS)]
    partitions += [(topics["work_orders"], p) for p in range(mh.OTHER_PARTITIONS)]
    ends = log_ends(client, partitions)
    again = mh.backfill(get_cluster("local"), **kwargs)
    return {
        **topics,
        "first": first,
        "again": again,
        "seconds": seconds,
        "ends": ends,
        "ends_again": log_ends(client, partitions),
    }


@pytest.fixture(scope="module")
def records(history) -> dict[str, list[dict]]:
    return {"alarms": _events(history["alarms"]), "orders": _events(history["work_orders"])}


@pytest.fixture(scope="module")
def console(stack, tmp_path_factory, history) -> Any:
    c = start_spark_console(
        tmp_path_factory.mktemp("pm-features"), stack["redis_url"], CELERY_DB, "local[2]"
    )
    anchor = history["first"].anchor
    # Submitted at once: they run while the other tests check the backfill.
    c.started = {
        "features": c.submit("window-features", {"alarms_topic": history["alarms"]}),
        "labels": c.submit(
            "failure-labels",
            {"alarms_topic": history["alarms"], "work_orders_topic": history["work_orders"]},
        ),
        # Ten and a half days in, to the anchor (the live records of today are left out).
        "bounded": c.submit(
            "window-features",
            {
                "alarms_topic": history["alarms"],
                "windows": [3],
                "start_time": _iso(anchor - timedelta(days=DAYS - 10), 12),
                "end_time": _iso(anchor),
            },
        ),
    }
    yield c
    c.stop()


def test_the_backfill_writes_the_history_once(history, records):
    first, again = history["first"], history["again"]
    assert not first.skipped and first.alarms > 0 and first.work_orders > 0
    assert first.anchor == mh.anchor_for() or first.anchor == mh.anchor_for() - timedelta(days=1)
    assert first.first_day == first.anchor - timedelta(days=DAYS)
    assert history["seconds"] < 30
    # The second run wrote nothing, not even a marker.
    assert again.skipped and (again.alarms, again.work_orders) == (0, 0), again
    assert again.anchor == first.anchor
    assert history["ends_again"] == history["ends"]
    alarms_written = sum(v for (t, _), v in history["ends"].items() if t == history["alarms"])
    assert alarms_written == first.alarms + 12 + 1  # + the live records and the junk one
    orders_written = sum(v for (t, _), v in history["ends"].items() if t != history["alarms"])
    assert orders_written == first.work_orders + 2  # + the started and complete markers
    # Read back: the record time is the event time, inside the history's days.
    backfilled = [a for a in records["alarms"] if a["equipment_id"].startswith("eq-")]
    assert len(backfilled) == first.alarms
    assert all(a["day"] == _day(a["ts_ms"]) for a in backfilled)
    assert {a["day"] for a in backfilled} <= {
        first.first_day + timedelta(days=n) for n in range(DAYS)
    }
    assert {a["equipment_id"] for a in backfilled} == set(mh.equipment_ids(EQUIPMENT))
    # The same history the generator makes for that anchor.
    expected = mh.generate(EQUIPMENT, DAYS, SEED, anchor=first.anchor)
    assert sorted(json.dumps(a.value(), sort_keys=True) for a in expected.alarms) == sorted(
        json.dumps({k: v for k, v in a.items() if k != "day"}, sort_keys=True) for a in backfilled
    )


def _bad_features(params: dict[str, Any], field: str, case_id: str) -> Any:
    """window-features on the backfill's alarms topic with `params`, refused naming `field`."""
    return pytest.param(
        "window-features",
        lambda alarms, orders: {"alarms_topic": alarms, **params},
        field,
        id=case_id,
    )


def _bad_labels(params: dict[str, Any], field: str, case_id: str) -> Any:
    """failure-labels on the backfill's two topics with `params`, refused naming `field`."""
    return pytest.param(
        "failure-labels",
        lambda alarms, orders: {"alarms_topic": alarms, "work_orders_topic": orders, **params},
        field,
        id=case_id,
    )


# Each case: the job type, its params from the backfill's alarms and work orders topics, and
# the field its 400 names.
BAD_PARAMS = [
    _bad_features({"windows": [7, 7]}, "params.windows", "features-windows-repeated"),
    _bad_features({"windows": [14, 7]}, "params.windows", "features-windows-out-of-order"),
    _bad_features({"windows": [0]}, "params.windows[0]", "features-zero-window"),
    _bad_features(
        {"alarms_topic": "no-such-alarms-pm"},
        "params.alarms_topic",
        "features-unknown-alarms-topic",
    ),
    _bad_features(
        {"fault_codes": ["E101-OVERHEAT", "e101 overheat"]},
        "params.fault_codes",
        "features-fault-codes-same-column",
    ),
    _bad_features({"sensors": ["severity"]}, "params.sensors", "features-severity-as-sensor"),
    _bad_features(
        {"start_time": "2026-01-02T00:00:00Z", "end_time": "2026-01-01T00:00:00Z"},
        "params.end_time",
        "features-end-before-start",
    ),
    _bad_features({"start_time": "soon"}, "params.start_time", "features-start-not-a-time"),
    pytest.param(
        "window-features",
        lambda alarms, orders: {"alarms_topic": alarms, "topic": alarms},
        "params.topic",
        id="features-unknown-param",
    ),
    _bad_labels({"horizon_days": 0}, "params.horizon_days", "labels-zero-horizon"),
    _bad_labels({"horizon_days": -3}, "params.horizon_days", "labels-negative-horizon"),
    _bad_labels(
        {"work_orders_topic": "no-such-orders-pm"},
        "params.work_orders_topic",
        "labels-unknown-work-orders-topic",
    ),
]


@pytest.mark.parametrize("job_type, params, field", BAD_PARAMS)
def test_bad_params_are_400_naming_the_field_and_queue_nothing(
    console, history, job_type, params, field
):
    before = console.job_count()
    filled = params(history["alarms"], history["work_orders"])
    status, answer = console.call(
        "POST", "spark/jobs", {"job_type": job_type, "cluster": "local", "params": filled}
    )
    assert status == 400, (job_type, filled, answer)
    assert answer["error"]["details"]["field"] == field, (filled, answer)
    assert answer["error"]["message"].startswith(field)
    assert console.job_count() == before


def test_window_features_match_a_plain_python_computation(console, history, records):
    job = console.wait(console.started["features"]["id"], {"succeeded", "failed"}, JOB_TIMEOUT)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    result = job["result"]
    columns = _columns(WINDOWS)
    expected = expected_features(records["alarms"], WINDOWS)
    today = max(a["day"] for a in records["alarms"])  # the live records' day
    assert result["feature_columns"] == columns
    assert result["rows"] == len(expected)
    assert result["equipment"] == EQUIPMENT + 3  # + pump-01..03 of the live records
    assert result["first_day"] == history["first"].first_day.isoformat()
    assert result["last_day"] == today.isoformat()
    assert result["sample"]["columns"] == ["equipment_id", "day", *columns]
    assert all(row[1] == today.isoformat() for row in result["sample"]["rows"])

    rows = _table(result["output_path"])
    assert list(rows[0]) == ["equipment_id", "day", *columns]
    got = {(r["equipment_id"], r["day"]): [r[c] for c in columns] for r in rows}
    assert set(got) == set(expected)
    # Five equipment with failures (the pattern's rises are in their rows), every value.
    failing = sorted({a["equipment_id"] for a in records["alarms"] if a["fault_code"] == "FAILURE"})
    assert len(failing) >= CHECKED
    for eq in failing[:CHECKED]:
        for key in (k for k in expected if k[0] == eq):
            assert got[key] == pytest.approx(expected[key]), key
    # Every count and sum everywhere (exact integers), and the live pump's missing readings.
    counts = [i for i, c in enumerate(columns) if not c.startswith("max_")]
    assert all([got[k][i] for i in counts] == [v[i] for i in counts] for k, v in expected.items())
    pump = got[("pump-01", today)]
    assert pump[columns.index("max_vibration_7d")] == 0.0
    assert pump[columns.index("severity_sum_7d")] == 0


def test_failure_labels_match_a_plain_python_computation(console, history, records):
    job = console.wait(console.started["labels"]["id"], {"succeeded", "failed"}, JOB_TIMEOUT)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    result = job["result"]
    expected, censored = expected_labels(records["alarms"], records["orders"], HORIZON)
    positives = sum(expected.values())
    assert 0.05 < positives / len(expected) < 0.30  # the history has failures to learn
    assert result == {
        "rows": len(expected),
        "positives": positives,
        "negatives": len(expected) - positives,
        "censored_dropped": censored,
        "horizon_days": HORIZON,
        "last_day": max(a["day"] for a in records["alarms"]).isoformat(),
        "output_path": result["output_path"],
    }
    rows = _table(result["output_path"])
    assert list(rows[0]) == ["equipment_id", "day", "label"]
    got = {(r["equipment_id"], r["day"]): r["label"] for r in rows}
    assert got == expected
    # A failure only a work order shows still labels the days before it.
    only_orders = {
        (o["equipment_id"], o["day"]) for o in records["orders"] if o.get("type") == "failure"
    } - {(a["equipment_id"], a["day"]) for a in records["alarms"] if a["fault_code"] == "FAILURE"}
    labelled = [(eq, d - timedelta(days=1)) for eq, d in only_orders]
    assert any(got.get(k) == 1 for k in labelled)


def test_time_bounds_cut_the_alarms_exactly(console, history):
    job = console.wait(console.started["bounded"]["id"], {"succeeded", "failed"}, JOB_TIMEOUT)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    result = job["result"]
    anchor = history["first"].anchor
    start = datetime.combine(anchor - timedelta(days=DAYS - 10), datetime.min.time(), UTC)
    start_ms = int(start.timestamp() * 1000) + 12 * 3600 * 1000
    end_ms = int(datetime.combine(anchor, datetime.min.time(), UTC).timestamp() * 1000)
    alarms = _events(history["alarms"], start_ms, end_ms)
    expected = expected_features(alarms, [3])
    assert result["first_day"] == (anchor - timedelta(days=DAYS - 10)).isoformat()
    assert result["last_day"] == (anchor - timedelta(days=1)).isoformat()
    assert result["equipment"] == EQUIPMENT  # the live pumps are after the end
    got = {
        (r["equipment_id"], r["day"]): [r[c] for c in _columns([3])]
        for r in _table(result["output_path"])
    }
    assert set(got) == set(expected)
    for key, values in expected.items():
        assert got[key] == pytest.approx(values), key
