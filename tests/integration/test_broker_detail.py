"""The broker page's data against Apache Kafka's own tools on the same cluster: replica sizes
as kafka-log-dirs.sh --describe reports them, configs and their sources as kafka-configs.sh
--describe --all shows them, API versions as kafka-broker-api-versions.sh lists them."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.conftest import assert_error
from tests.sizes import cli_sizes, write_sized_topic
from tests.stack import kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture
def sized_topic(stack):
    return write_sized_topic(f"broker-detail-{uuid.uuid4().hex[:8]}")


def _console_sizes(client, topic: str) -> dict[int, dict[tuple[str, int], tuple[int, int]]]:
    sizes: dict[int, dict[tuple[str, int], tuple[int, int]]] = {}
    for broker in (1, 2, 3):
        response = client.get(f"/api/v1/clusters/local/brokers/{broker}")
        assert response.status_code == 200, response.content
        detail = response.json()
        assert detail["log_dirs_error"] is None
        for log_dir in detail["log_dirs"]:
            assert log_dir["error"] is None
            assert 0 < log_dir["usable_bytes"] <= log_dir["total_bytes"]
            for r in log_dir["replicas"]:
                if r["topic"] == topic:
                    sizes.setdefault(broker, {})[(topic, r["partition"])] = (
                        r["size_bytes"],
                        r["offset_lag"],
                    )
    return sizes


def test_replica_sizes_equal_what_kafka_log_dirs_reports(viewer_client, sized_topic):
    # Followers copy at their own pace: compare once every replica has caught up (offset lag
    # 0 everywhere in the CLI's answer), the CLI and the console asked at the same moment.
    def settled():
        cli = cli_sizes(sized_topic)
        if any(lag for broker in cli.values() for _, lag in broker.values()):
            return None
        return cli if _console_sizes(viewer_client, sized_topic) == cli else None

    cli = wait_for(settled, timeout=60, what="the console's sizes to equal kafka-log-dirs'")
    assert sorted(cli) == [1, 2, 3]
    for broker in cli.values():
        sizes = {p: size for (_, p), (size, _) in broker.items()}
        assert sizes[2] == 0 < sizes[0] < sizes[1]  # empty, 10 and 200 records


def _cli_configs(broker: int) -> dict[str, tuple[str | None, str]]:
    """kafka-configs.sh --describe --all: name -> (value, source of the value in effect)."""
    out = kafka_tool(
        "kafka-configs",
        "--describe",
        "--all",
        "--entity-type",
        "brokers",
        "--entity-name",
        str(broker),
    ).stdout
    configs: dict[str, tuple[str | None, str]] = {}
    for line in out.splitlines():
        m = re.match(r"^\s+(\S+)=(.*) sensitive=(true|false) synonyms=\{(?:([A-Z_]+):)?", line)
        if m:
            name, value, sensitive, source = m.groups()
            # No synonym at all: set nowhere, Kafka's default (which is null) is in effect.
            configs[name] = (None if sensitive == "true" else value, source or "DEFAULT_CONFIG")
    return configs


def test_configs_and_sources_equal_kafka_configs_describe_all(viewer_client, stack):
    detail = viewer_client.get("/api/v1/clusters/local/brokers/2").json()
    console = {
        c["name"]: (c["value"] if c["value"] is not None else None, c["source"])
        for c in detail["configs"]
    }
    cli = _cli_configs(2)
    assert len(cli) > 100
    # The CLI prints a missing value as "null".
    cli = {k: (None if v == "null" else v, src) for k, (v, src) in cli.items()}
    assert console == cli
    assert console["node.id"] == ("2", "STATIC_BROKER_CONFIG")
    sensitive = [c for c in detail["configs"] if c["sensitive"]]
    assert all(c["value"] is None for c in sensitive)


def _cli_api_versions(broker: int) -> dict[str, tuple[int, int]]:
    out = kafka_tool("kafka-broker-api-versions").stdout
    block = re.search(rf"\(id: {broker} rack: .*?\) -> \((.*?)\n\)", out, re.S)
    assert block, out
    # "Produce(0): 0 to 13 [usable: 13]", "OffsetDelete(47): 0 [usable: 0]" (one version), and
    # "PushTelemetry(72): UNSUPPORTED" (the tool knows it, the broker does not speak it).
    return {
        f"{name}({key})": (int(low), int(high or low))
        for name, key, low, high in re.findall(r"(\w+)\((\d+)\): (\d+)(?: to (\d+))?", block[1])
    }


def test_api_versions_equal_kafka_broker_api_versions(viewer_client, stack):
    detail = viewer_client.get("/api/v1/clusters/local/brokers/3").json()
    console = {f"{r['api']}({r['key']})": (r["min"], r["max"]) for r in detail["api_versions"]}
    cli = _cli_api_versions(3)
    assert len(cli) > 40
    assert console == cli


def test_an_unknown_broker_is_404_and_anonymous_is_401(viewer_client, anon_client, stack):
    assert_error(viewer_client.get("/api/v1/clusters/local/brokers/42"), 404)
    assert_error(anon_client.get("/api/v1/clusters/local/brokers/1"), 401)
