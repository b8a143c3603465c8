"""Dynamic broker configs changed from the console, checked with kafka-configs.sh on the same
cluster: per broker and cluster-wide, set and delete, a value the CLI set seen and deleted
by the console; and each refusal leaving the cluster as it was (read straight from Kafka with
DescribeConfigs: a JVM start of the CLI per read cost a minute of every test run)."""

from __future__ import annotations

import re

import pytest

from console.audit import AuditEntry
from tests.conftest import assert_error
from tests.stack import cluster_client, kafka_tool

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

KEY = "log.cleaner.backoff.ms"  # dynamic, per broker or cluster-wide, harmless to change


def _cli_dynamic(*entity: str) -> dict[str, str]:
    """What kafka-configs.sh --describe (without --all) lists: the entity's dynamic values."""
    out = kafka_tool("kafka-configs", "--describe", "--entity-type", "brokers", *entity).stdout
    return dict(re.findall(r"^\s+(\S+?)=(\S*) sensitive=", out, re.M))


ENTITIES = (1, 2, None)  # the brokers the tests change, and the cluster-wide default


def _dynamic(broker: int | None) -> dict[str, str | None]:
    """The dynamic values of one broker (its own) or of the cluster-wide default, from Kafka."""
    client = cluster_client()
    if broker is None:
        return {k: v.value for k, v in client.describe_broker_defaults().items()}
    configs = client.describe_broker_configs(broker)
    return {k: v.value for k, v in configs.items() if v.source == "DYNAMIC_BROKER_CONFIG"}


@pytest.fixture
def clean_key(stack):
    yield
    client = cluster_client()
    for broker in ENTITIES:
        if KEY in _dynamic(broker):
            client.alter_broker_configs(broker, {}, [KEY])


def _patch(client, url: str, body: dict):
    return client.patch(url, body, format="json")


def _by_name(rows: list[dict]) -> dict[str, dict]:
    return {r["name"]: r for r in rows}


def test_set_and_delete_on_one_broker_as_the_cli_sees_it(admin_client_api, clean_key):
    url = "/api/v1/clusters/local/brokers/1/configs"
    response = _patch(admin_client_api, url, {"set": {KEY: "20000"}})
    assert response.status_code == 200, response.content
    row = _by_name(response.json())[KEY]
    assert (row["value"], row["source"]) == ("20000", "DYNAMIC_BROKER_CONFIG")
    assert _cli_dynamic("--entity-name", "1")[KEY] == "20000"
    assert KEY not in _cli_dynamic("--entity-name", "2")  # that broker only
    audit = AuditEntry.objects.filter(action="broker.configs").latest("id")
    assert (audit.outcome, audit.target) == ("ok", "broker 1")

    response = _patch(admin_client_api, url, {"delete": [KEY]})
    assert response.status_code == 200, response.content
    assert _by_name(response.json())[KEY]["source"] != "DYNAMIC_BROKER_CONFIG"
    assert KEY not in _cli_dynamic("--entity-name", "1")


def test_cluster_wide_default_as_the_cli_sees_it(admin_client_api, viewer_client, clean_key):
    url = "/api/v1/clusters/local/broker-defaults"
    response = _patch(admin_client_api, url, {"set": {KEY: "25000"}})
    assert response.status_code == 200, response.content
    assert _cli_dynamic("--entity-default")[KEY] == "25000"
    listed = _by_name(viewer_client.get(url).json())
    assert (listed[KEY]["value"], listed[KEY]["source"]) == (
        "25000",
        "DYNAMIC_DEFAULT_BROKER_CONFIG",
    )
    # Every broker without its own value now reads the cluster-wide one.
    broker = _by_name(viewer_client.get("/api/v1/clusters/local/brokers/3").json()["configs"])
    assert (broker[KEY]["value"], broker[KEY]["source"]) == (
        "25000",
        "DYNAMIC_DEFAULT_BROKER_CONFIG",
    )
    assert _patch(admin_client_api, url, {"delete": [KEY]}).status_code == 200
    assert KEY not in _cli_dynamic("--entity-default")


def test_a_value_the_cli_set_is_seen_and_deleted_by_the_console(
    admin_client_api, viewer_client, clean_key
):
    kafka_tool(
        "kafka-configs",
        "--alter",
        "--entity-type",
        "brokers",
        "--entity-name",
        "2",
        "--add-config",
        f"{KEY}=21000",
    )
    detail = viewer_client.get("/api/v1/clusters/local/brokers/2").json()
    row = _by_name(detail["configs"])[KEY]
    assert (row["value"], row["source"]) == ("21000", "DYNAMIC_BROKER_CONFIG")
    url = "/api/v1/clusters/local/brokers/2/configs"
    assert _patch(admin_client_api, url, {"delete": [KEY]}).status_code == 200
    assert KEY not in _cli_dynamic("--entity-name", "2")


@pytest.mark.parametrize(
    "url, body, status, field",
    [
        ("brokers/1/configs", {"set": {"node.id": "7"}}, 400, "set"),
        ("brokers/1/configs", {"delete": [KEY]}, 400, "delete"),
        ("broker-defaults", {"delete": [KEY]}, 400, "delete"),
        ("brokers/1/configs", {"set": {KEY: "not-a-number"}}, 400, "set"),
        ("brokers/1/configs", {"set": {KEY: "20000"}, "delete": [KEY]}, 400, "delete"),
        ("brokers/42/configs", {"set": {KEY: "20000"}}, 404, None),
    ],
    ids=["read-only", "delete-unset", "delete-unset-default", "bad-value", "both", "no-broker"],
)
def test_refusals_change_nothing(admin_client_api, clean_key, url, body, status, field):
    before = [_dynamic(broker) for broker in ENTITIES]
    error = assert_error(_patch(admin_client_api, f"/api/v1/clusters/local/{url}", body), status)
    if field:
        assert error["details"]["field"] == field, error
    assert [_dynamic(broker) for broker in ENTITIES] == before


def test_only_an_admin_changes_broker_configs(operator_client, clean_key):
    response = _patch(
        operator_client, "/api/v1/clusters/local/brokers/1/configs", {"set": {KEY: "20000"}}
    )
    assert_error(response, 403)
    assert KEY not in _dynamic(1)
