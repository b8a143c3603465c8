"""The cluster's Schema Registry, through confluent-kafka's client (its REST calls, basic
auth, TLS and per-id cache). Any registry speaking Confluent's API works: Confluent's own,
Apicurio's `ccompat/v7`, Karapace.

Schemas by id never change, so they are cached for the life of the process (the client's own
cache); a registry that cannot be reached answers `RegistryUnavailable` within `TIMEOUT_S`,
and decoding then shows the bytes with that reason instead of waiting on every record.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
from confluent_kafka.schema_registry.error import SchemaRegistryError

from console.clusters import SchemaRegistry
from console.schema_refs import Reference, ReferencedSchema, ReferenceProblem, resolve

TIMEOUT_S = 5.0
# After a failed call, the registry is not asked again for this long (a page of 500 records
# would otherwise wait 500 timeouts).
BACKOFF_S = 10.0

_clients: dict[SchemaRegistry, Registry] = {}
_lock = threading.Lock()


class RegistryUnavailable(Exception):
    """The registry could not be reached or answered an error; the message says which."""


class SchemaNotFound(LookupError):
    pass


@dataclass(frozen=True)
class RegistrySchema:
    id: int
    type: str  # AVRO, PROTOBUF or JSON
    text: str
    # The schemas it imports, directly or not, dependencies first (console/schema_refs.py).
    references: tuple[ReferencedSchema, ...] = ()


def _refs(schema: Schema) -> list[Reference]:
    return [(str(r.name), str(r.subject), int(r.version or 0)) for r in schema.references or []]


class Registry:
    def __init__(self, cfg: SchemaRegistry):
        conf: dict[str, object] = {
            "url": cfg.url,
            "timeout": TIMEOUT_S,
            "max.retries": 0,
        }
        if cfg.username:
            password = cfg.password.reveal() if cfg.password else ""
            conf["basic.auth.user.info"] = f"{cfg.username}:{password}"
        if cfg.ca_location:
            conf["ssl.ca.location"] = cfg.ca_location
        self.url = cfg.url
        self._client = SchemaRegistryClient(conf)
        self._down_until = 0.0
        self._down_reason = ""
        # Subject versions, like ids, never change: references resolved once per schema.
        self._resolved: dict[int, tuple[ReferencedSchema, ...]] = {}

    def _call(self, what, *args):
        if time.monotonic() < self._down_until:
            raise RegistryUnavailable(self._down_reason)
        try:
            return what(*args)
        except SchemaRegistryError as exc:
            if exc.http_status_code == 404:
                raise SchemaNotFound(exc.error_message) from None
            raise RegistryUnavailable(
                f"the Schema Registry answered {exc.http_status_code}: {exc.error_message}"
            ) from None
        except Exception as exc:  # the HTTP layer's own errors: refused, timed out, TLS
            self._down_reason = f"the Schema Registry at {self.url} cannot be reached ({exc})"
            self._down_until = time.monotonic() + BACKOFF_S
            raise RegistryUnavailable(self._down_reason) from None

    def schema(self, schema_id: int) -> RegistrySchema:
        found: Schema = self._call(self._client.get_schema, schema_id)
        return RegistrySchema(
            schema_id,
            (found.schema_type or "AVRO").upper(),
            found.schema_str or "",
            self._references(schema_id, found),
        )

    def _references(self, schema_id: int, found: Schema) -> tuple[ReferencedSchema, ...]:
        """What `found` imports (ReferenceProblem when it cannot be followed)."""
        if not found.references:
            return ()
        if schema_id not in self._resolved:
            self._resolved[schema_id] = resolve(_refs(found), self._version)
        return self._resolved[schema_id]

    def _version(self, subject: str, version: int) -> tuple[str, str, list[Reference]]:
        try:
            got = self._call(self._client.get_version, subject, version)
        except SchemaNotFound:
            raise ReferenceProblem(
                f"the referenced subject {subject!r} version {version} is not in the registry"
            ) from None
        return (got.schema.schema_type or "AVRO"), got.schema.schema_str or "", _refs(got.schema)

    def register(
        self, subject: str, text: str, schema_type: str, references: Sequence[Reference] = ()
    ) -> int:
        """Register (or find) a schema under a subject, with the (name, subject, version) of
        what it imports; its id."""
        refs = [SchemaReference(name, subj, version) for name, subj, version in references]
        schema = Schema(text, schema_type, references=refs)
        return int(self._call(self._client.register_schema, subject, schema))

    def latest(self, subject: str) -> RegistrySchema:
        found = self._call(self._client.get_latest_version, subject)
        return RegistrySchema(
            found.schema_id,
            (found.schema.schema_type or "AVRO").upper(),
            found.schema.schema_str or "",
            self._references(found.schema_id, found.schema),
        )


def for_registry(cfg: SchemaRegistry) -> Registry:
    """One client (and so one schema cache) per registry configuration."""
    with _lock:
        if cfg not in _clients:
            _clients[cfg] = Registry(cfg)
        return _clients[cfg]
