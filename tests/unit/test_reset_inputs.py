import pytest

from console.errors import BadInput
from groups.resets.strategies import (
    export_csv,
    parse_datetime_ms,
    parse_duration_ms,
    parse_offsets_csv,
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-11-21T10:03:12.250Z", 1795255392250),
        ("2026-11-21T10:03:12.250", 1795255392250),  # no zone: UTC, as the CLI assumes
        ("2026-11-21T11:03:12.250+01:00", 1795255392250),
        ("2026-11-21T11:03:12.250+0100", 1795255392250),
        ("2026-11-21T10:03:12Z", 1795255392000),  # the API also accepts no millis
    ],
)
def test_datetimes_are_the_same_instant(text, expected):
    assert parse_datetime_ms(text) == expected


@pytest.mark.parametrize("text", ["", "yesterday", "2026-13-01T00:00:00", "21/11/2026"])
def test_bad_datetimes_name_the_field(text):
    with pytest.raises(BadInput) as err:
        parse_datetime_ms(text)
    assert err.value.field == "strategy.datetime"


@pytest.mark.parametrize(
    "text, ms",
    [
        ("PT15M", 900_000),
        ("P1D", 86_400_000),
        ("PT0.1S", 100),
        ("P2DT3H30M", 185_400_000),
        ("pt6h", 21_600_000),
        ("-PT1H", -3_600_000),
        ("PT0H5M0S", 300_000),
    ],
)
def test_durations_java_grammar(text, ms):
    assert parse_duration_ms(text) == ms


@pytest.mark.parametrize("text", ["P1W", "P1M", "PT", "P", "15m", "", "P1DT"])
def test_durations_the_cli_refuses(text):
    with pytest.raises(BadInput, match="strategy.duration"):
        parse_duration_ms(text)


def test_csv_round_trip_and_group_rows():
    exported = export_csv({("a", 1): 5, ("a", 0): 7, ("b", 0): None})
    assert exported == "a,0,7\na,1,5\n"
    assert parse_offsets_csv(exported, "g") == {("a", 0): 7, ("a", 1): 5}
    four = "g,a,0,1\nother,a,0,9\ng,a,1,2\n"
    assert parse_offsets_csv(four, "g") == {("a", 0): 1, ("a", 1): 2}


@pytest.mark.parametrize(
    "text, line",
    [("a,0\n", 1), ("a,0,1\nb,0\n", 2), ("a,x,1\n", 1), ("a,0,1\na,1,1.5\n", 2), (",0,1", 1)],
)
def test_bad_csv_names_the_line(text, line):
    with pytest.raises(BadInput) as err:
        parse_offsets_csv(text, "g")
    assert err.value.details["line"] == line
    assert f"line {line}" in err.value.message
