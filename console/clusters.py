"""The cluster registry: which Kafka clusters this console manages and how to reach them.

Clusters come from `KAFKA_CLUSTERS_FILE` (a JSON file) or `KAFKA_CLUSTERS` (the same JSON as
text); without either, the defaults in settings (`local` and `local-secure`, the dev stack).
The format is in docs/clusters.md. Secrets (SASL password, TLS key password) are kept as
references (`Secret`) and read only when `console.kafka` builds a client; nothing here is
ever serialized to an API response, and a secret's repr never shows its value.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

DEFAULT_CLUSTER = "local"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")

PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")

# librdkafka properties that must come from the registry's own fields, so every client (the
# librdkafka one and the small wire client) speaks the same security settings, and secrets
# are never written inline in `client_config`.
_RESERVED_PROPERTIES = {
    "bootstrap.servers": "bootstrap_servers",
    "security.protocol": "security_protocol",
    "sasl.mechanism": "sasl_mechanism",
    "sasl.mechanisms": "sasl_mechanism",
    "sasl.username": "sasl_username",
    "sasl.password": "sasl_password_env / sasl_password_file",
    "ssl.ca.location": "ssl_ca_location",
    "ssl.certificate.location": "ssl_certificate_location",
    "ssl.key.location": "ssl_key_location",
    "ssl.key.password": "ssl_key_password_env / ssl_key_password_file",
    "ssl.endpoint.identification.algorithm": "ssl_check_hostname",
}


class ClusterNotFound(LookupError):
    def __init__(self, name: str):
        super().__init__(f"There is no cluster named {name!r} in the cluster registry.")
        self.name = name


class SecretUnavailable(Exception):
    """A secret's environment variable or file cannot be read; the message names which."""


@dataclass(frozen=True)
class Secret:
    """A secret given inline, by environment variable or by file, read only when used."""

    inline: str | None = field(default=None, repr=False)
    env: str | None = None
    file: str | None = None

    def reveal(self, environ: Mapping[str, str] = os.environ) -> str:
        if self.env:
            if self.env not in environ:
                raise SecretUnavailable(f"environment variable {self.env} is not set")
            return environ[self.env]
        if self.file:
            try:
                return Path(self.file).read_text().strip()
            except OSError as exc:
                raise SecretUnavailable(
                    f"secret file {self.file} cannot be read ({exc.strerror})"
                ) from None
        return self.inline or ""

    def __repr__(self) -> str:
        where = (
            f"env={self.env!r}" if self.env else f"file={self.file!r}" if self.file else "inline"
        )
        return f"Secret({where})"


