"""CEL record filters: what a filter sees, what it refuses, and records it cannot judge."""

from __future__ import annotations

import pytest

from console.errors import BadInput
from messages.filtering import RecordFilter, variables


def _record(value, key="k-1", headers=(("h", "one"), ("h", "two")), ts=1_767_225_600_000):
    return variables(2, 41, ts, key, value, list(headers))


@pytest.mark.parametrize(
    "expression, value, matches",
    [
        (
            'value.customer.id == "c-17" && value.amount > 6000',
            {"customer": {"id": "c-17"}, "amount": 7000},
            True,
        ),
        (
            'value.customer.id == "c-17" && value.amount > 6000',
            {"customer": {"id": "c-17"}, "amount": 10},
            False,
        ),
        ('key.startsWith("k-") && partition == 2 && offset == 41', {}, True),
        ('headers.h == "two"', {}, True),  # the last of duplicate keys, as Java's lastHeader
        ('timestamp < timestamp("2026-01-02T00:00:00Z")', {}, True),
        ("value.missing == 1", {}, False),
        ('value == "plain text"', "plain text", True),
    ],
)
def test_what_a_filter_sees(expression, value, matches):
    assert RecordFilter(expression).matches(_record(value)) is matches


def test_a_record_it_cannot_judge_does_not_match_and_is_counted():
    f = RecordFilter("value.amount > 6000")
    assert f.matches(_record({"amount": "lots"})) is False
    assert f.matches(_record(None)) is False
    assert f.errors == 2 and f.first_error.startswith("No such overload")
    assert f.matches(_record({})) is False  # a missing field: no match, no error
    assert f.errors == 2


@pytest.mark.parametrize(
    "expression, message",
    [
        ("value.a ==", "filter: Syntax error: mismatched input '<EOF>'"),
        ("valeu.a == 1", "filter: unknown name 'valeu'"),
        ("   ", "filter: empty"),
        ("x" * 2001, "filter: at most 2000 characters"),
    ],
)
def test_a_bad_expression_is_refused_naming_the_field(expression, message):
    with pytest.raises(BadInput) as raised:
        RecordFilter(expression)
    assert raised.value.field == "filter" and str(raised.value).startswith(message)


def test_only_the_names_used_are_built():
    assert RecordFilter("offset > 3 && value.a == 1").used == ["value", "offset"]
