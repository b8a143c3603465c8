"""Reading back an acknowledged change until the broker asked has applied it."""

from __future__ import annotations

import pytest

from console import settle


@pytest.fixture(autouse=True)
def _no_pause(monkeypatch):
    monkeypatch.setattr(settle, "PAUSE_S", 0)


def test_reads_until_the_answer_shows_the_change():
    answers = iter([[], [], ["acl"]])
    calls = []

    def read():
        calls.append(1)
        return next(answers)

    assert settle.read_until(read, bool) == ["acl"]
    assert len(calls) == 3


def test_gives_the_last_answer_after_the_attempts():
    calls = []

    def read():
        calls.append(1)
        return len(calls)

    assert settle.read_until(read, lambda n: False) == settle.ATTEMPTS
    assert len(calls) == settle.ATTEMPTS


def test_a_settled_first_answer_is_read_once():
    calls = []
    assert settle.read_until(lambda: calls.append(1) or "x", lambda a: a == "x") == "x"
    assert calls == [1]
