"""Reading back a change Kafka has acknowledged but not yet applied everywhere.

The controller answers a change (an ACL, a SCRAM credential) once it is committed to the
metadata log; each broker applies it from that log a moment later, so the broker asked next
may still answer the old state. An answer that shows the change reads until it does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# About 3 s: far beyond a healthy cluster's propagation (milliseconds), short enough to answer.
ATTEMPTS = 15
PAUSE_S = 0.2


def read_until(read: Callable[[], T], settled: Callable[[T], bool]) -> T:
    """`read()` until `settled` holds of its answer, at most ATTEMPTS times; the last answer
    either way (a broker further behind catches up by the next read)."""
    for attempt in range(ATTEMPTS):
        answer = read()
        if settled(answer) or attempt + 1 == ATTEMPTS:
            return answer
        time.sleep(PAUSE_S)
    raise AssertionError("unreachable")
