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


@pytest.mark.parametrize(
    "expression, fields",
    [
        ("value.amount == 42", {"amount"}),
        ('has(value.tier) && value.customer.id == "c-1"', {"tier", "customer"}),
        ('x.value == 1 && value.k == "value[0]"', {"k"}),  # a field named value; a string
        ('r"""value.z""" == value.q', {"q"}),
        ("value.items.size() > 1", {"items"}),
        ('value["amount"] == 42', None),
        ("value.size() > 2", None),
        ("value == {}", None),
        ('"a" in value', None),
        ("value.exists(k, k == 1)", None),
        ("value.a == 1 // value[0]", None),  # a comment could hide a use: never pruned
        ("value.`odd-name` == 1", None),
    ],
)
def test_the_fields_a_filter_selects(expression, fields):
    from messages.filtering import selected_fields

    found = selected_fields(expression, "value")
    assert (None if found is None else set(found)) == fields


def test_a_pruned_value_judges_every_record_as_the_whole_one_does():
    """Pruning is only an optimisation: the same expressions over the same records, with the
    value pruned to the selected fields and whole, give the same answers (and the same
    errors) on records that have the fields, lack them or hold other types."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from messages.filtering import selected_fields

    expressions = [
        "value.a == 1",
        "has(value.b) && value.b > 2",
        'value.a == 1 || value.c.d == "x"',
        "value.b + value.a > 3",
        "!has(value.c)",
    ]
    scalars = st.one_of(st.none(), st.integers(-5, 5), st.text(max_size=3), st.booleans())
    values = st.one_of(
        scalars,
        st.dictionaries(
            st.sampled_from(["a", "b", "c", "z"]),
            st.one_of(scalars, st.dictionaries(st.sampled_from(["d", "e"]), scalars)),
        ),
    )

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from(expressions), values)
    def check(expression, value):
        pruned, whole = RecordFilter(expression), RecordFilter(expression)
        whole.fields = {"key": None, "value": None}  # the whole value, as before pruning
        assert selected_fields(expression, "value") is not None
        record = variables(0, 0, None, None, value, [])
        assert pruned.matches(record) == whole.matches(record)
        assert (pruned.errors, pruned.first_error) == (whole.errors, whole.first_error)

    check()
