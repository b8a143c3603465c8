"""The sampler's pause of the cyclic garbage collector (groups.lag.gc_pause)."""

import gc
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from groups.lag import gc_pause


def test_the_collector_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with gc_pause.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """What a block froze is unfrozen after each test (the test process goes on)."""
    yield
    gc.unfreeze()


@contextmanager
def _other_pass() -> Iterator[None]:
    """A pass running in another thread until the block ends."""
    inside, release = threading.Event(), threading.Event()

    def other_pass() -> None:
        with gc_pause.collector_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other_pass)
    thread.start()
    try:
        assert inside.wait(5)
        yield
    finally:
        release.set()
        thread.join(5)


def test_nested_and_overlapping_passes_turn_it_back_on_only_when_the_last_ends():
    with _other_pass():
        with gc_pause.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the other pass still runs
    assert gc.isenabled()


def test_an_error_inside_still_turns_it_back_on():
    try:
        with gc_pause.collector_paused():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    try:
        with gc_pause.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


class _Node:
    """A cycle's link (a weak reference tells whether it was freed)."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> "weakref.ref[_Node]":
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_what_a_pass_leaves_is_frozen_and_a_sweep_frees_its_cycles():
    with gc_pause.collector_paused():
        left = _cycle()  # garbage only the collector can free
    assert gc.get_freeze_count() > 0
    gc.collect()  # a collection skips frozen objects
    assert left() is not None
    assert gc_pause.sweep(every_s=0.0)
    assert left() is None
    assert gc.get_freeze_count() > 0  # the survivors are frozen again


def test_no_sweep_while_a_pass_runs_or_before_it_is_due():
    with _other_pass():
        assert not gc_pause.sweep(every_s=0.0)
    assert gc_pause.sweep(every_s=0.0)
    assert not gc_pause.sweep(every_s=3600.0)  # just swept
