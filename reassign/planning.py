"""A reassignment plan and its preview, from one of three requests: spread topics over
brokers (--generate), change a topic's replication factor, or a plan pasted in the CLI's
JSON. Nothing changes in the cluster here."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, NotFound
from console.metadata import ClusterSnapshot, cache
from reassign import generate, preview
from reassign.plans import ANY_DIR, TP, Target, parse_plan, plan_document
from topics import sizes


def _slots(snap: ClusterSnapshot, ids: list[int] | None = None) -> list[generate.BrokerSlot]:
    brokers = {b.id: b for b in snap.description.brokers}
    if ids is None:
        return [generate.BrokerSlot(b.id, b.rack) for b in snap.description.brokers]
    duplicates = sorted({b for b in ids if ids.count(b) > 1})
    if duplicates:
        raise BadInput("brokers", f"brokers: Broker list contains duplicate entries: {duplicates}")
    unknown = sorted(b for b in ids if b not in brokers)
    if unknown:
        raise BadInput(
            "brokers",
            f"brokers: {', '.join(map(str, unknown))} not live (live: "
            f"{', '.join(map(str, sorted(brokers)))}).",
        )
    return [generate.BrokerSlot(b, brokers[b].rack) for b in sorted(ids)]


def _topic(snap: ClusterSnapshot, name: str, field: str) -> kafka.TopicMeta:
    meta = snap.topic(name)
    if meta is None:
        raise NotFound(
            f"{field}: Topic {name} not found.", code="topic_not_found", details={"field": field}
        )
    return meta


def current_assignment(snap: ClusterSnapshot, topics: set[str]) -> dict[TP, list[int]]:
    return {
        (name, p.partition): list(p.replicas)
        for name in topics
        if (meta := snap.topic(name)) is not None
        for p in meta.partitions
    }


def _targets(assignment: dict[TP, list[int]]) -> list[Target]:
    return [Target(t, p, tuple(r), (ANY_DIR,) * len(r)) for (t, p), r in assignment.items()]


def targets_for(
    snap: ClusterSnapshot, body: dict[str, Any], rng: random.Random | None = None
) -> list[Target]:
    """The plan's targets, from whichever of the three requests `body` is."""
    if body.get("plan") is not None:
        return parse_plan(body["plan"])
    if body.get("topics") is not None:
        names = list(body["topics"])
        duplicates = sorted({t for t in names if names.count(t) > 1})
        if duplicates:
            raise BadInput(
                "topics",
                f"topics: List of topics to reassign contains duplicate entries: {duplicates}",
            )
        metas = {t: _topic(snap, t, "topics") for t in names}
        slots = _slots(snap, body.get("brokers"))
        proposed = generate.generate(
            {t: len(m.partitions) for t, m in metas.items()},
            {t: len(m.partitions[0].replicas) if m.partitions else 1 for t, m in metas.items()},
            slots,
            rng,
        )
        return _targets(proposed)
    name = body["topic"]
    meta = _topic(snap, name, "topic")
    load: Counter[int] = Counter(
        r for t in snap.topics.values() for p in t.partitions for r in p.replicas
    )
    changed = generate.change_replication_factor(
        {p.partition: p.replicas for p in meta.partitions},
        body["replication_factor"],
        _slots(snap),
        load,
    )
    return _targets({(name, p): r for p, r in changed.items()})


def plan(cfg: ClusterConfig, body: dict[str, Any]) -> dict[str, Any]:
    """The proposed and current plans (CLI JSON), the moves with their bytes, the total and
    the time it would take at `throttle_bytes_per_s`."""
    throttle = body.get("throttle_bytes_per_s")
    preview.check_throttle(throttle)
    snap = cache.snapshot(cfg, max_age=0)
    targets = targets_for(snap, body)
    client = kafka.for_cluster(cfg)
    current = current_assignment(snap, {t.topic for t in targets})
    # Each broker's dirs: to check a plan's explicit dirs, and to write the rollback plan with
    # the dir each current replica is in (as the tool's own "current" assignment does).
    involved = {b for t in targets for b in t.replicas} | {b for r in current.values() for b in r}
    dirs_of: dict[int, set[str]] = {}
    dir_of_replica: dict[tuple[str, int, int], str] = {}
    for broker, answer in client.describe_log_dirs(sorted(involved & snap.live_broker_ids)).items():
        if isinstance(answer, list):
            dirs_of[broker] = {d.path for d in answer}
            for d in answer:
                for r in d.replicas:
                    if not r.is_future:
                        dir_of_replica[(r.topic, r.partition, broker)] = d.path
    preview.check_targets(
        targets, current, snap.live_broker_ids, dirs_of, set(client.list_reassignments())
    )
    held = sizes.sizes_or_none(cfg, snap)
    leaders = {
        (t.topic, t.partition): p.leader
        for t in targets
        if (meta := snap.topics.get(t.topic)) is not None
        for p in meta.partitions
        if p.partition == t.partition
    }

    def size_of(tp: TP) -> int | None:
        leader = leaders.get(tp)
        if held is None or leader is None:
            return None
        return held.replica_bytes.get((tp[0], tp[1], leader))

    rows = preview.moves(targets, current, size_of)
    proposed = {t.tp: list(t.replicas) for t in targets}
    document = plan_document(proposed)
    if body.get("plan") is not None:  # the pasted plan as given, log dirs included
        by_tp = {t.tp: t for t in targets}
        for item in document["partitions"]:
            item["log_dirs"] = list(by_tp[(item["topic"], item["partition"])].log_dirs)
    return {
        "proposed": document,
        "current": plan_document({tp: current[tp] for tp in proposed}, dir_of_replica),
        "moves": rows,
        **preview.totals(rows, throttle, leaders),
        "throttle_bytes_per_s": throttle,
    }
