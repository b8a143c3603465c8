"""A registered cluster's connection as options of Spark's Kafka source and sink.

Spark's Kafka connector is the Java client, so librdkafka's settings (console.kafka) are
translated to Java client names, each prefixed `kafka.`. The result holds secrets (a JAAS
line with the password, key material): it goes only into the job's 0600 spec file, never on
a command line or into a log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from console.clusters import ClusterConfig
from console.kafka.settings import librdkafka_config

# librdkafka properties that mean the same, under the same name, to the Java client.
_SAME_NAME = ("client.id", "request.timeout.ms", "metadata.max.age.ms")
_LOGIN_MODULES = {
    "PLAIN": "org.apache.kafka.common.security.plain.PlainLoginModule",
    "SCRAM-SHA-256": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "SCRAM-SHA-512": "org.apache.kafka.common.security.scram.ScramLoginModule",
}
SECRET_OPTIONS = frozenset(
    {"kafka.sasl.jaas.config", "kafka.ssl.keystore.key", "kafka.ssl.key.password"}
)


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def from_librdkafka(conf: dict[str, Any], read: Any = None) -> dict[str, str]:
    """Java-client options for a librdkafka config; `read(path)` reads key material."""
    read = read or (lambda path: Path(path).read_text())
    opts = {
        "kafka.bootstrap.servers": str(conf["bootstrap.servers"]),
        "kafka.security.protocol": str(conf.get("security.protocol", "PLAINTEXT")),
    }
    mechanism = conf.get("sasl.mechanism")
    if mechanism:
        opts["kafka.sasl.mechanism"] = str(mechanism)
        opts["kafka.sasl.jaas.config"] = (
            f"{_LOGIN_MODULES[str(mechanism)]} required "
            f"username={_quoted(str(conf.get('sasl.username', '')))} "
            f"password={_quoted(str(conf.get('sasl.password', '')))};"
        )
    if conf.get("ssl.ca.location"):
        opts["kafka.ssl.truststore.type"] = "PEM"
        opts["kafka.ssl.truststore.location"] = str(conf["ssl.ca.location"])
    if conf.get("ssl.certificate.location"):
        opts["kafka.ssl.keystore.type"] = "PEM"
        opts["kafka.ssl.keystore.certificate.chain"] = read(conf["ssl.certificate.location"])
        opts["kafka.ssl.keystore.key"] = read(conf["ssl.key.location"])
        if conf.get("ssl.key.password"):
            opts["kafka.ssl.key.password"] = str(conf["ssl.key.password"])
    if "ssl.endpoint.identification.algorithm" in conf:
        check = conf["ssl.endpoint.identification.algorithm"] == "https"
        opts["kafka.ssl.endpoint.identification.algorithm"] = "https" if check else ""
    for name in _SAME_NAME:
        if name in conf:
            opts[f"kafka.{name}"] = str(conf[name])
    return opts


def spark_kafka_options(cfg: ClusterConfig) -> dict[str, str]:
    return from_librdkafka(librdkafka_config(cfg))


def masked(options: dict[str, str]) -> dict[str, str]:
    """The options as they may be logged."""
    return {k: ("******" if k in SECRET_OPTIONS else v) for k, v in options.items()}


def schema_registry_options(cfg: ClusterConfig) -> dict[str, str | None] | None:
    """How a job reaches the cluster's Schema Registry; None when it has none."""
    registry = cfg.schema_registry
    if registry is None:
        return None
    return {
        "url": registry.url,
        "username": registry.username,
        "password": registry.password.reveal() if registry.password else None,
        "ca_location": registry.ca_location,
    }
