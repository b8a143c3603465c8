"""The cluster registry: which Kafka clusters this console manages and how to reach them.

Clusters come from `KAFKA_CLUSTERS_FILE` (a JSON file) or `KAFKA_CLUSTERS` (the same JSON as
text); without either, one cluster `local` points at the dev stack. The format is in
docs/clusters.md. Secrets (SASL passwords, key passwords) stay in `client_config`, which is
only ever handed to `console.kafka`; nothing here is serialized to API responses.
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

# Friendly keys in the registry file mapped to librdkafka properties.
_FRIENDLY_KEYS = {
    "security_protocol": "security.protocol",
    "sasl_mechanism": "sasl.mechanism",
    "sasl_username": "sasl.username",
    "sasl_password": "sasl.password",
    "ssl_ca_location": "ssl.ca.location",
    "ssl_certificate_location": "ssl.certificate.location",
    "ssl_key_location": "ssl.key.location",
    "ssl_key_password": "ssl.key.password",
}
_SECRET_KEYS = ("sasl_password", "ssl_key_password")


class ClusterNotFound(LookupError):
    def __init__(self, name: str):
        super().__init__(f"There is no cluster named {name!r} in the cluster registry.")
        self.name = name


@dataclass(frozen=True)
class ClusterConfig:
    name: str
    bootstrap_servers: str
    # librdkafka properties beyond bootstrap.servers, secrets included: never serialize.
    client_config: Mapping[str, str] = field(default_factory=dict, repr=False)


def _dev_stack_bootstrap() -> str:
    from console.devstack.config import BOOTSTRAP_SERVERS

    return BOOTSTRAP_SERVERS


def _secret(entry: Mapping, key: str, environ: Mapping[str, str]) -> str | None:
    """A secret given inline, by env var name (`<key>_env`) or by file (`<key>_file`)."""
    if entry.get(f"{key}_env"):
        var = entry[f"{key}_env"]
        if var not in environ:
            raise ImproperlyConfigured(f"cluster {entry.get('name')!r}: {var} is not set")
        return environ[var]
    if entry.get(f"{key}_file"):
        return Path(entry[f"{key}_file"]).read_text().strip()
    return entry.get(key)


def parse_registry(data: object, environ: Mapping[str, str]) -> dict[str, ClusterConfig]:
    """Validate the registry JSON and build ClusterConfig objects, loud on any mistake."""
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
        bootstrap = entry.get("bootstrap_servers")
        if not bootstrap and name == DEFAULT_CLUSTER:
            bootstrap = _dev_stack_bootstrap()
        if not isinstance(bootstrap, str) or not bootstrap.strip():
            raise ImproperlyConfigured(f"cluster registry: {name!r} needs bootstrap_servers")
        config: dict[str, str] = {}
        for key, prop in _FRIENDLY_KEYS.items():
            value = _secret(entry, key, environ) if key in _SECRET_KEYS else entry.get(key)
            if value:
                config[prop] = str(value)
        for prop, value in (entry.get("client_config") or {}).items():
            config[str(prop)] = str(value)
        registry[name] = ClusterConfig(name, bootstrap.strip(), config)
    return registry


def load_registry(environ: Mapping[str, str] = os.environ) -> dict[str, ClusterConfig]:
    path = environ.get("KAFKA_CLUSTERS_FILE")
    raw = environ.get("KAFKA_CLUSTERS")
    try:
        if path:
            data = json.loads(Path(path).read_text())
        elif raw:
            data = json.loads(raw)
        else:
            return {DEFAULT_CLUSTER: ClusterConfig(DEFAULT_CLUSTER, _dev_stack_bootstrap())}
    except (OSError, json.JSONDecodeError) as exc:
        raise ImproperlyConfigured(f"cluster registry could not be read: {exc}") from exc
    return parse_registry(data, environ)


def get_cluster(name: str) -> ClusterConfig:
    from django.conf import settings

    try:
        return settings.KAFKA_CLUSTERS[name]
    except KeyError:
        raise ClusterNotFound(name) from None


def all_clusters() -> list[ClusterConfig]:
    from django.conf import settings

    return list(settings.KAFKA_CLUSTERS.values())
