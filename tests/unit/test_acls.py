"""ACL input and the CLI's convenience sets (access/acls.py), and the ACL wire codecs."""

from __future__ import annotations

import struct

import pytest

from access import acls
from console.errors import BadInput
from console.kafka import acl_protocol
from console.kafka.protocol import NO_TAGS, compact_array, compact_string, uvarint
from console.kafka.types import Acl, AclFilter


def _set(bindings: list[Acl]) -> set[tuple[str, str, str]]:
    return {(b.resource_type, b.resource_name, b.operation) for b in bindings}


def test_producer_is_write_describe_create_per_topic_and_no_cluster_acl_by_default():
    made = acls.producer_bindings("User:p", ["a", "b"], transactional_ids=["tx"])
    assert _set(made) == {
        *{
            (t, n, op)
            for t, n in [("TOPIC", "a"), ("TOPIC", "b")]
            for op in ("WRITE", "DESCRIBE", "CREATE")
        },
        ("TRANSACTIONAL_ID", "tx", "WRITE"),
        ("TRANSACTIONAL_ID", "tx", "DESCRIBE"),
    }
    assert {(b.principal, b.host, b.permission, b.pattern_type) for b in made} == {
        ("User:p", "*", "ALLOW", "LITERAL")
    }


def test_idempotent_adds_the_literal_cluster_acl_even_with_a_prefixed_pattern():
    made = acls.producer_bindings("User:p", ["orders-"], "PREFIXED", idempotent=True)
    cluster = [b for b in made if b.resource_type == "CLUSTER"]
    assert [(b.resource_name, b.pattern_type, b.operation) for b in cluster] == [
        ("kafka-cluster", "LITERAL", "IDEMPOTENT_WRITE")
    ]
    assert {b.pattern_type for b in made if b.resource_type == "TOPIC"} == {"PREFIXED"}


def test_consumer_is_read_describe_per_topic_and_read_per_group():
    made = acls.consumer_bindings("User:c", ["t"], ["g1", "g2"], where="10.0.0.1")
    assert _set(made) == {
        ("TOPIC", "t", "READ"),
        ("TOPIC", "t", "DESCRIBE"),
        ("GROUP", "g1", "READ"),
        ("GROUP", "g2", "READ"),
    }
    assert {b.host for b in made} == {"10.0.0.1"}


@pytest.mark.parametrize(
    "data, field, words",
    [
        pytest.param(
            {
                "resource_type": "TOPIC",
                "resource_name": "t",
                "principal": "alice",
                "operation": "READ",
            },
            "b.principal",
            "Type:name",
            id="principal-without-type",
        ),
        pytest.param(
            {
                "resource_type": "GROUP",
                "resource_name": "g",
                "principal": "User:a",
                "operation": "WRITE",
            },
            "b.operation",
            "only supports",
            id="operation-not-for-groups",
        ),
        pytest.param(
            {
                "resource_type": "CLUSTER",
                "resource_name": "c",
                "principal": "User:a",
                "operation": "ALTER",
            },
            "b.resource_name",
            "kafka-cluster",
            id="cluster-name",
        ),
        pytest.param(
            {
                "resource_type": "TOPIC",
                "resource_name": "t",
                "principal": "User:a",
                "operation": "READ",
                "host": "example.com",
            },
            "b.host",
            "IP address",
            id="host-name",
        ),
        pytest.param(
            {
                "resource_type": "TOPIC",
                "resource_name": "t",
                "principal": "User:a",
                "operation": "READ",
                "pattern_type": "MATCH",
            },
            "b.pattern_type",
            "LITERAL, PREFIXED",
            id="match-is-a-filter-only",
        ),
        pytest.param(
            {
                "resource_type": "TOPICS",
                "resource_name": "t",
                "principal": "User:a",
                "operation": "READ",
            },
            "b.resource_type",
            "TOPIC, GROUP",
            id="unknown-type",
        ),
        pytest.param(
            {
                "resource_type": "TOPIC",
                "resource_name": "t",
                "principal": "User:a",
                "operation": "IdempotentWrite",
            },
            "b.operation",
            "one of",
            id="cli-spelling",
        ),
    ],
)
def test_a_binding_that_kafka_or_the_cli_would_refuse_is_a_400_naming_the_field(data, field, words):
    with pytest.raises(BadInput) as caught:
        acls.binding(data, "b")
    assert caught.value.field == field
    assert words in caught.value.message


def test_a_binding_reads_names_in_any_case_and_defaults_as_the_cli():
    made = acls.binding(
        {
            "resource_type": "topic",
            "resource_name": "t",
            "principal": "User:a",
            "operation": "read",
        },
        "b",
    )
    assert made == Acl("TOPIC", "t", "LITERAL", "User:a", "*", "READ", "ALLOW")


def test_a_list_filter_defaults_to_literal_for_a_named_resource_and_any_without():
    assert (
        acls.acl_filter({"resource_type": "TOPIC", "resource_name": "t"}).pattern_type == "LITERAL"
    )
    assert acls.acl_filter({}) == AclFilter()
    assert acls.acl_filter({"pattern_type": "match", "resource_name": "t"}).pattern_type == "MATCH"
    with pytest.raises(BadInput) as caught:
        acls.acl_filter({"pattern_type": "wild"}, prefix="filter.")
    assert caught.value.field == "filter.pattern_type"


def test_describe_acls_request_and_answer_on_the_wire():
    wire = acl_protocol.describe_acls_request(
        AclFilter("TOPIC", "t", "MATCH", None, None, "READ", None), 7
    )
    # size, api key 29, version 3, correlation 7, client id, tags; then the filter.
    assert struct.unpack(">ihhi", wire[:12])[1:] == (29, 3, 7)
    assert wire.endswith(
        bytes([2])
        + compact_string("t")
        + bytes([2])
        + uvarint(0)
        + uvarint(0)
        + bytes([3, 1])
        + NO_TAGS
    )

    entry = compact_string("User:a") + compact_string("*") + bytes([12, 3]) + NO_TAGS
    resource = (
        bytes([4]) + compact_string("kafka-cluster") + bytes([3]) + compact_array([entry]) + NO_TAGS
    )
    user = (
        bytes([7])
        + compact_string("User:bob")
        + bytes([4])
        + compact_array(
            [compact_string("User:a") + compact_string("10.0.0.1") + bytes([13, 2]) + NO_TAGS]
        )
        + NO_TAGS
    )
    body = struct.pack(">ih", 0, 0) + uvarint(0) + compact_array([resource, user]) + NO_TAGS
    payload = struct.pack(">i", 7) + NO_TAGS + body
    error, message, found = acl_protocol.parse_describe_acls(payload)
    assert (error, message) == (0, None)
    assert found == [
        Acl("CLUSTER", "kafka-cluster", "LITERAL", "User:a", "*", "IDEMPOTENT_WRITE", "ALLOW"),
        Acl("USER", "User:bob", "PREFIXED", "User:a", "10.0.0.1", "CREATE_TOKENS", "DENY"),
    ]
