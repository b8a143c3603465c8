"""Argument parsing, tool argument rewriting and the status JSON shape."""

import json

import pytest

from devtools.devstack import cli, config, tools


def test_parse_simple_commands():
    assert cli.parse_args(["up"]).command == "up"
    assert cli.parse_args(["down", "--wipe"]).wipe is True
    assert cli.parse_args(["status", "--json"]).json is True
    stop = cli.parse_args(["stop-broker", "2", "--kill"])
    assert (stop.command, stop.node, stop.kill) == ("stop-broker", 2, True)
    assert cli.parse_args(["start-broker", "3"]).node == 3
    assert cli.parse_args(["fetch"]).command == "fetch"
    assert cli.parse_args(["spark-up", "--timeout", "30"]).timeout == 30
    assert cli.parse_args(["spark-down"]).command == "spark-down"


def test_parse_rejects_unknown_broker_and_command():
    with pytest.raises(SystemExit):
        cli.parse_args(["stop-broker", "4"])
    with pytest.raises(SystemExit):
        cli.parse_args(["bogus"])
    assert cli.main(["bogus"]) == 2


def test_tool_args_pass_through_verbatim():
    ns = cli.parse_args(["tool", "kafka-topics", "--describe", "--topic", "x", "-h", "--help"])
    assert (ns.command, ns.name) == ("tool", "kafka-topics")
    assert ns.args == ["--describe", "--topic", "x", "-h", "--help"]
    assert cli.parse_args(["tool", "kafka-topics"]).args == []


def test_unknown_tool_is_a_usage_error():
    with pytest.raises(SystemExit):
        cli.parse_args(["tool", "kafka-nope", "--list"])


def test_tool_args_add_bootstrap_in_front():
    assert tools.tool_args("kafka-metadata-quorum", ["describe", "--status"]) == [
        "--bootstrap-server",
        config.BOOTSTRAP_SERVERS,
        "describe",
        "--status",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["--bootstrap-server", "h:1", "--list"],
        ["--bootstrap-server=h:1", "--list"],
        ["--bootstrap-controller", "h:2", "describe"],
    ],
)
def test_tool_args_keep_a_given_bootstrap(args):
    assert tools.tool_args("kafka-topics", args) == args


def test_storage_tool_gets_no_bootstrap():
    assert tools.tool_args("kafka-storage", ["random-uuid"]) == ["random-uuid"]


def test_required_tools_map_to_kafka_main_classes():
    assert tools.TOOLS["kafka-topics"][0] == "org.apache.kafka.tools.TopicCommand"
    assert tools.TOOLS["kafka-consumer-groups"][0] == (
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
    )


def test_status_json_shape_with_nothing_running(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    assert cli.main(["status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "oidc_provider",
        "bootstrap_servers",
        "brokers",
        "redis_url",
        "redis",
        "postgres_url",
        "postgres",
        "kafka_version",
        "state_dir",
        "spark_kafka_jars",
        "secure_bootstrap_servers",
        "security_protocol",
        "sasl_mechanism",
        "sasl_username",
        "sasl_password_file",
        "tls_ca_location",
        "spark",
        "spark_master_url",
        "schema_registry_url",
        "schema_registry",
    }
    assert data["bootstrap_servers"] == config.BOOTSTRAP_SERVERS
    assert data["schema_registry"] == {
        "pid": None,
        "running": False,
        "url": "http://127.0.0.1:18085/apis/ccompat/v7",
    }
    assert data["oidc_provider"] == {"pid": None, "running": False, "url": "http://127.0.0.1:18090"}
    assert data["secure_bootstrap_servers"] == "127.0.0.1:19094,127.0.0.1:29094,127.0.0.1:39094"
    assert (data["security_protocol"], data["sasl_mechanism"]) == ("SASL_SSL", "SCRAM-SHA-512")
    # Where the password is, never the password itself.
    assert data["sasl_password_file"] == str(tmp_path / "tls" / "console.password")
    assert data["tls_ca_location"] == str(tmp_path / "tls" / "ca.pem")
    assert data["brokers"] == [
        {
            "id": n,
            "port": config.broker_port(n),
            "secure_port": config.secure_port(n),
            "pid": None,
            "running": False,
        }
        for n in (1, 2, 3)
    ]
    assert data["redis"] == {"pid": None, "running": False}
    assert data["redis_url"] == config.REDIS_URL
    assert data["postgres"] == {"pid": None, "running": False, "url": config.POSTGRES_URL}
    assert data["postgres_url"] == "postgres://console@127.0.0.1:15432/console"
    assert data["state_dir"] == str(tmp_path.resolve())
    assert isinstance(data["spark_kafka_jars"], list)
    assert data["spark_master_url"] is None
    assert data["spark"]["running"] is False and data["spark"]["master_pid"] is None
    assert data["spark"]["master_url"] == "spark://127.0.0.1:17077"


def test_status_ignores_pid_file_of_a_foreign_process(monkeypatch, tmp_path):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    node = config.node_dir(1)
    node.mkdir(parents=True)
    (node / "kafka.pid").write_text("1\n")  # pid 1 is alive but is not our JVM
    assert cli.status_data()["brokers"][0] == {
        "id": 1,
        "port": 19092,
        "secure_port": 19094,
        "pid": None,
        "running": False,
    }


def test_text_status(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DEVSTACK_DIR", str(tmp_path))
    assert cli.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "broker 1" in out and "stopped" in out and config.BOOTSTRAP_SERVERS in out


def test_the_consoles_default_clusters_use_the_dev_stacks_registry():
    from django.conf import settings

    assert settings.DEV_SCHEMA_REGISTRY_URL == config.SCHEMA_REGISTRY_URL
    for cluster in settings.KAFKA_CLUSTERS.values():
        assert cluster.schema_registry.url == config.SCHEMA_REGISTRY_URL


def test_oidc_env_prints_the_consoles_settings_for_the_dev_provider(capsys):
    assert cli.main(["oidc-env"]) == 0
    lines = capsys.readouterr().out.splitlines()
    exported = dict(line.removeprefix("export ").split("=", 1) for line in lines)
    assert exported["OIDC_RP_CLIENT_ID"] == config.OIDC_CLIENT_ID
    assert exported["OIDC_OP_JWKS_ENDPOINT"] == "http://127.0.0.1:18090/o/.well-known/jwks.json"
    # The JSON mapping is shell-quoted: `eval` gives the console exactly this text.
    assert json.loads(exported["CONSOLE_OIDC_GROUP_ROLES"].strip("'")) == config.OIDC_GROUP_ROLES
