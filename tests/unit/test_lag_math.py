"""Lag seconds, rates, catch-up time and the worst retention risk (groups.lag.measures),
without Kafka."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groups.lag.measures import (
    LOST,
    NEAR,
    NONE,
    EndHistory,
    catch_up_seconds,
    lag_seconds,
    rate,
    worst_risk,
)


def history(*points: tuple[float, int], limit: int = 60) -> EndHistory:
    h = EndHistory([], limit)
    for at, end in points:
        h.add(at, end)
    return h


# --- EndHistory -------------------------------------------------------------------------


def test_growing_points_are_all_kept_in_order():
    assert history((0, 10), (5, 20), (10, 30)).points == [(0, 10), (5, 20), (10, 30)]


def test_a_flat_run_keeps_its_first_and_latest_point():
    h = history((0, 10), (5, 20), (10, 20), (15, 20), (20, 20))
    assert h.points == [(0, 10), (5, 20), (20, 20)]


def test_growth_after_a_flat_run_appends():
    h = history((0, 10), (5, 20), (10, 20), (15, 20), (20, 25))
    assert h.points == [(0, 10), (5, 20), (15, 20), (20, 25)]


def test_an_idle_producer_does_not_evict_history():
    h = history((0, 10), (5, 20), (10, 30), limit=4)
    for i in range(1000):
        h.add(15 + 5 * i, 30)
    assert h.points == [(0, 10), (5, 20), (10, 30), (15 + 5 * 999, 30)]


def test_over_the_limit_the_oldest_points_go():
    h = history(*[(i, i * 10) for i in range(10)], limit=4)
    assert h.points == [(6, 60), (7, 70), (8, 80), (9, 90)]


def test_a_log_end_going_back_starts_a_new_history():
    """Topic recreated (or truncated): the old points describe another log."""
    h = history((0, 100), (5, 200), (10, 3))
    assert h.points == [(10, 3)]


def test_the_clock_going_back_starts_a_new_history():
    h = history((100, 10), (105, 20), (50, 30))
    assert h.points == [(50, 30)]


def test_the_same_time_again_is_ignored():
    assert history((0, 10), (5, 20), (5, 25)).points == [(0, 10), (5, 20)]


def test_json_round_trip():
    h = history((0.5, 10), (5.5, 20), (10.5, 20), (15.5, 20), limit=7)
    again = EndHistory.from_json(h.to_json(), limit=7)
    assert again == h
    assert h.to_json() == [[0.5, 10], [5.5, 20], [15.5, 20]]


@pytest.mark.parametrize(
    "data,points",
    [
        (None, []),
        ("nope", []),
        ([[0, 1], "x", [1], [2, "y"], [None, 3], [float("nan"), 4], [5, 6]], [(0, 1), (5, 6)]),
        ([[10, 5], [5, 7]], [(5, 7)]),  # out of order: the clock went back
    ],
)
def test_from_json_skips_what_is_not_a_point(data, points):
    assert EndHistory.from_json(data).points == points


def test_from_json_applies_the_limit():
    assert EndHistory.from_json([[i, i] for i in range(10)], limit=3).points == [
        (7, 7),
        (8, 8),
        (9, 9),
    ]


# --- lag_seconds ------------------------------------------------------------------------

BUSY = history((0, 100), (10, 200), (20, 300))


def seconds(lag=50, record_ts_ms=None, committed=150, hist=BUSY, now=30.0):
    return lag_seconds(
        lag=lag, record_ts_ms=record_ts_ms, committed=committed, history=hist, now=now
    )


def test_unknown_lag_is_unknown():
    assert seconds(lag=None, record_ts_ms=1000) == (None, None)


@pytest.mark.parametrize("lag", [0, -5])
def test_no_lag_is_zero_seconds(lag):
    assert seconds(lag=lag, record_ts_ms=1000) == (0.0, "none")


def test_the_record_timestamp_wins():
    assert seconds(record_ts_ms=12_500) == (17.5, "timestamp")


def test_a_future_record_timestamp_falls_back_to_the_history():
    """Producer clock ahead of ours: the history is better than a clamped 0."""
    assert seconds(record_ts_ms=99_000)[1] == "interpolated"


def test_a_future_record_timestamp_without_history_is_zero():
    assert seconds(record_ts_ms=99_000, hist=None) == (0.0, "timestamp")


def test_a_negative_record_timestamp_means_none():
    """-1 is Kafka's "no timestamp" (old message format)."""
    assert seconds(record_ts_ms=-1)[1] == "interpolated"


def test_interpolated_between_the_points_around_the_commit():
    # The log end passed 150 (reached 151) at 0 + (151 - 100) / 100 * 10 = 5.1 s.
    value, method = seconds(committed=150)
    assert method == "interpolated"
    assert value == pytest.approx(30 - 5.1)


def test_interpolated_at_a_point_exactly():
    # The log end reached 200 at 10 s: the record at 199 existed from then.
    value, method = seconds(committed=199)
    assert (method, value) == ("interpolated", pytest.approx(20.0))


@pytest.mark.parametrize("c", [0, 7, 49, 50, 333, 599])
def test_interpolation_is_exact_for_a_steady_producer(c):
    """10 records/s from t=0, sampled every 5 s: record c is appended at (c + 1) / 10 s."""
    h = history(*[(t, 10 * t) for t in range(0, 61, 5)])
    value, method = lag_seconds(lag=600 - c, record_ts_ms=None, committed=c, history=h, now=60)
    assert method == "interpolated"
    assert value == pytest.approx(60 - (c + 1) / 10)


