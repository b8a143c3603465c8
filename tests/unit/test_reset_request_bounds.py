"""Offset-reset requests out of range (durations, datetimes, offsets and shifts past what
Kafka or Python hold, CSV past its limits, a group id too long to store): a 400 naming the
field, no reset stored, no Kafka asked (`no_kafka`).
"""

from __future__ import annotations

import pytest

from console.models import AuditEntry
from groups.models import OffsetReset
from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]

RESETS = "/api/v1/clusters/local/groups/g/offset-resets"


@pytest.mark.parametrize(
    "strategy, field",
    [
        (
            {"type": "by_duration", "duration": "-P1000000000000000000000000000000D"},
            "strategy.duration",
        ),
        (
            {"type": "by_duration", "duration": "PT-99999999999999999999999999S"},
            "strategy.duration",
        ),
        ({"type": "by_duration", "duration": "-P3000000D"}, "strategy.duration"),
        ({"type": "to_datetime", "datetime": "1970-01-01T01:00:00+02:00"}, "strategy.datetime"),
        ({"type": "to_datetime", "datetime": "1970-01-01T00:30:00+01:00"}, "strategy.datetime"),
        ({"type": "to_offset", "offset": 10**30}, "strategy.offset"),
        ({"type": "to_offset", "offset": "1e400"}, "strategy.offset"),
        ({"type": "shift_by", "shift": 2**63}, "strategy.shift"),
        ({"type": "from_file", "csv": "t" * 200_000 + ",0,1"}, "strategy.csv"),
        ({"type": "from_file", "csv": "t\x01x,0,1"}, "strategy.csv"),
        ({"type": "from_file", "csv": "t,0,1\n" * 90_000}, "strategy.csv"),
        ({"type": "to_datetime", "datetime": "1969-12-31T23:59:59Z"}, "strategy.datetime"),
        ({"type": "to_datetime", "datetime": "0001-01-01T00:00:00Z"}, "strategy.datetime"),
        (
            {"type": "by_duration", "duration": "P1000000000000000000000000000000D"},
            "strategy.duration",
        ),
        ({"type": "to_offset", "offset": 2**63}, "strategy.offset"),
        ({"type": "shift_by", "shift": -(2**63) - 1}, "strategy.shift"),
        ({"type": "from_file", "csv": "t,0,1\n" * 100000}, "strategy.csv"),
    ],
    ids=[
        "future-duration-huge",
        "negative-seconds-huge",
        "past-year-9999",
        "before-1970-with-offset",
        "1970-in-utc-but-before",
        "offset-1e30",
        "offset-text-1e400",
        "shift-2-63",
        "csv-field-over-csv-module-limit",
        "csv-topic-control-char",
        "csv-over-512-kib",
        "before-1970",
        "year-1",
        "huge-duration",
        "offset-over-int64",
        "shift-under-int64",
        "huge-csv",
    ],
)
def test_reset_strategies_are_bounded(operator_client, strategy, field):
    body = {"scope": {"all_topics": True}, "strategy": strategy}
    error = assert_error(operator_client.post(RESETS, body, format="json"), 400)
    assert error["details"]["field"] == field, error
    assert not OffsetReset.objects.exists()


def test_a_reset_needs_a_group_id_the_database_can_keep(operator_client):
    url = "/api/v1/clusters/local/groups/" + "g" * 256 + "/offset-resets"
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}}
    error = assert_error(operator_client.post(url, body, format="json"), 400)
    assert error["details"]["field"] == "group"
    assert AuditEntry.objects.get().outcome == "refused"
