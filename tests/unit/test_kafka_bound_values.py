"""Values bound for Kafka (topic names and counts, config keys and values, partitions to
elect) are bounded before any Kafka call (`no_kafka`): a 400 naming the field, never a 500
from librdkafka or a bad field read as "all".
"""

from __future__ import annotations

import json

import pytest

from console.models import AuditEntry
from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]

TOPICS = "/api/v1/clusters/local/topics"
ELECT = "/api/v1/clusters/local/elect-leaders"
CONFIGS = "/api/v1/clusters/local/topics/t/configs"
PARTITIONS = "/api/v1/clusters/local/topics/t/partitions"


@pytest.mark.parametrize(
    "method, url, body, field",
    [
        (
            "POST",
            TOPICS,
            {"name": "a", "partitions": 2**31 - 1, "replication_factor": 1},
            "partitions",
        ),
        (
            "POST",
            TOPICS,
            {"name": "a", "partitions": 100_001, "replication_factor": 1},
            "partitions",
        ),
        ("POST", PARTITIONS, {"count": 2**31 - 1}, "count"),
        ("POST", PARTITIONS, {"count": 1e300}, "count"),
        ("PATCH", CONFIGS, {"set": {"retention.ms": "1" * 30_001}}, "set.retention.ms"),
        ("PATCH", CONFIGS, {"set": {"cleanup.policy": "é" * 16_000}}, "set.cleanup.policy"),
        ("PATCH", CONFIGS, {"set": {"k" * 256: "1"}}, "set"),
        ("PATCH", CONFIGS, {"set": {"retention.ms\x7f": "1"}}, "set"),
        ("PATCH", CONFIGS, {"delete": ["retention.ms\t"]}, "delete"),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t\r", "partition": 0}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t", "partition": -1}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": [{"topic": "t", "partition": True}]},
            "partitions",
        ),
        (
            "POST",
            ELECT,
            {"election": "unclean", "partitions": {"topic": "t", "partition": 0}},
            "partitions",
        ),
    ],
    ids=[
        "partitions-int32-max",
        "partitions-over-librdkafka-cap",
        "count-int32-max",
        "count-1e300",
        "value-over-30000-bytes",
        "value-multibyte-32000-bytes",
        "key-256-chars",
        "key-with-del",
        "delete-key-with-tab",
        "elect-topic-with-cr",
        "elect-negative-partition",
        "elect-boolean-partition",
        "elect-object-not-list",
    ],
)
def test_kafka_bound_values_are_bounded(admin_client_api, method, url, body, field):
    response = admin_client_api.generic(method, url, json.dumps(body), "application/json")
    error = assert_error(response, 400)
    assert error["details"]["field"].startswith(field), error
    entry = AuditEntry.objects.get()  # refused, and audited as such
    assert entry.outcome == "refused"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "a\u0000b", "partitions": 1, "replication_factor": 1}, "name"),
        ({"name": "a\nb", "partitions": 1, "replication_factor": 1}, "name"),
        ({"name": "a", "partitions": 2147483648, "replication_factor": 1}, "partitions"),
        ({"name": "a", "partitions": 10**30, "replication_factor": 1}, "partitions"),
        ({"name": "a", "partitions": 1, "replication_factor": 40000}, "replication_factor"),
        (
            {"name": "a", "partitions": 1, "replication_factor": 1, "configs": {"k\u0000j": "1"}},
            "configs",
        ),
        (
            {"name": "a", "partitions": 1, "replication_factor": 1, "configs": {"k": "v" * 40000}},
            "configs",
        ),
    ],
    ids=["nul-name", "newline-name", "int32+1", "1e30", "rf-over-int16", "nul-key", "long-value"],
)
def test_topic_create_bounds(admin_client_api, body, field):
    error = assert_error(admin_client_api.post(TOPICS, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error


@pytest.mark.parametrize("count", [2**31, 2**63, 0], ids=["int32+1", "int64+1", "zero"])
def test_add_partitions_count_bounds(admin_client_api, count):
    response = admin_client_api.post(PARTITIONS, {"count": count}, format="json")
    assert assert_error(response, 400)["details"]["field"] == "count"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"set": {"retention.ms\u0000junk": "7200000"}}, "set"),
        ({"delete": ["retention.ms", "retention.ms"]}, "delete"),
        ({"set": {"retention.ms": "1\r\n"}}, "set"),
    ],
    ids=["nul-in-key", "delete-twice", "crlf-in-value"],
)
def test_config_patch_bounds(admin_client_api, body, field):
    error = assert_error(admin_client_api.patch(CONFIGS, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error


@pytest.mark.parametrize(
    "body, field",
    [
        ({"election": "unclean"}, "partitions"),
        ({"election": "unclean", "partitions": [None]}, "partitions"),
        ({"election": "unclean", "partitions": "t:0"}, "partitions"),
        ({"election": "unclean", "partitions": []}, "partitions"),
        (
            {"election": "preferred", "partitions": [{"topic": "t", "partition": 0}] * 2},
            "partitions",
        ),
        (
            {"election": "preferred", "partitions": [{"topic": "t", "partition": 2**31}]},
            "partitions",
        ),
    ],
    ids=["missing", "null-item", "string", "empty", "duplicate", "partition-over-int32"],
)
def test_elect_leaders_never_reads_a_bad_field_as_all(admin_client_api, body, field):
    error = assert_error(admin_client_api.post(ELECT, body, format="json"), 400)
    assert error["details"]["field"].startswith(field), error
