"""Running a plan: throttles set exactly as kafka-reassign-partitions.sh --execute sets them,
then AlterPartitionReassignments; progress per partition; completion that removes the
throttles this reassignment set (and only those), as --verify does; cancel; a new throttle.

One console reassignment runs per cluster at a time, and none starts while Kafka lists any
reassignment (the tool's rule without --additional): a partition moves once at a time, and
the throttles of two overlapping moves would be cleared by whichever ended first.
`settle` is idempotent (state changes are conditional updates), so the worker's watcher and
any page reading a reassignment may both call it; a reassignment the console lost sight of
(restarted) is found again from its row and from ListPartitionReassignments.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.utils import timezone

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput, Conflict
from console.metadata import cache
from reassign import planning, throttles
from reassign.models import Reassignment
from reassign.plans import TP, parse_plan, replicas_of

log = logging.getLogger(__name__)

# A Metadata answer that contradicts the controller is asked again this often, this far apart,
# before a reassignment is called failed.
SETTLE_RETRIES, SETTLE_RETRY_S = 3, 1.0

State = Reassignment.State


def _name(tp: TP) -> str:
    return f"{tp[0]}-{tp[1]}"


def execute(
    cfg: ClusterConfig,
    doc: Any,
    throttle: int | None,
    reason: str,
    actor: str,
) -> Reassignment:
    """Start the plan `doc` (the tool's JSON); refused with nothing changed when it cannot."""
    preview = planning.plan(cfg, {"plan": doc, "throttle_bytes_per_s": throttle})
    if Reassignment.objects.filter(cluster=cfg.name, state=State.RUNNING).exists():
        raise Conflict(
            "Another reassignment started here is still running on this cluster: wait for "
            "it to finish or cancel it.",
            code="reassignment_in_progress",
        )
    client = kafka.for_cluster(cfg)
    moving = client.list_reassignments()
    if moving:
        shown = ", ".join(_name(tp) for tp in sorted(moving)[:5])
        raise Conflict(
            f"Cannot execute because there is an existing partition reassignment ({shown}"
            f"{', ...' if len(moving) > 5 else ''}): wait for it to finish or cancel it.",
            code="reassignment_in_progress",
        )
    targets = parse_plan(doc)
    current = replicas_of(preview["current"])
    moves = throttles.move_map(targets, current, {})
    topic_limits = throttles.topic_throttles(moves) if throttle else {}
    broker_limits = throttles.broker_throttles(moves, throttle) if throttle else {}
    r = Reassignment.objects.create(
        cluster=cfg.name,
        throttle_bytes_per_s=throttle,
        plan=preview["proposed"],
        rollback=preview["current"],
        bytes_total={_name((m["topic"], m["partition"])): m["bytes"] for m in preview["moves"]},
        throttled_topics=sorted(topic_limits),
        throttled_brokers=sorted(broker_limits),
        reason=reason,
        created_by=actor,
    )
    try:
        for broker, limits in broker_limits.items():
            client.alter_broker_configs(broker, limits, [])
        for topic, limits in topic_limits.items():
            client.alter_topic_configs(topic, limits, [])
        refused = {
            tp: why
            for tp, why in client.alter_reassignments(
                {t.tp: list(t.replicas) for t in targets}
            ).items()
            if why
        }
    except kafka.KafkaAdapterError as exc:
        _give_up(cfg, client, r, f"Kafka did not take the reassignment: {exc.message}")
        raise
    if refused:
        accepted = [t.tp for t in targets if t.tp not in refused]
        if accepted:
            client.alter_reassignments(dict.fromkeys(accepted))  # back: nothing changes
        why = "; ".join(f"{_name(tp)}: {e}" for tp, e in sorted(refused.items()))
        _give_up(cfg, client, r, f"Error reassigning partition(s): {why}")
        raise BadInput("plan", f"plan: Kafka refused the reassignment of {why}")
    cache.invalidate(cfg.name)
    return r


def _give_up(cfg: ClusterConfig, client: kafka.ClusterClient, r: Reassignment, error: str) -> None:
    try:
        remove_throttles(cfg, client, r)
    except kafka.KafkaAdapterError as exc:
        error += f" (its throttles could not all be removed: {exc.message})"
    Reassignment.objects.filter(pk=r.pk).update(
        state=State.FAILED, error=error, finished_at=timezone.now()
    )
    r.refresh_from_db()


def remove_throttles(cfg: ClusterConfig, client: kafka.ClusterClient, r: Reassignment) -> None:
    """Delete the throttle configs this reassignment set: the two rates on its brokers and
    the two replica lists on its topics (a throttle set on any other topic stays). Deleting a
    key that is no longer set is a no-op for Kafka, so this may run twice."""
    live = cache.snapshot(cfg).live_broker_ids
    for broker in r.throttled_brokers:
        if broker in live:  # a stopped broker is cleared when it is back (settle again)
            client.alter_broker_configs(broker, {}, list(throttles.BROKER_KEYS))
    for topic in r.throttled_topics:
        try:
            client.alter_topic_configs(topic, {}, list(throttles.TOPIC_KEYS))
        except kafka.KafkaCallFailed as exc:
            if exc.kafka_error != "UNKNOWN_TOPIC_OR_PART":  # deleted meanwhile: nothing left
                raise


def settle(cfg: ClusterConfig, r: Reassignment) -> Reassignment:
    """Complete a running reassignment whose partitions no longer move: throttles removed,
    then `completed` (replicas as planned) or `failed` (someone changed them)."""
    if r.state != State.RUNNING:
        return r
    client = kafka.for_cluster(cfg)
    planned = replicas_of(r.plan)
    moving = client.list_reassignments()
    if any(tp in moving for tp in planned):
        return r
    snap = cache.snapshot(cfg, max_age=0)
    if any(broker not in snap.live_broker_ids for broker in r.throttled_brokers):
        return r  # its throttle is cleared once it is back
    # Kafka's controller says nothing moves, but the broker that answers Metadata may not
    # have applied the last change yet (it still lists the replicas being removed): ask
    # again before calling the plan's replicas changed by someone else.
    differ = _differing(snap, planned)
    for _ in range(SETTLE_RETRIES):
        if not differ:
            break
        time.sleep(SETTLE_RETRY_S)
        snap = cache.snapshot(cfg, max_age=0)
        differ = _differing(snap, planned)
    remove_throttles(cfg, client, r)
    names = [_name(tp) for tp in sorted(differ)]
    state = State.FAILED if differ else State.COMPLETED
    error = f"replicas differ from the plan: {', '.join(names)}" if differ else ""
    Reassignment.objects.filter(pk=r.pk, state=State.RUNNING).update(
        state=state, error=error, finished_at=timezone.now()
    )
    r.refresh_from_db()
    return r


def _differing(snap: Any, planned: dict[TP, list[int]]) -> dict[TP, list[int] | None]:
    """The planned partitions whose replicas in `snap` are not the plan's (None: gone)."""
    found: dict[TP, list[int] | None] = {}
    for tp, replicas in planned.items():
        meta = snap.topic(tp[0])
        now = (
            next((p.replicas for p in meta.partitions if p.partition == tp[1]), None)
            if meta
            else None
        )
        if now != replicas:
            found[tp] = list(now) if now is not None else None
    return found


def cancel(cfg: ClusterConfig, r: Reassignment) -> Reassignment:
    """Stop the moves still running (their partitions go back to their replicas before),
    then remove the throttles."""
    if r.state != State.RUNNING:
        raise Conflict(f"Reassignment {r.pk} is {r.state}, not running.", code="not_running")
    client = kafka.for_cluster(cfg)
    moving = client.list_reassignments()
    ours = [tp for tp in replicas_of(r.plan) if tp in moving]
    if ours:
        refused = {
            tp: why
            for tp, why in client.alter_reassignments(dict.fromkeys(ours)).items()
            if why and not why.startswith("NO_REASSIGNMENT_IN_PROGRESS")
        }
        if refused:
            why = "; ".join(f"{_name(tp)}: {e}" for tp, e in sorted(refused.items()))
            raise Conflict(f"Kafka refused to cancel {why}", code="cancel_refused")
    remove_throttles(cfg, client, r)
    Reassignment.objects.filter(pk=r.pk, state=State.RUNNING).update(
        state=State.CANCELLED, finished_at=timezone.now()
    )
    cache.invalidate(cfg.name)
    r.refresh_from_db()
    return r


def change_throttle(cfg: ClusterConfig, r: Reassignment, throttle: int) -> Reassignment:
    """A new rate on every broker of the move (and the replica lists, when it ran without)."""
    from reassign.preview import check_throttle

    if throttle is None:
        raise BadInput("throttle_bytes_per_s", "throttle_bytes_per_s: give a rate in bytes/s.")
    check_throttle(throttle)
    if r.state != State.RUNNING:
        raise Conflict(f"Reassignment {r.pk} is {r.state}, not running.", code="not_running")
    client = kafka.for_cluster(cfg)
    moves = throttles.move_map(parse_plan(r.plan), replicas_of(r.rollback), {})
    topic_limits = throttles.topic_throttles(moves)
    broker_limits = throttles.broker_throttles(moves, throttle)
    r.throttled_topics = sorted(set(r.throttled_topics) | set(topic_limits))
    r.throttled_brokers = sorted(set(r.throttled_brokers) | set(broker_limits))
    r.throttle_bytes_per_s = throttle
    r.save(update_fields=["throttled_topics", "throttled_brokers", "throttle_bytes_per_s"])
    for broker, limits in broker_limits.items():
        client.alter_broker_configs(broker, limits, [])
    for topic, limits in topic_limits.items():
        client.alter_topic_configs(topic, limits, [])
    return r
