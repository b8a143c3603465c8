"""The two errors the adapter raises; the API maps them to 504 and 502."""

from __future__ import annotations

from typing import Any


class KafkaAdapterError(Exception):
    """Base of the errors this adapter raises; `message` is a sentence for people."""

    def __init__(self, message: str, *, code: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.details = details or {}


class KafkaTimeout(KafkaAdapterError):
    """Kafka did not answer in time (unreachable, or every broker down)."""


class KafkaCallFailed(KafkaAdapterError):
    """Kafka answered, with an error; `kafka_error` is its name (e.g. INVALID_CONFIG).

    Also: the cluster refused our credentials (`kafka_auth_failed`), the TLS handshake
    failed (`kafka_tls_failed`), its settings cannot be used (`cluster_misconfigured`), or a
    broker is too old for the wire client (`kafka_version_unsupported`).
    """

    @property
    def kafka_error(self) -> str | None:
        return self.details.get("kafka_error")
