"""Burrow-style partition and group statuses (groups.lag.status), on constructed windows.

Rules, first match wins (docs/live-lag.md, "Status rules"): UNKNOWN with fewer than 3 usable
samples; OK at lag <= 0; REWIND; ERR/STALL/STOP when the commit never moved with lag > 0
throughout; WARN when lag > 0 throughout, never decreasing and growing while committing; OK.
"""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groups.lag import status as lag_status
from groups.lag.status import (
    ERR,
    MIN_SAMPLES,
    OK,
    REWIND,
    SEVERITY,
    STALL,
    STOP,
    UNKNOWN,
    WARN,
    Point,
    group_status,
    partition_status,
    usable,
)

MEMBERS = {"group_has_members": True, "owned": True}


def window(
    committed: list[int | None], log_end: list[int | None], step: float = 5.0
) -> list[Point]:
    """Samples every `step` seconds: committed[i] and log_end[i] at time 1000 + i * step."""
    pairs = zip(committed, log_end, strict=True)
    return [Point(1000 + i * step, c, e) for i, (c, e) in enumerate(pairs)]


def status(committed, log_end, *, group_has_members=True, owned=True) -> str:
    return partition_status(
        window(committed, log_end), group_has_members=group_has_members, owned=owned
    )


# --- usable -----------------------------------------------------------------------------


def test_usable_keeps_a_clean_window_whole():
    points = window([1, 2, 3], [5, 6, 7])
    assert usable(points) == points


def test_usable_drops_everything_before_the_last_gap():
    points = window([10, None, 0, None, 3, 4], [20, 20, 20, 20, 20, 20])
    assert usable(points) == points[4:]


def test_usable_drops_points_with_an_unknown_log_end():
    points = window([1, 2, 3, 4], [5, None, 7, None])
    assert usable(points) == [points[0], points[2]]


def test_usable_with_a_gap_last_is_empty():
    assert usable(window([1, 2, None], [5, 5, 5])) == []


def test_usable_accepts_a_deque():
    points = window([None, 1, 2], [5, 5, 5])
    assert usable(deque(points, maxlen=10)) == points[1:]


# --- 1. UNKNOWN -------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(MIN_SAMPLES))
def test_fewer_than_min_samples_is_unknown(n):
    """A partition just added (or a sampler just started) has no trend yet, even at lag 0."""
    assert status([5] * n, [10] * n) == UNKNOWN
    assert status([5] * n, [5] * n) == UNKNOWN


def test_min_samples_is_enough():
    assert MIN_SAMPLES == 3
    assert status([5, 5, 5], [5, 5, 5]) == OK


def test_points_with_unknown_log_end_do_not_count_towards_min_samples():
    assert status([1, 2, 3, 4], [10, None, None, 12]) == UNKNOWN


def test_a_partition_never_committed_is_unknown():
    assert status([None] * 5, [10, 20, 30, 40, 50]) == UNKNOWN


def test_only_points_after_a_recreation_count():
    """Group deleted and recreated: two samples since, however long the window was before."""
    assert status([50, 50, 50, 50, None, 0, 1], [90] * 7) == UNKNOWN


# --- 2. OK at lag <= 0 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "members,owned", [(True, True), (True, False), (False, False)], ids=["owned", "stop", "empty"]
)
def test_lag_zero_is_ok_even_when_the_commit_never_moves(members, owned):
    """An idle topic whose consumers have read everything is healthy, with or without them."""
    assert status([7] * 10, [7] * 10, group_has_members=members, owned=owned) == OK


def test_lag_zero_at_the_end_is_ok_after_growing_lag():
    assert status([0, 10, 20, 40], [10, 25, 40, 40]) == OK


def test_lag_zero_wins_over_a_rewind():
    """A reset backwards to a point the log end also went back to (recreated topic)."""
    assert status([100, 100, 5], [100, 100, 5]) == OK


def test_negative_lag_after_topic_recreation_is_ok():
    """The topic was recreated: the log end fell below the commit. No crash, nothing to read."""
    assert status([100, 100, 100, 100], [120, 120, 3, 4]) == OK


