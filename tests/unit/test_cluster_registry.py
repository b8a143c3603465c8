import pytest
from django.core.exceptions import ImproperlyConfigured

from console.clusters import Secret, SecretUnavailable, load_registry, parse_registry

PROD = {
    "name": "prod",
    "bootstrap_servers": "k1:9093,k2:9093",
    "security_protocol": "SASL_SSL",
    "sasl_mechanism": "SCRAM-SHA-512",
    "sasl_username": "console",
    "sasl_password_env": "PROD_PW",
    "ssl_ca_location": "/etc/kafka/ca.pem",
    "client_config": {"client.id": "kafka-console"},
}


def test_registry_keeps_security_fields_and_secrets_by_reference():
    prod = parse_registry({"clusters": [PROD]}, {"PROD_PW": "s3cret"})["prod"]
    assert prod.bootstrap_servers == "k1:9093,k2:9093"
    sec = prod.security
    assert (sec.protocol, sec.sasl_mechanism, sec.sasl_username) == (
        "SASL_SSL",
        "SCRAM-SHA-512",
        "console",
    )
    assert sec.uses_tls and sec.uses_sasl and sec.ssl_check_hostname
    assert sec.sasl_password == Secret(env="PROD_PW")
    assert sec.sasl_password.reveal({"PROD_PW": "s3cret"}) == "s3cret"
    assert prod.client_config == {"client.id": "kafka-console"}


def test_no_secret_in_any_repr(tmp_path):
    inline = parse_registry([{**PROD, "sasl_password_env": None, "sasl_password": "s3cret"}], {})
    assert "s3cret" not in repr(inline["prod"])
    assert inline["prod"].security.sasl_password.reveal() == "s3cret"


def test_a_secret_file_is_read_when_used_not_at_start_up(tmp_path):
    path = tmp_path / "pw"
    entry = {**PROD, "sasl_password_env": None, "sasl_password_file": str(path)}
    secret = parse_registry([entry], {})["prod"].security.sasl_password  # no file yet: fine
    with pytest.raises(SecretUnavailable, match=str(path)):
        secret.reveal()
    path.write_text("from-file\n")
    assert secret.reveal() == "from-file"


def test_local_takes_its_bootstrap_servers_from_the_defaults():
    registry = parse_registry([{"name": "local"}], {}, {"local": "127.0.0.1:19092"})
    assert registry["local"].bootstrap_servers == "127.0.0.1:19092"
    assert registry["local"].security.protocol == "PLAINTEXT"


def test_without_a_registry_the_settings_defaults_are_used():
    defaults = [{"name": "local", "bootstrap_servers": "h:1"}]
    assert list(load_registry({}, defaults)) == ["local"]
    explicit = load_registry({"KAFKA_CLUSTERS": '[{"name": "x", "bootstrap_servers": "y:2"}]'}, [])
    assert explicit["x"].bootstrap_servers == "y:2"


@pytest.mark.parametrize(
    "data, fragment",
    [
        ([], "non-empty list"),
        ([{"name": "bad name!", "bootstrap_servers": "x:1"}], "invalid cluster name"),
        (
            [{"name": "a", "bootstrap_servers": "x:1"}, {"name": "a", "bootstrap_servers": "y:1"}],
            "twice",
        ),
        ([{"name": "remote"}], "needs bootstrap_servers"),
        ([{**PROD, "sasl_password_env": "MISSING"}], "MISSING"),
        ([{**PROD, "security_protocol": "SASL_TLS"}], "security_protocol"),
        ([{**PROD, "sasl_mechanism": "GSSAPI"}], "sasl_mechanism"),
        ([{**PROD, "sasl_username": None}], "sasl_username"),
        ([{**PROD, "client_config": {"sasl.password": "x"}}], "sasl.password"),
        ([{**PROD, "client_config": {"security.protocol": "SSL"}}], "security_protocol"),
        (
            [{"name": "m", "bootstrap_servers": "x:1", "ssl_certificate_location": "/c.pem"}],
            "go together",
        ),
    ],
    ids=[
        "empty",
        "bad-name",
        "duplicate",
        "no-bootstrap",
        "env-missing",
        "unknown-protocol",
        "unknown-mechanism",
        "sasl-without-user",
        "secret-in-client-config",
        "security-in-client-config",
        "cert-without-key",
    ],
)
def test_registry_rejects_mistakes_loudly(data, fragment):
    with pytest.raises(ImproperlyConfigured, match=fragment):
        parse_registry(data, {"PROD_PW": "pw"})