@dataclass(frozen=True)
class ClusterSecurity:
    """How to reach a cluster: the transport and authentication every client uses."""

    protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: Secret | None = None
    ssl_ca_location: str | None = None
    ssl_certificate_location: str | None = None
    ssl_key_location: str | None = None
    ssl_key_password: Secret | None = None
    ssl_check_hostname: bool = True

    @property
    def uses_tls(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")

    @property
    def uses_sasl(self) -> bool:
        return self.protocol in ("SASL_PLAINTEXT", "SASL_SSL")


@dataclass(frozen=True)
class SchemaRegistry:
    """A Confluent-API Schema Registry (Confluent's, Apicurio's `ccompat/v7`, Karapace): its
    base URL and, optionally, HTTP basic credentials."""

    url: str
    username: str | None = None
    password: Secret | None = None
    ca_location: str | None = None  # the CA that signed an https registry's certificate


@dataclass(frozen=True)
class ClusterConfig:
    name: str
    bootstrap_servers: str
    security: ClusterSecurity = field(default_factory=ClusterSecurity)
    # Further librdkafka properties (client.id, ...); never secrets, never security settings.
    client_config: Mapping[str, str] = field(default_factory=dict)
    schema_registry: SchemaRegistry | None = None
    # Protected: changes become requests a second person approves (approvals/).
    protected: bool = False

    def fingerprint(self) -> tuple:
        """What identifies this configuration, for caching one client per cluster."""
        return (self.name, self.bootstrap_servers, self.security, tuple(self.client_config.items()))


def _secret(entry: Mapping, key: str, environ: Mapping[str, str]) -> Secret | None:
    """`<key>_env` (checked now: the environment is known at start-up), `<key>_file`
    (read when used: the dev stack writes its files after the console may have started),
    or `<key>` inline."""
    name = entry.get("name")
    if entry.get(f"{key}_env"):
        var = str(entry[f"{key}_env"])
        if var not in environ:
            raise ImproperlyConfigured(f"cluster {name!r}: {var} is not set")
        return Secret(env=var)
    if entry.get(f"{key}_file"):
        return Secret(file=str(entry[f"{key}_file"]))
    if entry.get(key):
        return Secret(inline=str(entry[key]))
    return None


def _text(entry: Mapping, key: str) -> str | None:
    value = entry.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ImproperlyConfigured(f"cluster {entry.get('name')!r}: {key} must be text")
    return value


def _security(entry: Mapping, environ: Mapping[str, str]) -> ClusterSecurity:
    name = entry.get("name")
    protocol = (_text(entry, "security_protocol") or "PLAINTEXT").upper()
    if protocol not in PROTOCOLS:
        raise ImproperlyConfigured(
            f"cluster {name!r}: security_protocol must be one of {', '.join(PROTOCOLS)}"
        )
    security = ClusterSecurity(
        protocol=protocol,
        sasl_mechanism=(_text(entry, "sasl_mechanism") or "").upper() or None,
        sasl_username=_text(entry, "sasl_username"),
        sasl_password=_secret(entry, "sasl_password", environ),
        ssl_ca_location=_text(entry, "ssl_ca_location"),
        ssl_certificate_location=_text(entry, "ssl_certificate_location"),
        ssl_key_location=_text(entry, "ssl_key_location"),
        ssl_key_password=_secret(entry, "ssl_key_password", environ),
        ssl_check_hostname=entry.get("ssl_check_hostname", True) is not False,
    )
    if security.uses_sasl:
        if security.sasl_mechanism not in SASL_MECHANISMS:
            raise ImproperlyConfigured(
                f"cluster {name!r}: sasl_mechanism must be one of {', '.join(SASL_MECHANISMS)}"
            )
        if not security.sasl_username or security.sasl_password is None:
            raise ImproperlyConfigured(
                f"cluster {name!r}: {protocol} needs sasl_username and a sasl_password "
                "(sasl_password_env or sasl_password_file)"
            )
    if bool(security.ssl_certificate_location) != bool(security.ssl_key_location):
        raise ImproperlyConfigured(
            f"cluster {name!r}: ssl_certificate_location and ssl_key_location go together"
        )
    return security


def _schema_registry(entry: Mapping, environ: Mapping[str, str]) -> SchemaRegistry | None:
    url = _text(entry, "schema_registry_url")
    if url is None:
        return None
    if not re.match(r"^https?://[^/\s]+", url):
        raise ImproperlyConfigured(
            f"cluster {entry.get('name')!r}: schema_registry_url must be an http(s) URL"
        )
    return SchemaRegistry(
        url=url.rstrip("/"),
        username=_text(entry, "schema_registry_username"),
        password=_secret(entry, "schema_registry_password", environ),
        ca_location=_text(entry, "schema_registry_ca_location"),
    )


def _client_config(entry: Mapping) -> dict[str, str]:
    extra = entry.get("client_config") or {}
    if not isinstance(extra, dict):
        raise ImproperlyConfigured(
            f"cluster {entry.get('name')!r}: client_config must be an object"
        )
    for prop in extra:
        if prop in _RESERVED_PROPERTIES:
            raise ImproperlyConfigured(
                f"cluster {entry.get('name')!r}: set {prop} with the registry field "
                f"{_RESERVED_PROPERTIES[prop]}, not in client_config"
            )
    return {str(k): str(v) for k, v in extra.items()}


def parse_registry(
    data: object,
    environ: Mapping[str, str],
    default_bootstrap: Mapping[str, str] | None = None,
) -> dict[str, ClusterConfig]:
    """Validate the registry JSON and build ClusterConfig objects, loud on any mistake.

    `default_bootstrap` gives bootstrap servers for names that may omit them (the dev
    stack's `local`).
    """
    entries = data.get("clusters") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise ImproperlyConfigured("cluster registry: expected a non-empty list of clusters")
    registry: dict[str, ClusterConfig] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise ImproperlyConfigured("cluster registry: each cluster must be an object")
        name = entry.get("name", "")
        if not isinstance(name, str) or not _NAME_RE.match(name):
            raise ImproperlyConfigured(f"cluster registry: invalid cluster name {name!r}")
        if name in registry:
            raise ImproperlyConfigured(f"cluster registry: cluster {name!r} is listed twice")
        bootstrap = entry.get("bootstrap_servers") or (default_bootstrap or {}).get(name)
        if not isinstance(bootstrap, str) or not bootstrap.strip():
            raise ImproperlyConfigured(f"cluster registry: {name!r} needs bootstrap_servers")
        protected = entry.get("protected", False)
        if not isinstance(protected, bool):
            raise ImproperlyConfigured(f"cluster {name!r}: protected must be true or false")
        registry[name] = ClusterConfig(
            name,
            bootstrap.strip(),
            _security(entry, environ),
            _client_config(entry),
            _schema_registry(entry, environ),
            protected,
        )
    return registry


def load_registry(
    environ: Mapping[str, str], defaults: list[dict[str, object]]
) -> dict[str, ClusterConfig]:
    """The registry from the environment, or `defaults` (settings) when none is given."""
    path = environ.get("KAFKA_CLUSTERS_FILE")
    raw = environ.get("KAFKA_CLUSTERS")
    default_bootstrap = {
        str(d["name"]): str(d["bootstrap_servers"]) for d in defaults if "bootstrap_servers" in d
    }
    try:
        if path:
            data = json.loads(Path(path).read_text())
        elif raw:
            data = json.loads(raw)
        else:
            data = defaults
    except (OSError, json.JSONDecodeError) as exc:
        raise ImproperlyConfigured(f"cluster registry could not be read: {exc}") from exc
    return parse_registry(data, environ, default_bootstrap)


def get_cluster(name: str) -> ClusterConfig:
    from django.conf import settings

    try:
        return settings.KAFKA_CLUSTERS[name]
    except KeyError:
        raise ClusterNotFound(name) from None


def all_clusters() -> list[ClusterConfig]:
    from django.conf import settings

    return list(settings.KAFKA_CLUSTERS.values())
