"""The maintenance history generator (devtools/demo/maintenance_history.py), without Kafka:
deterministic, inside its days, the contract's fields, enough failures, a planted pattern that
a single feature already shows, and a control without it."""

from __future__ import annotations

import bisect
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from devtools.demo import maintenance_history as mh

ANCHOR = date(2026, 3, 1)
DAY_MS = 24 * 3600 * 1000


@pytest.fixture(scope="module")
def full() -> dict[bool, mh.History]:
    """The demo's size (200 equipment x 60 days), with and without the pattern."""
    return {p: mh.generate(200, 60, seed=7, pattern=p, anchor=ANCHOR) for p in (True, False)}


def _day(history: mh.History, ts_ms: int) -> int:
    return (
        ts_ms - int(datetime(*history.first_day.timetuple()[:3], tzinfo=UTC).timestamp() * 1000)
    ) // DAY_MS


def _failure_days(history: mh.History) -> dict[str, set[int]]:
    out: dict[str, set[int]] = defaultdict(set)
    for a in history.alarms:
        if a.fault_code == mh.FAILURE:
            out[a.equipment_id].add(_day(history, a.ts_ms))
    for o in history.work_orders:
        if o.type == "failure":
            out[o.equipment_id].add(_day(history, o.ts_ms))
    return out


def _labelled(history: mh.History, horizon: int = 7) -> list[tuple[str, int, int]]:
    """(equipment, day, label) as the failure-labels job defines them, censored days dropped."""
    fails = _failure_days(history)
    first: dict[str, int] = {}
    for a in history.alarms:
        first.setdefault(a.equipment_id, _day(history, a.ts_ms))
    last = history.days - 1
    return [
        (eq, d, int(any(d < f <= d + horizon for f in fails[eq])))
        for eq, start in first.items()
        for d in range(start, last - horizon + 1)
    ]


def _auc(scores: list[float], labels: list[int]) -> float:
    negatives = sorted(s for s, y in zip(scores, labels, strict=True) if not y)
    positives = [s for s, y in zip(scores, labels, strict=True) if y]
    wins = sum(
        bisect.bisect_left(negatives, p)
        + 0.5 * (bisect.bisect_right(negatives, p) - bisect.bisect_left(negatives, p))
        for p in positives
    )
    return wins / (len(positives) * len(negatives))


def _window_score(history: mh.History, code: str, window: int = 7) -> tuple[list, list]:
    counts: dict[tuple[str, int], int] = defaultdict(int)
    for a in history.alarms:
        if a.fault_code == code:
            counts[(a.equipment_id, _day(history, a.ts_ms))] += 1
    scores, labels = [], []
    for eq, d, label in _labelled(history):
        scores.append(sum(counts[(eq, x)] for x in range(d - window + 1, d + 1)))
        labels.append(label)
    return scores, labels


def test_the_same_seed_gives_the_same_history_and_another_seed_another():
    a = mh.generate(5, 10, seed=3, anchor=ANCHOR)
    b = mh.generate(5, 10, seed=3, anchor=ANCHOR)
    c = mh.generate(5, 10, seed=4, anchor=ANCHOR)
    assert a.alarms == b.alarms and a.work_orders == b.work_orders
    assert a.alarms != c.alarms


def test_the_history_is_the_days_before_the_anchor(full):
    history = full[True]
    assert history.first_day == ANCHOR - timedelta(days=60)
    assert history.last_day == date(2026, 2, 28)
    start = int(datetime(2025, 12, 31, tzinfo=UTC).timestamp() * 1000)
    end = int(datetime(2026, 3, 1, tzinfo=UTC).timestamp() * 1000)
    stamps = [a.ts_ms for a in history.alarms] + [o.ts_ms for o in history.work_orders]
    assert start <= min(stamps) and max(stamps) < end
    assert [a.ts_ms for a in history.alarms] == sorted(a.ts_ms for a in history.alarms)
    assert {a.equipment_id for a in history.alarms} == set(mh.equipment_ids(200))
    assert mh.equipment_ids(3) == ["eq-0001", "eq-0002", "eq-0003"]


def test_day_by_day_the_records_are_the_whole_history_once_each():
    # The loop's simulation writes the history a day at a time (write_days): the days'
    # records, joined, are the backfill's, each on its own day and in time order.
    history = mh.generate(4, 12, seed=3, anchor=ANCHOR)
    whole = mh._records(history, "alarms", "orders", None, None)
    days = [history.first_day + timedelta(days=n) for n in range(13)]
    joined = []
    for day, end in zip(days, days[1:], strict=False):
        part = mh._records(history, "alarms", "orders", day, end)
        assert all(mh._day_ms(day) <= ts < mh._day_ms(end) for _, _, _, ts in part)
        assert [ts for *_, ts in part] == sorted(ts for *_, ts in part)
        joined += part
    assert sorted(joined, key=repr) == sorted(whole, key=repr) and len(whole) > 0
    assert {topic for topic, *_ in whole} == {"alarms", "orders"}


def test_the_anchor_is_the_last_utc_midnight():
    assert mh.anchor_for(datetime(2026, 3, 5, 0, 0, tzinfo=UTC)) == date(2026, 3, 5)
    assert mh.anchor_for(datetime(2026, 3, 5, 23, 59, tzinfo=UTC)) == date(2026, 3, 5)
    # 01:00 at +02:00 is 23:00 UTC the day before.
    plus2 = timezone(timedelta(hours=2))
    assert mh.anchor_for(datetime(2026, 3, 6, 1, 0, tzinfo=plus2)) == date(2026, 3, 5)


