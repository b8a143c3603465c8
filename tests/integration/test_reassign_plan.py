"""Reassignment plans against the real cluster and Apache Kafka's own kafka-reassign-partitions.sh:
a plan the tool's --generate wrote is read by the console, the console's "current" plan is the
tool's, a generated plan uses only the chosen brokers, a replication-factor plan keeps the
preferred leaders, the bytes to copy are the leaders' sizes as kafka-log-dirs.sh reports them,
and each refusal names its cause."""

from __future__ import annotations

import json
import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.sizes import RECORDS, write_sized_topic
from tests.stack import cluster_client, kafka_tool

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/api/v1/clusters/local/reassignments/plan"


def _post(client, body: dict):
    return client.post(URL, body, format="json")


def _cli_generate(tmp_path, topic: str, brokers: str) -> tuple[dict, dict]:
    """(current, proposed) as --generate prints them."""
    topics_file = tmp_path / "topics.json"
    topics_file.write_text(json.dumps({"version": 1, "topics": [{"topic": topic}]}))
    out = kafka_tool(
        "kafka-reassign-partitions",
        "--generate",
        "--topics-to-move-json-file",
        str(topics_file),
        "--broker-list",
        brokers,
    ).stdout
    documents = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(documents) == 2, out
    return documents[0], documents[1]


@pytest.fixture
def two_replica_topic(stack):
    topic = f"plan-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(topic, 4, 2, {})])
    return topic


def test_a_plan_written_by_the_cli_is_read_and_its_current_is_the_clis(
    admin_client_api, two_replica_topic, tmp_path
):
    current, proposed = _cli_generate(tmp_path, two_replica_topic, "1,2,3")
    response = _post(admin_client_api, {"plan": proposed})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["proposed"] == proposed
    assert body["current"] == current
    assert {(m["partition"], tuple(m["to"])) for m in body["moves"]} == {
        (p["partition"], tuple(p["replicas"])) for p in proposed["partitions"]
    }


def test_a_generated_plan_uses_only_the_chosen_brokers(admin_client_api, two_replica_topic):
    response = _post(admin_client_api, {"topics": [two_replica_topic], "brokers": [2, 3]})
    assert response.status_code == 200, response.content
    partitions = response.json()["proposed"]["partitions"]
    assert len(partitions) == 4
    assert all(sorted(p["replicas"]) == [2, 3] for p in partitions)
    assert {p["replicas"][0] for p in partitions} == {2, 3}  # leaders spread over both


def test_a_replication_factor_plan_keeps_leaders_and_counts_the_bytes(admin_client_api, stack):
    topic = f"plan-rf-{uuid.uuid4().hex[:8]}"
    dev.create_topics(cluster_client(), [(topic, len(RECORDS), 1, {})])
    write_sized_topic(topic)  # creates nothing new: fills the RF-1 partitions
    cli = settled_cli_sizes_rf1(topic)
    from topics import sizes

    sizes.cache.invalidate("local")
    response = _post(
        admin_client_api,
        {"topic": topic, "replication_factor": 3, "throttle_bytes_per_s": 1024},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    for move in body["moves"]:
        assert move["to"][0] == move["from"][0] and len(move["to"]) == 3
        leader = move["from"][0]
        assert move["bytes"] == 2 * cli[leader][(topic, move["partition"])][0]
    assert body["total_bytes"] == sum(m["bytes"] for m in body["moves"]) > 0
    assert body["estimated_seconds"] >= body["total_bytes"] // 1024 // 3


def settled_cli_sizes_rf1(topic: str) -> dict:
    """kafka-log-dirs.sh for a topic with one replica per partition (nothing to settle)."""
    from tests.sizes import cli_sizes

    return cli_sizes(topic)


@pytest.mark.parametrize(
    "body, status, field",
    [
        (
            {
                "plan": {
                    "version": 1,
                    "partitions": [{"topic": "T", "partition": 0, "replicas": [9]}],
                }
            },
            400,
            "plan",
        ),
        (
            {
                "plan": {
                    "version": 1,
                    "partitions": [{"topic": "T", "partition": 99, "replicas": [1]}],
                }
            },
            400,
            "plan",
        ),
        (
            {
                "plan": {
                    "version": 1,
                    "partitions": [
                        {"topic": "T", "partition": 0, "replicas": [1], "log_dirs": ["/nowhere"]}
                    ],
                }
            },
            400,
            "plan",
        ),
        ({"topics": ["T"], "brokers": [1, 1]}, 400, "brokers"),
        ({"topics": ["T"], "brokers": [1, 7]}, 400, "brokers"),
        ({"topics": ["T"]}, 400, "brokers"),
        ({"topic": "T", "replication_factor": 4}, 400, "replication_factor"),
        ({"topic": "no-such-topic-x", "replication_factor": 2}, 404, "topic"),
        (
            {"topic": "T", "replication_factor": 2, "throttle_bytes_per_s": 0},
            400,
            "throttle_bytes_per_s",
        ),
        ({"topic": "T", "replication_factor": 2, "plan": {}}, 400, "plan"),
        (
            {
                "plan": {
                    "version": 1,
                    "partitions": [{"topic": "T", "partition": 0, "replicas": [1, 1]}],
                }
            },
            400,
            "plan",
        ),
        (
            {"topic": "T", "replication_factor": 2, "throttle_bytes_per_s": 10**12},
            400,
            "throttle_bytes_per_s",
        ),
    ],
    ids=[
        "unknown-broker",
        "no-partition",
        "no-log-dir",
        "duplicate-broker",
        "dead-broker",
        "no-broker-list",
        "rf-above-brokers",
        "no-topic",
        "zero-throttle",
        "two-shapes",
        "duplicate-replica",
        "absurd-throttle",
    ],
)
def test_refusals_name_the_cause(admin_client_api, two_replica_topic, body, status, field):
    text = json.dumps(body).replace('"T"', json.dumps(two_replica_topic))
    error = assert_error(_post(admin_client_api, json.loads(text)), status)
    if field:
        assert error["details"]["field"] == field, error


def test_only_admins_plan(operator_client, two_replica_topic):
    response = _post(operator_client, {"topic": two_replica_topic, "replication_factor": 3})
    assert_error(response, 403)
