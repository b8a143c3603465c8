"""Listing and changing client quotas on a cluster, as kafka-configs.sh does.

A change reads the entity first (a delete of a key that is not set is refused, as the CLI
refuses it), sends one AlterClientQuotas, and answers the values before and after, read back
from Kafka once the broker asked has applied the change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from access import quotas
from console import kafka
from console.clusters import ClusterConfig
from console.kafka.types import QuotaEntity
from console.settle import read_until


def _row(found: QuotaEntity, values: Mapping[str, float]) -> dict[str, Any]:
    return {"entity": quotas.entity_json(found), "values": quotas.values_json(found, values)}


def list_quotas(cfg: ClusterConfig, entity_types: list[str] | None = None) -> list[dict[str, Any]]:
    """Every entity with a quota, or those of exactly `entity_types` (Kafka's: user,
    client-id, ip), named or default, as `--describe --entity-type` lists them."""
    found = kafka.for_cluster(cfg).describe_client_quotas(entity_types=entity_types)
    return [_row(e, found[e]) for e in sorted(found, key=quotas.sort_key)]


def alter(
    cfg: ClusterConfig, spec: Mapping[str, Any], set_values: Mapping[str, object], delete: list[str]
) -> dict[str, Any]:
    found = quotas.entity(spec)
    client = kafka.for_cluster(cfg)

    def now() -> dict[str, float]:
        return client.describe_client_quotas(entity=found).get(found, {})

    before = now()
    to_set, remove = quotas.changes(found, set_values, delete, before)
    client.alter_client_quotas(found, to_set, remove)
    expected = {k: v for k, v in before.items() if k not in remove} | to_set
    after = read_until(now, lambda values: values == expected)
    return _row(found, after) | {"before": quotas.values_json(found, before)}
