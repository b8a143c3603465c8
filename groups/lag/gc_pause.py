"""Python's cyclic garbage collector held off while a sampling pass runs.

A pass allocates hundreds of thousands of short-lived objects while the sampler holds a few
million long-lived ones (windows, histories, the previous evaluations). Each allocation burst
can set off a full collection that walks all of them: at 20,000 partitions that made storing
the windows take 0.48 s instead of 0.06 s. Reference counting still frees a pass's garbage at
once; only cycles wait.

What a pass leaves alive is nearly all long-lived state (this pass's evaluations, the kept
rows, the new window points), so it is frozen when the pass ends (`gc.freeze()`): turned back
on, the collector would otherwise walk all of it at once (a young-generation collection of
15-25 ms at 2,000 groups x 40,000 partitions, right after every pass) and then again in each
older generation (50-120 ms a few times a minute). The few cycles a pass leaves as garbage
(about 135 objects) are freed by `sweep`, a full collection between passes every few minutes.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

SWEEP_EVERY_S = 300.0  # how long cycles left by passes may wait for the collector

_lock = threading.Lock()
_depth = 0  # passes running now (one thread per cluster)
_reenable = False  # whether the collector was on when the first of them started
_last_sweep = time.monotonic()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the collector off; the last block to end freezes what is alive and
    turns the collector back on (unless it was off before the first one started)."""
    global _depth, _reenable
    with _lock:
        if _depth == 0:
            _reenable = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _reenable:
                gc.freeze()
                gc.enable()


def sweep(every_s: float = SWEEP_EVERY_S) -> bool:
    """Collect everything once, frozen objects too, when the last sweep is older than
    `every_s` and no pass runs (a pass starting meanwhile waits for it); what survives is
    frozen again. Whether it swept."""
    global _last_sweep
    with _lock:
        if _depth or time.monotonic() - _last_sweep < every_s or not gc.isenabled():
            return False
        started = time.monotonic()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        _last_sweep = time.monotonic()
        log.debug("swept: %d objects freed in %.3f s", freed, _last_sweep - started)
        return True
