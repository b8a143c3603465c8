import pytest
from django.core.exceptions import ImproperlyConfigured

from console.clusters import Secret, SecretUnavailable, load_registry, parse_registry

DEFAULTS = [
    {"name": "local", "bootstrap_servers": "127.0.0.1:19092,127.0.0.1:29092,127.0.0.1:39092"}
]

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


@pytest.mark.parametrize("how", ["inline", "env", "file"])
def test_a_secret_is_a_reference_whose_repr_never_shows_it(tmp_path, how):
    path = tmp_path / "pw"
    path.write_text("file-s3cret\n")
    value = {"inline": "inline-s3cret", "env": "env-s3cret", "file": "file-s3cret"}[how]
    environ = {"PROD_PW": "env-s3cret", "KEY_PW": "env-s3cret"}
    secrets = {
        "inline": {"sasl_password": value, "ssl_key_password": value},
        "env": {"sasl_password_env": "PROD_PW", "ssl_key_password_env": "KEY_PW"},
        "file": {"sasl_password_file": str(path), "ssl_key_password_file": str(path)},
    }[how]
    entry = {
        **PROD,
        "sasl_password_env": None,
        "ssl_certificate_location": "/c.pem",
        "ssl_key_location": "/k.pem",
        **secrets,
    }
    cluster = parse_registry([entry], environ)["prod"]
    for text in (repr(cluster), str(cluster), repr(cluster.security), repr(cluster.fingerprint())):
        assert value not in text
    for secret in (cluster.security.sasl_password, cluster.security.ssl_key_password):
        assert secret.reveal(environ) == value
        assert (
            repr(secret)
            == {
                "inline": "Secret(inline)",
                "env": f"Secret(env={secret.env!r})",
                "file": f"Secret(file={str(path)!r})",
            }[how]
        )


def test_an_env_secret_is_read_when_used_so_a_changed_value_is_seen():
    secret = parse_registry([PROD], {"PROD_PW": "old"})["prod"].security.sasl_password
    assert secret.reveal({"PROD_PW": "new"}) == "new"
    with pytest.raises(SecretUnavailable, match="PROD_PW"):
        secret.reveal({})


@pytest.mark.parametrize(
    "given, stored",
    [
        ("PLAIN", "PLAIN"),
        ("SCRAM-SHA-256", "SCRAM-SHA-256"),
        ("SCRAM-SHA-512", "SCRAM-SHA-512"),
        ("scram-sha-256", "SCRAM-SHA-256"),
    ],
)
@pytest.mark.parametrize("protocol", ["SASL_SSL", "SASL_PLAINTEXT", "sasl_plaintext"])
def test_sasl_mechanisms_kafka_supports_are_accepted(given, stored, protocol):
    entry = {**PROD, "sasl_mechanism": given, "security_protocol": protocol}
    security = parse_registry([entry], {"PROD_PW": "pw"})["prod"].security
    assert security.sasl_mechanism == stored
    assert security.protocol == protocol.upper() and security.uses_sasl
    assert security.uses_tls == (protocol == "SASL_SSL")


@pytest.mark.parametrize(
    "mechanism", [None, "", "GSSAPI", "OAUTHBEARER", "SCRAM-SHA-1", "SCRAM"], ids=repr
)
def test_other_sasl_mechanisms_are_refused(mechanism):
    with pytest.raises(ImproperlyConfigured, match="sasl_mechanism must be one of"):
        parse_registry([{**PROD, "sasl_mechanism": mechanism}], {"PROD_PW": "pw"})


@pytest.mark.parametrize(
    "prop",
    [
        "sasl.password",
        "sasl.username",
        "sasl.mechanism",
        "sasl.mechanisms",
        "security.protocol",
        "ssl.key.password",
        "ssl.ca.location",
        "bootstrap.servers",
    ],
)
def test_client_config_cannot_carry_security_or_secrets(prop):
    entry = {**PROD, "client_config": {"client.id": "c", prop: "x"}}
    with pytest.raises(ImproperlyConfigured, match=f"set {prop} with the registry field"):
        parse_registry([entry], {"PROD_PW": "pw"})


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


def test_default_bootstrap_only_fills_in_what_is_missing():
    defaults = {"local": "127.0.0.1:19092"}
    given = parse_registry([{"name": "local", "bootstrap_servers": " other:1 "}], {}, defaults)
    assert given["local"].bootstrap_servers == "other:1"
    with pytest.raises(ImproperlyConfigured, match="'remote' needs bootstrap_servers"):
        parse_registry([{"name": "local"}, {"name": "remote"}], {}, defaults)


def test_a_registry_naming_only_local_reaches_the_dev_stack():
    from django.conf import settings

    dev_stack = "127.0.0.1:19092,127.0.0.1:29092,127.0.0.1:39092"
    registry = load_registry({"KAFKA_CLUSTERS": '[{"name": "local"}]'}, DEFAULTS)
    assert registry["local"].bootstrap_servers == dev_stack
    assert registry["local"].security.protocol == "PLAINTEXT"
    assert load_registry({}, settings.DEFAULT_KAFKA_CLUSTERS)["local"].bootstrap_servers == (
        dev_stack
    )


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


def test_a_schema_registry_is_kept_with_its_password_by_reference(tmp_path):
    entry = {
        **PROD,
        "schema_registry_url": "https://sr.example.com/",
        "schema_registry_username": "sr-user",
        "schema_registry_password_file": str(tmp_path / "sr.pw"),
        "schema_registry_ca_location": "/etc/sr-ca.pem",
    }
    registry = parse_registry({"clusters": [entry]}, {"PROD_PW": "x"})["prod"].schema_registry
    assert registry.url == "https://sr.example.com"  # no trailing slash: paths are appended
    assert (registry.username, registry.ca_location) == ("sr-user", "/etc/sr-ca.pem")
    assert registry.password == Secret(file=str(tmp_path / "sr.pw"))
    assert (
        "sr.pw" in repr(registry) and parse_registry(DEFAULTS, {})["local"].schema_registry is None
    )


@pytest.mark.parametrize("url", ["sr.example.com", "ftp://sr", "http://", 5])
def test_a_schema_registry_url_that_is_not_http_stops_start_up(url):
    with pytest.raises(ImproperlyConfigured, match="schema_registry_url"):
        parse_registry([{**DEFAULTS[0], "schema_registry_url": url}], {})
