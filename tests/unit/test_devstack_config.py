"""Dev stack constants and rendered config files (pure functions, no processes)."""

from pathlib import Path

import pytest

from devtools.devstack import config, kafka_cluster, secure_listener, tls
from devtools.devstack.errors import DevstackError


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


# --- the SASL_SSL listener ------------------------------------------------------------------
def test_secure_constants(monkeypatch, tmp_path):
    assert [config.secure_port(n) for n in config.BROKER_IDS] == [19094, 29094, 39094]
    assert config.SECURE_BOOTSTRAP_SERVERS == "127.0.0.1:19094,127.0.0.1:29094,127.0.0.1:39094"
    assert (config.SASL_USERNAME, config.SASL_MECHANISM) == ("console", "SCRAM-SHA-512")
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    assert config.tls_dir() == tmp_path.resolve() / "tls"


@pytest.mark.parametrize("node", [1, 2, 3])
def test_node_properties_with_the_secure_listener(monkeypatch, tmp_path, node):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    props = _props(config.node_properties(node, tmp_path / "data", tls.listener_properties()))
    plain, secure, controller = (f"127.0.0.1:{node}909{i}" for i in (2, 4, 3))
    assert props["listeners"] == (
        f"PLAINTEXT://{plain},SECURE://{secure},CONTROLLER://{controller}"
    )
    assert props["advertised.listeners"] == props["listeners"]
    assert props["listener.security.protocol.map"] == (
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SASL_SSL"
    )
    # Brokers and controllers keep talking PLAINTEXT among themselves, as super users of the
    # authorizer (User:ANONYMOUS), with the console's SCRAM user; other principals are held to
    # the ACLs a resource has, and allowed where it has none.
    assert props["inter.broker.listener.name"] == "PLAINTEXT"
    assert props["controller.listener.names"] == "CONTROLLER"
    assert props["authorizer.class.name"] == (
        "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
    )
    assert props["super.users"] == "User:ANONYMOUS;User:console"
    assert props["allow.everyone.if.no.acl.found"] == "true"
    # SASL is set on the SECURE listener only.
    sasl = {key: value for key, value in props.items() if "sasl" in key}
    assert sasl == {
        "listener.name.secure.sasl.enabled.mechanisms": "SCRAM-SHA-512",
        "listener.name.secure.scram-sha-512.sasl.jaas.config": (
            "org.apache.kafka.common.security.scram.ScramLoginModule required;"
        ),
    }
    tls_dir = tmp_path.resolve() / "tls"
    password = (tls_dir / "keystore.password").read_text()
    assert props["listener.name.secure.ssl.keystore.location"] == str(tls_dir / "broker.p12")
    assert props["listener.name.secure.ssl.truststore.location"] == str(tls_dir / "truststore.p12")
    assert props["listener.name.secure.ssl.keystore.type"] == "PKCS12"
    assert props["listener.name.secure.ssl.keystore.password"] == password
    assert props["listener.name.secure.ssl.key.password"] == password
    assert props["listener.name.secure.ssl.truststore.password"] == password


def test_password_files_are_random_private_and_made_once(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    first = tls.console_password()
    assert tls.console_password() == first != tls.keystore_password()
    path = tls.console_password_file()
    assert path == tmp_path.resolve() / "tls" / "console.password"
    assert path.read_text() == first and len(first) >= 32  # no newline
    assert first.replace("-", "").replace("_", "").isalnum()  # safe inside [..,password=..]
    assert path.stat().st_mode & 0o777 == 0o600
    assert tls.keystore_password_file().stat().st_mode & 0o777 == 0o600


def test_scram_arguments(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    password = tls.console_password()
    assert tls.scram_format_arg() == f"SCRAM-SHA-512=[name=console,password={password}]"
    assert tls.scram_config_arg() == f"SCRAM-SHA-512=[password={password}]"


def test_redact_hides_both_passwords(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    text = f"bad [password={tls.console_password()}] store {tls.keystore_password()}"
    assert tls.redact(text) == "bad [password=***] store ***"


def test_client_properties_for_kafka_tools(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    path = tls.write_client_properties()
    assert path == tmp_path.resolve() / "tls" / "client.properties"
    assert path.stat().st_mode & 0o777 == 0o600
    props = _props(path.read_text())
    assert props["security.protocol"] == "SASL_SSL"
    assert props["sasl.mechanism"] == "SCRAM-SHA-512"
    assert props["sasl.jaas.config"] == (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="console" password="{tls.console_password()}";'
    )
    assert props["ssl.truststore.location"] == str(tls.ca_pem())


def test_format_command_adds_the_scram_user(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    monkeypatch.setattr(kafka_cluster, "java", lambda: "java")
    cmd = kafka_cluster.format_command(3, Path("/libs"), "AbCdEfGhIjKlMnOpQrStUv")
    assert cmd[cmd.index("kafka.tools.StorageTool") + 1] == "format"
    assert cmd[cmd.index("-t") + 1] == "AbCdEfGhIjKlMnOpQrStUv"
    assert cmd[cmd.index("--add-scram") + 1] == tls.scram_format_arg()
    assert "--ignore-formatted" in cmd


def test_parse_reached_brokers():
    output = (
        "127.0.0.1:39094 (id: 3 rack: null isFenced: false) -> (\n"
        "\tProduce(0): 3 to 12 [usable: 12],\n"
        ")\n"
        "127.0.0.1:19094 (id: 1 rack: null isFenced: false) -> ERROR: "
        "org.apache.kafka.common.errors.SaslAuthenticationException\n"
        "127.0.0.1:29094 (id: 2 rack: null isFenced: false) -> (\n"
    )
    assert secure_listener.parse_reached(output) == {2, 3}
    assert secure_listener.parse_reached("") == set()


def test_wait_tls_without_a_ca_says_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    with pytest.raises(DevstackError, match="ca.pem is missing.*devstack down && devstack up"):
        secure_listener.wait_tls([1], deadline=0.0)


def test_broker_heap_defaults_to_512_mb_and_can_be_raised(monkeypatch):
    monkeypatch.delenv("DEVSTACK_BROKER_HEAP_MB", raising=False)
    assert config.broker_heap() == ["-Xms384m", "-Xmx512m"]
    monkeypatch.setenv("DEVSTACK_BROKER_HEAP_MB", "1536")
    assert config.broker_heap() == ["-Xms384m", "-Xmx1536m"]


@pytest.mark.parametrize(
    "bad", ["1.5g", "", "100", "99999"], ids=["unit", "empty", "too-small", "too-large"]
)
def test_a_bad_broker_heap_stops_with_the_variable_named(monkeypatch, bad):
    monkeypatch.setenv("DEVSTACK_BROKER_HEAP_MB", bad)
    with pytest.raises(SystemExit, match="DEVSTACK_BROKER_HEAP_MB"):
        config.broker_heap()
