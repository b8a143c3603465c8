"""librdkafka properties for a registered cluster (pure; secrets read here, when used)."""

from __future__ import annotations

from typing import Any

from console.clusters import ClusterConfig, SecretUnavailable
from console.kafka.errors import KafkaCallFailed


def librdkafka_config(cfg: ClusterConfig) -> dict[str, Any]:
    """Every librdkafka setting for one cluster, security and secrets included: never log it."""
    sec = cfg.security
    config: dict[str, Any] = {
        "bootstrap.servers": cfg.bootstrap_servers,
        "security.protocol": sec.protocol,
        # Fail fast rather than hang when the cluster is gone: the API answers 504 instead.
        "socket.connection.setup.timeout.ms": 5000,
        "reconnect.backoff.max.ms": 2000,
        # Notice leadership and broker changes within seconds, not librdkafka's 5 minutes.
        "topic.metadata.refresh.interval.ms": 10000,
    }
    try:
        if sec.uses_sasl:
            config["sasl.mechanism"] = sec.sasl_mechanism
            config["sasl.username"] = sec.sasl_username
            config["sasl.password"] = sec.sasl_password.reveal() if sec.sasl_password else ""
        if sec.uses_tls:
            if sec.ssl_ca_location:
                config["ssl.ca.location"] = sec.ssl_ca_location
            if sec.ssl_certificate_location:
                config["ssl.certificate.location"] = sec.ssl_certificate_location
                config["ssl.key.location"] = sec.ssl_key_location
            if sec.ssl_key_password:
                config["ssl.key.password"] = sec.ssl_key_password.reveal()
            config["ssl.endpoint.identification.algorithm"] = (
                "https" if sec.ssl_check_hostname else "none"
            )
    except SecretUnavailable as exc:
        raise KafkaCallFailed(
            f"Cluster {cfg.name!r} cannot be reached: its secret is not available ({exc}).",
            code="cluster_misconfigured",
        ) from None
    config.update(cfg.client_config)
    return config
