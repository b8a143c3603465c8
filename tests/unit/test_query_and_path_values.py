"""Query-string and path values: a bad one (not a number, out of range, a control
character, a time without a zone or outside the years Python holds, a name longer than Kafka
carries) is a 400 naming the parameter, before any Kafka call (`no_kafka`).
"""

from __future__ import annotations

import pytest

from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]


@pytest.mark.parametrize(
    "url, field",
    [
        ("/api/v1/audit?limit=%C2%B2", "limit"),  # "²": isdigit() but not a number
        ("/api/v1/audit?before_id=%C2%B2", "before_id"),
        ("/api/v1/audit?limit=" + "9" * 5000, "limit"),
        ("/api/v1/audit?limit=%EF%BC%95", "limit"),  # a fullwidth 5
        ("/api/v1/audit?limit=1001", "limit"),
        ("/api/v1/audit?before_id=9223372036854775808", "before_id"),
        ("/api/v1/audit?since=9999-12-31T23:59:59-23:59", "since"),
        ("/api/v1/audit?since=0001-01-01T00:00:00%2B01:00", "since"),
        ("/api/v1/audit?since=2026-01-01T00:00:00", "since"),
        ("/api/v1/audit?actor=a%00b", "actor"),
        ("/api/v1/audit?action=x%0D%0Ay", "action"),
        ("/api/v1/clusters/local/topics?search=a%09b", "search"),
        ("/api/v1/clusters/local/topics?include_internal=yes", "include_internal"),
        ("/api/v1/clusters/local/topics?include_internal=TRUE%00", "include_internal"),
        ("/api/v1/offset-resets/99999999999999999999", "reset_id"),
        ("/api/v1/clusters/local/groups/" + "N" * 32_768, "group"),
        ("/api/v1/clusters/local/groups/" + "%C3%A9" * 16_384 + "/offsets.csv", "group"),
        ("/api/v1/clusters/local/groups/a%0Ab/offset-resets", "group"),
        ("/api/v1/clusters/local/topics/t%7F", "topic"),
        ("/api/v1/clusters/lo%00cal/brokers", "cluster"),
        ("/api/v1/clusters/local/groups/%00", "group"),
        ("/api/v1/clusters/local/groups/a%09b/offsets.csv", "group"),
        ("/api/v1/clusters/local/topics?include_internal=maybe", "include_internal"),
        ("/api/v1/audit?limit=-1", "limit"),
        ("/api/v1/audit?limit=0", "limit"),
        ("/api/v1/audit?since=0000-01-01T00:00:00Z", "since"),
        ("/api/v1/audit?before_id=x", "before_id"),
        ("/api/v1/spark/jobs/999999/log?lines=0", "lines"),  # checked before the job is looked up
        ("/api/v1/spark/jobs/999999/log?level=debug", "level"),
    ],
    ids=[
        "limit-superscript",
        "cursor-superscript",
        "limit-5000-digits",
        "limit-fullwidth",
        "limit-over-max",
        "cursor-over-int64",
        "since-past-9999-in-utc",
        "since-before-year-1-in-utc",
        "since-without-zone",
        "actor-nul",
        "action-crlf",
        "search-tab",
        "bool-yes",
        "bool-nul",
        "reset-id-over-int64",
        "group-over-32767-bytes",
        "group-multibyte-over-32767-bytes",
        "group-lf-resets",
        "topic-del",
        "cluster-nul",
        "nul-group",
        "tab-group",
        "maybe-bool",
        "limit-negative",
        "limit-zero",
        "year-0",
        "cursor",
        "log-lines-zero",
        "log-level-unknown",
    ],
)
def test_bad_query_and_path_values(operator_client, url, field):
    error = assert_error(operator_client.get(url), 400)
    assert error["details"]["field"] == field, error
