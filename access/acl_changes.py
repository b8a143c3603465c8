"""Listing, creating and deleting ACLs on a cluster: previews first, as kafka-acls.sh would act.

A create answers which bindings are new and which already exist (the CLI prints `Acl ...
already exists` and sends only the rest). A delete's preview is the DescribeAcls of its filter,
which the broker matches exactly as DeleteAcls does; the delete itself then removes exactly
the previewed bindings (one exact filter each), so a binding added between the preview and
the delete is never swept away with them.
"""

from __future__ import annotations

from typing import Any

from access.acls import AclBinding
from console import kafka
from console.clusters import ClusterConfig
from console.kafka import KafkaCallFailed
from console.kafka.types import AclFilter
from console.settle import read_until


def _rows(acls: list[AclBinding]) -> list[dict[str, str]]:
    return [acl.as_dict() for acl in sorted(acls)]


def list_acls(cfg: ClusterConfig, flt: AclFilter) -> list[dict[str, str]]:
    return _rows(kafka.for_cluster(cfg).describe_acls(flt))


def _exact(acl: AclBinding) -> AclFilter:
    return AclFilter(
        resource_type=acl.resource_type,
        resource_name=acl.resource_name,
        pattern_type=acl.pattern_type,
        principal=acl.principal,
        host=acl.host,
        operation=acl.operation,
        permission=acl.permission,
    )


def _existing(client: Any, acls: list[AclBinding]) -> set[AclBinding]:
    """Which of `acls` Kafka already holds: one DescribeAcls per resource pattern, as the CLI."""
    patterns = sorted({(a.resource_type, a.resource_name, a.pattern_type) for a in acls})
    held: set[AclBinding] = set()
    for kind, name, pattern in patterns:
        held.update(client.describe_acls(AclFilter(kind, name, pattern)))
    return held & set(acls)


def create_acls(cfg: ClusterConfig, acls: list[AclBinding], dry_run: bool) -> dict[str, Any]:
    client = kafka.for_cluster(cfg)
    wanted = sorted(set(acls))
    existing = _existing(client, wanted)
    new = [a for a in wanted if a not in existing]
    if not dry_run and new:
        refused = {acl: why for acl, why in client.create_acls(new).items() if why}
        if refused:
            acl, why = next(iter(sorted(refused.items())))
            raise KafkaCallFailed(
                f"Kafka refused {len(refused)} of {len(new)} bindings; the first: {why}",
                code="kafka_error",
                details={"refused": [dict(a.as_dict(), error=w) for a, w in refused.items()]},
            )
        # Whoever lists next sees them (the broker asked may apply them a moment later).
        read_until(lambda: _existing(client, new), lambda held: held == set(new))
    return {"dry_run": dry_run, "bindings": _rows(new), "existing": _rows(list(existing))}


def delete_acls(cfg: ClusterConfig, flt: AclFilter, dry_run: bool) -> dict[str, Any]:
    client = kafka.for_cluster(cfg)
    matched = client.describe_acls(flt)
    if dry_run or not matched:
        return {"dry_run": dry_run, "bindings": _rows(matched)}
    deleted = client.delete_acls([_exact(acl) for acl in matched])
    read_until(lambda: client.describe_acls(flt), lambda left: not set(left) & set(deleted))
    return {"dry_run": False, "bindings": _rows(deleted)}