# --- 3. REWIND --------------------------------------------------------------------------


def test_a_commit_below_its_predecessor_that_stays_below_is_rewind():
    assert status([100, 110, 50, 55, 60], [200, 210, 220, 230, 240]) == REWIND


def test_a_reset_backwards_by_a_few_records_on_an_idle_group_is_rewind():
    """The integration scenario: the group is Empty and an operator shifts it by -5."""
    w = ([40, 40, 40, 35, 35], [40, 40, 40, 40, 40])
    assert status(*w, group_has_members=False, owned=False) == REWIND


def test_rewind_wins_over_stuck():
    """After the reset the commit does not move: still REWIND while the reset is in view."""
    assert status([100, 50, 50, 50], [200] * 4, group_has_members=False, owned=False) == REWIND


@pytest.mark.parametrize(
    "committed",
    [[100, 50, 80, 100, 120], [100, 50, 100, 100], [100, 50, 150, 160]],
    ids=["passes", "reaches exactly", "jumps past"],
)
def test_a_rewind_that_recovers_is_not_rewind(committed):
    n = len(committed)
    result = status(committed, [300 + 10 * i for i in range(n)])
    assert result != REWIND


def test_a_rewind_then_recover_ends_in_the_usual_status():
    # Recovered, then the lag grows monotonically while committing: WARN.
    assert status([100, 50, 100, 101, 102], [150, 160, 220, 230, 240]) == WARN


def test_a_second_rewind_after_a_recovery_is_rewind():
    assert status([100, 50, 100, 120, 90], [200] * 5) == REWIND


def test_a_rewind_that_left_the_window_is_forgotten():
    """The window only holds its last samples: once the drop is out of it, no REWIND."""
    assert status([50, 51, 52, 53], [100, 102, 104, 106]) == WARN


def test_a_recreated_group_at_a_lower_offset_is_not_rewind():
    """A gap (no committed offset) separates two lives of the group: no comparison across."""
    assert status([100, 110, None, 0, 1, 2], [200, 201, 202, 203, 205, 207]) == WARN


# --- 4. ERR / STALL / STOP --------------------------------------------------------------


@pytest.mark.parametrize(
    "members,owned,expected",
    [(False, False, ERR), (True, True, STALL), (True, False, STOP)],
    ids=["no members: ERR", "owned: STALL", "members, not owned: STOP"],
)
def test_a_commit_that_never_moves_with_lag(members, owned, expected):
    w = ([40] * 10, [50 + 10 * i for i in range(10)])
    assert status(*w, group_has_members=members, owned=owned) == expected


def test_the_consumer_stopped_while_the_producer_writes_is_err():
    """The integration scenario: the group goes Empty, the producer keeps writing."""
    w = ([400] * 10, [400 + 40 * 5 * (i + 1) for i in range(10)])
    assert status(*w, group_has_members=False, owned=False) == ERR


def test_stuck_with_a_flat_log_end_too():
    """Lag > 0 and constant with no commit movement: stuck, whatever the producer does."""
    assert status([40] * 4, [90] * 4) == STALL


def test_stuck_needs_lag_in_every_sample():
    """The lag was 0 at the start of the window: not yet stuck, and not WARN (not > 0)."""
    assert status([40, 40, 40, 40], [40, 50, 60, 70]) == OK


def test_stuck_with_the_log_end_going_back_does_not_crash():
    """A log end decrease (recreated topic, unclean election) is just another sample."""
    assert status([10, 10, 10], [100, 100, 50], group_has_members=False, owned=False) == ERR


def test_stuck_counts_only_usable_points():
    """The commit moved before the gap; after it, three identical commits with lag: stuck."""
    w = ([1, 5, None, 8, 8, 8], [20] * 6)
    assert status(*w, group_has_members=True, owned=False) == STOP


# --- 5. WARN ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "committed,log_end",
    [
        ([0, 10, 20, 30], [50, 70, 90, 110]),  # strictly growing lag
        ([0, 10, 20, 30], [50, 60, 80, 90]),  # plateau then growth
        ([0, 0, 10, 20], [10, 20, 40, 60]),  # commit idle for one interval only
    ],
)
def test_a_growing_lag_while_committing_is_warn(committed, log_end):
    assert status(committed, log_end) == WARN