@pytest.mark.parametrize("c", [100, 150, 199])
def test_interpolation_error_is_within_one_interval_for_a_bursty_producer(c):
    """Records 100..199 all written at t=7 (a burst); samples at 5 and 10 bracket it."""
    h = history((0, 100), (5, 100), (10, 200), (15, 200))
    value, _ = lag_seconds(lag=200 - c, record_ts_ms=None, committed=c, history=h, now=15)
    assert value is not None and abs(value - (15 - 7)) <= 5


def test_an_idle_producer_does_not_make_a_lagging_partition_zero_seconds():
    """The producer wrote up to 150 then stopped for 5 minutes; the group sits at 120.

    The log end has been flat the whole time, so a rate-based estimate would say 0 (or
    divide by 0). The history still knows when 120 was passed."""
    h = history((0, 100), (5, 150))
    for t in range(10, 301, 5):
        h.add(t, 150)
    value, method = lag_seconds(lag=30, record_ts_ms=None, committed=120, history=h, now=300)
    assert method == "interpolated"
    assert value == pytest.approx(300 - 21 / 50 * 5)
    # Lag 1 at the very end of the burst: still about 5 minutes old, never 0.
    value, _ = lag_seconds(lag=1, record_ts_ms=None, committed=149, history=h, now=300)
    assert value == pytest.approx(295.0)


def test_an_idle_producer_with_a_bounded_history_keeps_the_answer():
    h = history((0, 100), (5, 150), limit=3)
    for t in range(10, 3601, 5):
        h.add(t, 150)
    value, method = lag_seconds(lag=30, record_ts_ms=None, committed=120, history=h, now=3600)
    assert (method, value) == ("interpolated", pytest.approx(3600 - 2.1))


def test_a_commit_older_than_the_history_is_a_lower_bound():
    value, method = seconds(committed=40, lag=260)
    assert (method, value) == ("lower_bound", 30.0)


def test_a_commit_the_history_has_not_passed_is_unknown():
    """The history lags the lag (it misses the latest log end): no guess."""
    assert seconds(committed=300, lag=5) == (None, None)


@pytest.mark.parametrize("hist", [None, EndHistory([])])
def test_no_history_and_no_timestamp_is_unknown(hist):
    assert seconds(hist=hist) == (None, None)


def test_no_committed_offset_cannot_interpolate():
    assert seconds(committed=None) == (None, None)


def test_a_history_restarted_by_a_recreated_topic_does_not_crash():
    h = history((0, 100), (5, 200), (10, 3), (15, 10))
    value, method = lag_seconds(lag=8, record_ts_ms=None, committed=2, history=h, now=20)
    assert (method, value) == ("lower_bound", 10.0)


# --- rate -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points,expected",
    [
        ([], None),
        ([(0, 10)], None),
        ([(0, 10), (0, 20)], None),  # no time between
        ([(5, 10), (0, 20)], None),  # time going back
        ([(0, 10), (10, 60)], 5.0),
        ([(0, 10), (5, 20), (10, 60)], 5.0),  # first to last, whatever is in between
        ([(0, 10), (5, 10), (10, 10)], 0.0),  # idle
        ([(0, None), (5, 10), (10, None), (15, 30)], 2.0),  # points without a value skipped
        ([(0, None), (5, 10), (10, None)], None),
        ([(0, 100), (5, 50), (10, 60)], 2.0),  # rewind: only what follows it
        ([(0, 100), (5, 200), (10, 50)], None),  # decrease last: nothing after it yet
        ([(0, 100), (5, 50), (10, 60), (15, 5), (20, 25)], 4.0),  # the last decrease counts
    ],
)
def test_rate(points, expected):
    assert rate(points) == expected


def _rate_by_lists(points):
    """The definition, spelled out with lists (rate() does it in one loop)."""
    valued = [(at, v) for at, v in points if v is not None]
    start = max((i for i in range(1, len(valued)) if valued[i][1] < valued[i - 1][1]), default=0)
    valued = valued[start:]
    if len(valued) < 2 or valued[-1][0] <= valued[0][0]:
        return None
    return (valued[-1][1] - valued[0][1]) / (valued[-1][0] - valued[0][0])


@given(
    st.lists(
        st.tuples(st.integers(0, 50).map(float), st.one_of(st.none(), st.integers(0, 30))),
        max_size=12,
    )
)
def test_rate_matches_its_definition(points):
    assert rate(points) == _rate_by_lists(points)


def test_rate_is_never_negative():
    assert rate([(t, 1000 - t) for t in range(10)]) is None


# --- catch_up_seconds -------------------------------------------------------------------


@pytest.mark.parametrize(
    "lag,write,consume,expected",
    [
        (None, 1.0, 2.0, None),
        (0, None, None, 0.0),
        (-3, 5.0, 1.0, 0.0),
        (100, 1.0, 3.0, 50.0),
        (100, 0.0, 4.0, 25.0),  # idle producer
        (100, 3.0, 3.0, None),  # never at these rates
        (100, 5.0, 3.0, None),
        (100, 1.0, 0.0, None),  # stopped consumer
        (100, None, 3.0, None),
        (100, 1.0, None, None),
    ],
)
def test_catch_up_seconds(lag, write, consume, expected):
    assert catch_up_seconds(lag, write, consume) == expected


# --- worst_risk (the rule itself: test_retention_risk.py) -----------------------------


@pytest.mark.parametrize(
    "risks,expected",
    [
        ([], NONE),
        ([NONE, NONE], NONE),
        ([NONE, NEAR], NEAR),
        ([NEAR, LOST, NONE], LOST),
        (["bogus", NEAR], NEAR),
        (["bogus"], NONE),
    ],
)
def test_worst_risk(risks, expected):
    assert worst_risk(risks) == expected
    assert worst_risk(iter(risks)) == expected
