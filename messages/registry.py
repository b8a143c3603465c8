"""The cluster's Schema Registry as the decoders and encoders see it: schemas by id or by
subject, each failure a `SchemaProblem` that says why."""

from __future__ import annotations

from console.clusters import ClusterConfig
from console.kafka.registry import RegistrySchema, RegistryUnavailable, SchemaNotFound, for_registry
from console.schema_refs import ReferenceProblem
from messages.decoding import SchemaSource
from messages.encoding import SchemaLookup
from messages.schemas import SchemaProblem


def schema_source(cfg: ClusterConfig) -> SchemaSource | None:
    """Schemas by id from the cluster's registry; None when the cluster has none."""
    if cfg.schema_registry is None:
        return None
    registry = for_registry(cfg.schema_registry)

    def schema(schema_id: int) -> RegistrySchema:
        try:
            return registry.schema(schema_id)
        except SchemaNotFound:
            raise SchemaProblem("the Schema Registry has no schema with this id") from None
        except (RegistryUnavailable, ReferenceProblem) as exc:
            raise SchemaProblem(str(exc)) from None

    return schema


def schema_lookup(cfg: ClusterConfig) -> SchemaLookup | None:
    """The schema a produced part is written with, by id or as its subject's latest version;
    None when the cluster has no registry."""
    if cfg.schema_registry is None:
        return None
    registry = for_registry(cfg.schema_registry)

    def schema(schema_id: int | None, subject: str | None) -> RegistrySchema:
        try:
            if schema_id is not None:
                return registry.schema(schema_id)
            assert subject is not None
            return registry.latest(subject)
        except SchemaNotFound:
            what = f"schema id {schema_id}" if schema_id is not None else f"subject {subject!r}"
            raise SchemaProblem(f"the Schema Registry has no {what}") from None
        except (RegistryUnavailable, ReferenceProblem) as exc:
            raise SchemaProblem(str(exc)) from None

    return schema
