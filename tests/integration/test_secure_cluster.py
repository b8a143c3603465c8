"""The same console against the dev stack's two listeners: `local` (PLAINTEXT) and
`local-secure` (SASL_SSL, SCRAM-SHA-512, the dev stack's own CA). Both are one cluster, so
every answer must be the same; and a wrong password or an untrusted CA must be named."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from console import kafka
from console.clusters import parse_registry
from console.kafka import dev
from console.metadata import cache
from console.models import AuditEntry
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

CLUSTERS = ["local", "local-secure"]
TOPIC = "secure-parity"
PARTITIONS = 3
RECORDS_PER_PARTITION = 20
COMMITTED = {(TOPIC, 0): 5, (TOPIC, 1): 11, (TOPIC, 2): 20}


def _password() -> str:
    return Path(django_settings.DEV_TLS_DIR / "console.password").read_text().strip()


@pytest.fixture(scope="module")
def parity_topic(stack):
    """A topic with known offsets, written through the secure listener."""
    client = cluster_client("local-secure")
    dev.create_topics(client, [(TOPIC, PARTITIONS, 3, {})])
    ends = log_ends(client, [(TOPIC, p) for p in range(PARTITIONS)])
    if any(offset != RECORDS_PER_PARTITION for offset in ends.values()):
        producer = dev.make_producer(client, acks="all")
        for partition in range(PARTITIONS):
            for i in range(RECORDS_PER_PARTITION):
                producer.produce(TOPIC, value=f"r{i}".encode(), partition=partition)
        assert producer.flush(30) == 0
    for cluster in CLUSTERS:  # snapshots taken before the topic existed
        cache.invalidate(cluster)
    return TOPIC


def _group_for(cluster: str) -> str:
    return f"secure-parity-{cluster}"


@pytest.fixture
def idle_group(request, parity_topic):
    cluster = request.node.callspec.params["cluster"]
    group = _group_for(cluster)
    commit_and_wait(cluster_client(cluster), group, COMMITTED)
    return group


def _get(client, path: str) -> dict | list:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code, response.content[:300])
    assert _password() not in response.content.decode()
    return response.json()


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_cluster_and_brokers(viewer_client, stack, cluster):
    listed = {c["name"]: c for c in _get(viewer_client, "/api/v1/clusters")}
    assert listed[cluster]["reachable"] is True
    detail = _get(viewer_client, f"/api/v1/clusters/{cluster}")
    brokers = _get(viewer_client, f"/api/v1/clusters/{cluster}/brokers")
    assert [b["id"] for b in brokers] == [1, 2, 3]
    assert detail["broker_count"] == 3
    assert detail["cluster_id"] == listed["local"]["cluster_id"]  # one cluster, two listeners
    assert sum(b["is_controller"] for b in brokers) == 1
    # Each listener advertises its own ports: the secure one 19094, 29094, 39094.
    expected_port = 9094 if cluster == "local-secure" else 9092
    assert {b["port"] % 10000 for b in brokers} == {expected_port}


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_topics_list_and_detail(viewer_client, parity_topic, cluster):
    rows = _get(viewer_client, f"/api/v1/clusters/{cluster}/topics?search={TOPIC}")
    assert [r["name"] for r in rows] == [TOPIC]
    assert rows[0]["partition_count"] == PARTITIONS
    assert rows[0]["replication_factor"] == 3
    detail = _get(viewer_client, f"/api/v1/clusters/{cluster}/topics/{TOPIC}")
    assert [p["log_end_offset"] for p in detail["partitions"]] == [RECORDS_PER_PARTITION] * 3
    assert detail["min_insync_replicas"] == 2  # the dev stack's broker default


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_groups_list_and_detail_with_lag(viewer_client, idle_group, cluster):
    expected = {tp: RECORDS_PER_PARTITION - offset for tp, offset in COMMITTED.items()}
    rows = {g["group_id"]: g for g in _get(viewer_client, f"/api/v1/clusters/{cluster}/groups")}
    assert rows[idle_group]["total_lag"] == sum(expected.values())
    assert rows[idle_group]["max_lag"] == max(expected.values())
    detail = _get(viewer_client, f"/api/v1/clusters/{cluster}/groups/{idle_group}")
    lags = {(o["topic"], o["partition"]): o["lag"] for o in detail["offsets"]}
    assert lags == expected


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_reset_previewed_executed_and_undone(operator_client, idle_group, cluster):
    base = f"/api/v1/clusters/{cluster}/groups/{idle_group}/offset-resets"
    body = {
        "scope": {"topics": [{"topic": TOPIC, "partitions": None}]},
        "strategy": {"type": "earliest"},
    }
    preview = operator_client.post(base, body, format="json")
    assert preview.status_code == 201, preview.content
    executed = operator_client.post(
        f"/api/v1/offset-resets/{preview.json()['id']}/execute", {}, format="json"
    )
    assert executed.status_code == 200, executed.content
    assert executed.json()["state"] == "succeeded"
    client = cluster_client(cluster)
    assert client.committed_offsets({idle_group: None})[idle_group] == dict.fromkeys(COMMITTED, 0)
    undo = operator_client.post(f"/api/v1/offset-resets/{preview.json()['id']}/undo", {}, "json")
    assert undo.status_code == 201, undo.content
    assert client.committed_offsets({idle_group: None})[idle_group] == COMMITTED


def _registry_with(**overrides) -> dict:
    entry = {
        "name": "broken",
        "bootstrap_servers": "127.0.0.1:19094,127.0.0.1:29094,127.0.0.1:39094",
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_username": "console",
        "sasl_password": _password(),
        "ssl_ca_location": str(django_settings.DEV_TLS_DIR / "ca.pem"),
    }
    entry.update(overrides)
    return {**django_settings.KAFKA_CLUSTERS, **parse_registry([entry], {})}


BAD_PASSWORD = "not-the-password-7d1e"


@pytest.mark.parametrize(
    "overrides, code, cause",
    [
        ({"sasl_password": BAD_PASSWORD}, "kafka_auth_failed", "authentication"),
        (
            {"ssl_ca_location": "/etc/ssl/certs/ca-certificates.crt"},
            "kafka_tls_failed",
            "certificate verify failed",
        ),
    ],
    ids=["wrong-sasl-password", "untrusted-ca"],
)
def test_wrong_credentials_or_ca_are_named_and_no_secret_leaks(
    settings, admin_client_api, stack, caplog, overrides, code, cause
):
    settings.KAFKA_CLUSTERS = _registry_with(**overrides)
    cache.invalidate("broken")
    secrets = {_password(), BAD_PASSWORD}
    caplog.set_level(logging.DEBUG)
    responses = [
        admin_client_api.get("/api/v1/clusters/broken/topics"),
        admin_client_api.get("/api/v1/clusters/broken/groups"),
        admin_client_api.post(
            "/api/v1/clusters/broken/topics",
            {"name": "never-created", "partitions": 1, "replication_factor": 1},
            format="json",
        ),
    ]
    for response in responses:
        error = assert_error(response, 502, code)
        assert cause in error["message"].lower(), error
        assert not any(s in response.content.decode() for s in secrets)
    listed = admin_client_api.get("/api/v1/clusters")
    assert {c["name"]: c for c in listed.json()}["broken"]["reachable"] is False
    assert not any(s in listed.content.decode() for s in secrets)
    entries = list(AuditEntry.objects.filter(cluster="broken").values())
    assert entries and entries[-1]["outcome"] in ("refused", "failed")
    assert not any(s in repr(entries) for s in secrets)
    assert not any(s in caplog.text for s in secrets)
    kafka.for_cluster(django_settings.KAFKA_CLUSTERS["broken"]).close()
