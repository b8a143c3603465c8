"""Topic names checked as Kafka checks them (org.apache.kafka.common.internals.Topic)."""

from __future__ import annotations

import pytest

from console.errors import BadInput
from topics.validation import MAX_NAME_LENGTH, check_topic_name


def refused(name: str, existing: tuple[str, ...] = ()) -> BadInput:
    with pytest.raises(BadInput) as err:
        check_topic_name(name, existing)
    assert err.value.field == "name"
    assert err.value.details == {"field": "name"}
    assert err.value.message.startswith("name: ")
    return err.value


@pytest.mark.parametrize(
    "name",
    ["a", "orders", "Orders.v1", "a-b_c.9", "...", "_", "-", "x" * MAX_NAME_LENGTH],
    ids=["one-char", "plain", "dot", "all-legal-kinds", "three-dots", "underscore", "dash", "max"],
)
def test_legal_names_pass(name):
    assert check_topic_name(name) is None


def test_empty_name():
    assert "cannot be empty" in refused("").message


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_and_dot_dot(name):
    assert "cannot be '.' or '..'" in refused(name).message


def test_one_character_over_the_limit():
    assert MAX_NAME_LENGTH == 249
    assert "at most 249 characters" in refused("x" * (MAX_NAME_LENGTH + 1)).message


@pytest.mark.parametrize(
    "name",
    ["a b", "a/b", "a:b", "topic!", "caf\u00e9", "\u0661\u0662", "a\tb", "a,b", "a+b"],
    ids=["space", "slash", "colon", "bang", "non-ascii", "arabic-digits", "tab", "comma", "plus"],
)
def test_illegal_characters_are_named(name):
    message = refused(name).message
    assert repr(name) in message and "ASCII letters" in message


def test_a_trailing_newline_is_refused():
    refused("abc\n")


@pytest.mark.parametrize(
    "name, existing, other",
    [
        ("a.b", ("a_b",), "a_b"),
        ("a_b", ("a.b",), "a.b"),
        ("x.y_z", ("other", "x_y.z"), "x_y.z"),
    ],
)
def test_dot_and_underscore_collide_in_metric_names(name, existing, other):
    message = refused(name, existing).message
    assert f"collides with existing topic {other!r}" in message


@pytest.mark.parametrize(
    "name, existing",
    [
        ("a.b", ("a.b",)),  # the same name is not a collision (the create itself fails later)
        ("a.b", ("a-b", "ab", "a..b")),
        ("ab", ("ab",)),
        ("a_b", ()),
    ],
)
def test_no_collision(name, existing):
    assert check_topic_name(name, existing) is None


def test_existing_may_be_any_iterable_of_names():
    with pytest.raises(BadInput, match="collides"):
        check_topic_name("a.b", {"a_b": object()})  # e.g. a snapshot's topics dict
    with pytest.raises(BadInput, match="collides"):
        check_topic_name("a.b", (n for n in ["a_b"]))