def test_values_have_the_contract_fields(full):
    history = full[True]
    alarm = history.alarms[0].value()
    assert set(alarm) == {
        "equipment_id",
        "ts_ms",
        "fault_code",
        "severity",
        "temperature",
        "vibration",
        "pressure",
    }
    assert {a.fault_code for a in history.alarms} == {*mh.FAULT_CODES, mh.FAILURE}
    assert all(1 <= a.severity <= 5 for a in history.alarms)
    assert all(a.severity == 5 for a in history.alarms if a.fault_code == mh.FAILURE)
    order = history.work_orders[0].value()
    assert set(order) == {"work_order_id", "equipment_id", "ts_ms", "type"}
    kinds = defaultdict(int)
    for o in history.work_orders:
        kinds[o.type] += 1
    assert set(kinds) == {"failure", "preventive", "inspection"}
    assert len({o.work_order_id for o in history.work_orders}) == len(history.work_orders)


def test_volume_failures_and_positive_share_at_horizon_7(full):
    history = full[True]
    records = len(history.alarms) + len(history.work_orders)
    assert 90_000 <= records <= 150_000, records
    failures = sum(len(v) for v in history.failures.values())
    assert 0.8 <= failures / 200 <= 2.0, failures
    labels = [y for _, _, y in _labelled(history)]
    share = sum(labels) / len(labels)
    assert 0.10 <= share <= 0.20, share


def test_a_failure_shows_as_an_alarm_or_a_work_order_on_its_day(full):
    history = full[True]
    found = _failure_days(history)
    assert {eq: set(days) for eq, days in history.failures.items() if days} == dict(found)
    alarm_days = {
        (a.equipment_id, _day(history, a.ts_ms))
        for a in history.alarms
        if a.fault_code == mh.FAILURE
    }
    order_days = {
        (o.equipment_id, _day(history, o.ts_ms)) for o in history.work_orders if o.type == "failure"
    }
    # Some failures show only one way: labels must take both sources.
    assert alarm_days - order_days and order_days - alarm_days and alarm_days & order_days
    for days in history.failures.values():
        assert all(b - a >= mh.REPAIR_DAYS for a, b in zip(days, days[1:], strict=False))


def test_precursor_codes_and_vibration_rise_before_failures(full):
    history = full[True]
    before = _precursor_days(history)
    rates = _rates(history, before)
    for code in mh.PRECURSOR_CODES:
        assert rates[code] > 1.8, (code, rates)
    for code in set(mh.FAULT_CODES) - set(mh.PRECURSOR_CODES):
        assert 0.85 < rates[code] < 1.15, (code, rates)
    assert rates["vibration"] > 1.5
    for code in mh.PRECURSOR_CODES:
        assert _auc(*_window_score(history, code)) > 0.7


def test_without_the_pattern_volume_and_failures_stay_and_the_signal_goes(full):
    planted, control = full[True], full[False]
    assert control.failures == planted.failures
    assert abs(len(control.alarms) - len(planted.alarms)) < 0.03 * len(planted.alarms)
    assert control.work_orders == planted.work_orders
    rates = _rates(control, _precursor_days(control))
    for name in (*mh.PRECURSOR_CODES, "vibration"):
        assert 0.8 < rates[name] < 1.25, (name, rates)
    for code in mh.PRECURSOR_CODES:
        assert 0.4 < _auc(*_window_score(control, code)) < 0.6


def _precursor_days(history: mh.History) -> set[tuple[str, int]]:
    """The 7 days before each failure (the days labelled 1 at horizon 7)."""
    return {
        (eq, f - k)
        for eq, days in _failure_days(history).items()
        for f in days
        for k in range(1, 8)
    }


def _rates(history: mh.History, before: set[tuple[str, int]]) -> dict[str, float]:
    """Per fault code alarms per equipment-day (and the mean vibration) on the days before a
    failure, over the same elsewhere."""
    inside: dict[str, float] = defaultdict(float)
    outside: dict[str, float] = defaultdict(float)
    vib_in, vib_out = [], []
    for a in history.alarms:
        key = (a.equipment_id, _day(history, a.ts_ms))
        (inside if key in before else outside)[a.fault_code] += 1
        (vib_in if key in before else vib_out).append(a.vibration)
    days_in = len({k for k in before if k[1] >= 0})
    days_out = history.equipment * history.days - days_in
    out = {c: (inside[c] / days_in) / (outside[c] / days_out) for c in mh.FAULT_CODES}
    out["vibration"] = (sum(vib_in) / len(vib_in)) / (sum(vib_out) / len(vib_out))
    return out


# --- idempotence decisions --------------------------------------------------------------------
def _marker(state: str, alarms_topic: str = "alarms") -> dict:
    history = mh.generate(2, 3, seed=1, anchor=ANCHOR)
    return mh.marker_value(state, history, alarms_topic, "orders")["backfill"]


def test_a_completed_backfill_makes_the_next_one_write_nothing():
    assert mh.earlier_backfill([], "alarms") is None
    found = mh.earlier_backfill([_marker("started"), _marker("complete")], "alarms")
    assert found is not None and found["anchor"] == "2026-03-01" and found["seed"] == 1


def test_a_half_written_or_foreign_backfill_is_refused():
    with pytest.raises(mh.BackfillRefused, match="did not complete"):
        mh.earlier_backfill([_marker("started")], "alarms")
    with pytest.raises(mh.BackfillRefused, match="history of alarms topic 'other'"):
        mh.earlier_backfill([_marker("started", "other"), _marker("complete", "other")], "alarms")


def test_the_marker_is_no_work_order_and_no_alarm():
    value = mh.marker_value("complete", mh.generate(2, 3, anchor=ANCHOR), "a", "o")
    assert set(value) == {"backfill"}  # no equipment_id, no type: the jobs skip it
