"""The sampler's pause of the cyclic garbage collector (groups.lag.gc_pause)."""

import gc
import threading

from groups.lag import gc_pause


def test_the_collector_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with gc_pause.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_nested_and_overlapping_passes_turn_it_back_on_only_when_the_last_ends():
    inside, release = threading.Event(), threading.Event()

    def other_pass():
        with gc_pause.collector_paused():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other_pass)
    with gc_pause.collector_paused():
        thread.start()
        assert inside.wait(5)
    assert not gc.isenabled()  # the other pass still runs
    release.set()
    thread.join(5)
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
