"""Dev stack constants and rendered config files (pure functions, no processes)."""

from pathlib import Path

import pytest

from devtools.devstack import config, kafka_cluster


def _props(text: str) -> dict[str, str]:
    return dict(
        line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#")
    )


def test_public_constants():
    assert config.BROKER_IDS == (1, 2, 3)
    assert config.BOOTSTRAP_SERVERS == "127.0.0.1:19092,127.0.0.1:29092,127.0.0.1:39092"
    assert config.REDIS_URL == "redis://127.0.0.1:16379/0"
    assert config.QUORUM_VOTERS == "1@127.0.0.1:19093,2@127.0.0.1:29093,3@127.0.0.1:39093"
    assert config.KAFKA_VERSION.startswith("4.")


@pytest.mark.parametrize("node", [1, 2, 3])
def test_node_properties(node):
    props = _props(config.node_properties(node, Path("/tmp/x/data")))
    assert props["node.id"] == str(node)
    assert props["process.roles"] == "broker,controller"
    assert props["controller.quorum.voters"] == config.QUORUM_VOTERS
    assert props["listeners"] == (
        f"PLAINTEXT://127.0.0.1:{node}9092,CONTROLLER://127.0.0.1:{node}9093"
    )
    assert props["controller.listener.names"] == "CONTROLLER"
    assert props["log.dirs"] == "/tmp/x/data"
    assert props["offsets.topic.replication.factor"] == "3"
    assert props["transaction.state.log.min.isr"] == "2"
    assert props["min.insync.replicas"] == "2"
    assert props["group.initial.rebalance.delay.ms"] == "0"
    assert props["replica.lag.time.max.ms"] == "10000"


def test_node_properties_rejects_unknown_node():
    with pytest.raises(ValueError):
        config.node_properties(4, Path("/tmp"))


def test_state_dir_env_override(monkeypatch, tmp_path):
    monkeypatch.delenv("DEVSTACK_DIR", raising=False)
    assert config.state_dir() == config.REPO_ROOT / ".devstack"
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    assert config.state_dir() == tmp_path.resolve()
    assert config.node_dir(2) == tmp_path.resolve() / "node2"


def test_log4j2_configs():
    server = config.server_log4j2(Path("/logs"))
    assert "rootLogger.level = INFO" in server
    assert "/logs/server.log" in server
    tools = config.tools_log4j2()
    assert "SYSTEM_ERR" in tools and "rootLogger.level = WARN" in tools


def test_cluster_id_shape_and_persistence(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    cid = kafka_cluster.new_cluster_id()
    assert len(cid) == 22 and not cid.startswith("-") and "=" not in cid
    first = kafka_cluster.cluster_id()
    assert kafka_cluster.cluster_id() == first
    assert (tmp_path / "cluster.id").read_text().strip() == first


def test_cluster_id_reuses_formatted_node(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    data = kafka_cluster.data_dir(2)
    data.mkdir(parents=True)
    (data / "meta.properties").write_text("version=1\ncluster.id=AbCdEfGhIjKlMnOpQrStUv\n")
    assert kafka_cluster.cluster_id() == "AbCdEfGhIjKlMnOpQrStUv"


def test_node_command(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    cmd = kafka_cluster.node_command(1, Path("/libs"))
    assert cmd[-2:] == ["kafka.Kafka", str(tmp_path.resolve() / "node1" / "server.properties")]
    assert "-Xmx512m" in cmd and "/libs/*" in cmd
    assert f"-Ddevstack.node={tmp_path.resolve() / 'node1'}" in cmd


def _props(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] != "#")


def test_secure_listener_beside_plaintext(tmp_path):
    secure = {"listener.name.secure.sasl.enabled.mechanisms": "SCRAM-SHA-512"}
    props = _props(config.node_properties(2, tmp_path, secure))
    assert props["listeners"] == (
        "PLAINTEXT://127.0.0.1:29092,SECURE://127.0.0.1:29094,CONTROLLER://127.0.0.1:29093"
    )
    assert props["advertised.listeners"] == props["listeners"]
    assert props["listener.security.protocol.map"] == (
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SASL_SSL"
    )
    # Brokers and controllers keep talking PLAINTEXT among themselves.
    assert props["inter.broker.listener.name"] == "PLAINTEXT"
    assert props["listener.name.secure.sasl.enabled.mechanisms"] == "SCRAM-SHA-512"


def test_without_secure_listener_only_plaintext(tmp_path):
    props = _props(config.node_properties(1, tmp_path))
    assert (
        "SECURE" not in props["listeners"]
        and "SASL_SSL" not in props["listener.security.protocol.map"]
    )


def test_settings_defaults_match_the_dev_stack():
    """The console's default clusters (settings) point at the ports the dev stack opens."""
    from django.conf import settings

    defaults = {c["name"]: c for c in settings.DEFAULT_KAFKA_CLUSTERS}
    assert defaults["local"]["bootstrap_servers"] == config.BOOTSTRAP_SERVERS
    assert defaults["local-secure"]["bootstrap_servers"] == config.SECURE_BOOTSTRAP_SERVERS
    assert defaults["local-secure"]["sasl_mechanism"] == config.SASL_MECHANISM
    assert defaults["local-secure"]["sasl_username"] == config.SASL_USERNAME