def test_warn_whatever_the_membership():
    """WARN is about the trend; membership only splits the stuck case."""
    w = ([0, 10, 20], [50, 70, 90])
    assert status(*w, group_has_members=False, owned=False) == WARN


def test_warn_skips_points_with_unknown_log_end():
    assert status([0, 5, 10, 15, 20], [50, None, 70, None, 90]) == WARN


def test_an_unknown_log_end_at_the_end_uses_the_last_known_one():
    assert status([0, 10, 20, 25], [50, 70, 90, None]) == WARN


# --- 6. OK otherwise --------------------------------------------------------------------


@pytest.mark.parametrize(
    "committed,log_end",
    [
        ([0, 20, 40, 60], [50, 60, 70, 80]),  # shrinking lag: catching up
        ([0, 10, 20, 30], [50, 60, 70, 80]),  # constant lag while committing
        ([0, 10, 20, 30], [50, 70, 65, 90]),  # lag decreased once
        ([0, 10, 20, 30], [50, 65, 80, 80]),  # ends where it started (50, 55, 60, 50)
        ([0, 10, 20, 30], [50, 70, 90, 70]),  # growth then drop below the start
    ],
)
def test_lag_that_is_not_growing_is_ok(committed, log_end):
    assert status(committed, log_end) == OK


def test_log_end_forward_jump_with_commits_following_is_not_a_problem():
    """Retention only moves the log start, which plays no part here; a burst of writes the
    consumer absorbs (lag shrinks at the end) stays OK."""
    assert status([0, 10, 500, 1000], [10, 1000, 1000, 1005]) == OK


# --- group_status -----------------------------------------------------------------------


def test_severity_order():
    ordered = sorted([REWIND, OK, ERR, WARN, STOP, STALL], key=SEVERITY.__getitem__)
    assert ordered == [OK, WARN, STALL, STOP, ERR, REWIND]
    assert SEVERITY[UNKNOWN] < SEVERITY[OK]


@pytest.mark.parametrize(
    "statuses,expected",
    [
        ([OK, WARN, OK], WARN),
        ([WARN, STALL], STALL),
        ([STALL, STOP], STOP),
        ([STOP, ERR, WARN], ERR),
        ([ERR, REWIND, OK], REWIND),
        ([OK, UNKNOWN], OK),  # a partition just added does not hide the others' status
        ([UNKNOWN, WARN, UNKNOWN], WARN),
        ([UNKNOWN, UNKNOWN], UNKNOWN),
        ([], UNKNOWN),
        (["bogus", OK], OK),
        (["bogus"], UNKNOWN),
    ],
)
def test_group_status_is_the_worst_known(statuses, expected):
    assert group_status(statuses) == expected


def test_group_status_takes_a_generator():
    assert group_status(s for s in [OK, STOP]) == STOP


# --- the fast checks agree with the rules spelled out -----------------------------------------


def _rewound_by_definition(offsets):
    return any(
        offsets[i] < offsets[i - 1] and all(o < offsets[i - 1] for o in offsets[i + 1 :])
        for i in range(1, len(offsets))
    )


def _falling_behind_by_definition(offsets, lags):
    return (
        all(lag > 0 for lag in lags)
        and all(b >= a for a, b in zip(lags, lags[1:], strict=False))
        and lags[-1] > lags[0]
        and len(set(offsets)) > 1
    )


_OFFSETS = st.lists(st.integers(0, 6), min_size=1, max_size=10)


@given(_OFFSETS)
def test_rewound_matches_its_definition(offsets):
    assert lag_status._rewound(offsets) == _rewound_by_definition(offsets)


@given(_OFFSETS, st.lists(st.integers(-2, 6), min_size=1, max_size=10))
def test_falling_behind_matches_its_definition(offsets, lags):
    assert lag_status._falling_behind(offsets, lags) == _falling_behind_by_definition(offsets, lags)
