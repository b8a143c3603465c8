"""A reassignment's progress: partition states, bytes copied, time left (pure)."""

from __future__ import annotations

import pytest

from reassign.progress import CHANGED, DONE, MOVING, REVERTED, copied, partition_state, seconds_left


@pytest.mark.parametrize(
    "moving, now, state",
    [
        (True, [1, 2, 3], MOVING),
        (False, [2, 3], DONE),
        (False, [1, 2], REVERTED),
        (False, [3, 1], CHANGED),
        (False, None, CHANGED),  # the topic is gone
    ],
    ids=["moving", "done", "reverted", "changed", "gone"],
)
def test_partition_states(moving, now, state):
    assert partition_state(moving, now, planned=[2, 3], before=[1, 2]) == state


def test_bytes_copied_are_capped_at_each_new_replicas_share():
    # Two new replicas of a 1,000-byte partition: one half there, one past it (new records).
    assert copied([3, 4], 1000, {3: 500, 4: 1500}, finished=False) == 1500
    assert copied([3, 4], 1000, {3: None}, finished=False) == 0  # not created yet
    assert copied([3, 4], 1000, {}, finished=True) == 2000


def test_time_left_is_the_busiest_brokers_bytes_at_the_throttle():
    assert seconds_left({3: 1000, 4: 5000}, 1000) == 5
    assert seconds_left({3: 1}, 1000) == 1
    assert seconds_left({3: 1000}, None) is None
    assert seconds_left({}, 1000) == 0
