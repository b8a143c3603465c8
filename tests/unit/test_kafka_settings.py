"""librdkafka properties built from a registry entry (no services)."""

import pytest

from console.clusters import parse_registry
from console.kafka import KafkaCallFailed
from console.kafka.settings import librdkafka_config


def _cluster(tmp_path, **entry):
    return parse_registry([{"name": "c", "bootstrap_servers": "k:9093", **entry}], {})["c"]


def test_sasl_ssl_properties_with_the_password_read_from_its_file(tmp_path):
    secret = tmp_path / "pw"
    secret.write_text("s3cret\n")
    cfg = _cluster(
        tmp_path,
        security_protocol="SASL_SSL",
        sasl_mechanism="scram-sha-512",
        sasl_username="console",
        sasl_password_file=str(secret),
        ssl_ca_location="/ca.pem",
        client_config={"client.id": "kc"},
    )
    props = librdkafka_config(cfg)
    assert props["security.protocol"] == "SASL_SSL"
    assert props["sasl.mechanism"] == "SCRAM-SHA-512"
    assert (props["sasl.username"], props["sasl.password"]) == ("console", "s3cret")
    assert props["ssl.ca.location"] == "/ca.pem"
    assert props["ssl.endpoint.identification.algorithm"] == "https"
    assert props["client.id"] == "kc"
    assert "s3cret" not in repr(cfg)


def test_plaintext_has_no_security_properties(tmp_path):
    props = librdkafka_config(_cluster(tmp_path))
    assert props["security.protocol"] == "PLAINTEXT"
    assert not any(k.startswith(("sasl.", "ssl.")) for k in props)


def test_hostname_check_can_be_turned_off(tmp_path):
    cfg = _cluster(tmp_path, security_protocol="SSL", ssl_check_hostname=False)
    assert librdkafka_config(cfg)["ssl.endpoint.identification.algorithm"] == "none"


def test_a_missing_secret_file_is_a_clear_error_not_a_crash(tmp_path):
    cfg = _cluster(
        tmp_path,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="PLAIN",
        sasl_username="u",
        sasl_password_file=str(tmp_path / "missing"),
    )
    with pytest.raises(KafkaCallFailed) as caught:
        librdkafka_config(cfg)
    assert caught.value.code == "cluster_misconfigured"
    assert "missing" in caught.value.message


def test_the_missing_topic_grace_comes_from_the_settings(tmp_path, settings):
    from console.kafka import client as kafka_client

    settings.KAFKA_TOPIC_GRACE_SECONDS = 0.25
    cfg = _cluster(tmp_path, bootstrap_servers="grace.invalid:9092")
    try:
        assert kafka_client.for_cluster(cfg, timeout=3.0).topic_grace_s == 0.25
    finally:
        kafka_client._clients.pop((cfg.fingerprint(), 3.0), None)
