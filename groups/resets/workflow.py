"""Offset resets end to end: scope, cluster state, plan, safety checks, execution, undo.

Steps of a reset (dry run or not):
1. Parse the strategy's input (dates, durations, CSV) and resolve the scope to partitions,
   as ConsumerGroupCommand selects them (all topics: the partitions the group committed on;
   a topic: all its partitions; listed partitions: exactly those; from_file: the file's rows).
2. Fetch the group's committed offsets, log start/end (and offsets for a time) in batches.
3. Plan with `groups.resets.planner` (the tool's rules), and look up when each new offset was
   written.
4. Dry run: store and return the plan (a preview). Execute a preview by its id: refuse while
   the group has members (409), take the group's reset lock (a second reset at once gets
   409), re-read the group's committed offsets and the partitions' log ranges, and refuse
   (409 `plan_stale`, naming what changed) unless the plan still holds; then commit exactly
   the planned offsets and store the per-partition outcome.
Auditing is the views' job: these functions raise or return, and the view records both.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from console import kafka
from console.clusters import ClusterConfig, get_cluster
from console.errors import BadInput, Conflict, NotFound
from console.metadata import ClusterSnapshot, cache
from groups.models import GroupResetLock, OffsetReset
from groups.partitions import TP, TopicPartition
from groups.resets.changes import describe_group, is_inactive, refuse_if_active
from groups.resets.planner import PartitionState, PlannedPartition, Strategy, plan
from groups.resets.strategies import parse_datetime_ms, parse_duration_ms, parse_offsets_csv

STALE_LOCK_AFTER = timedelta(minutes=10)


def build_strategy(spec: dict[str, Any], group_id: str, now_ms: int | None = None) -> Strategy:
    """A Strategy from the request's validated `strategy` object; bad values name the field."""
    kind = spec["type"]
    if kind == "to_offset":
        return Strategy(kind, offset=_required_int(spec, "offset"))
    if kind == "shift_by":
        return Strategy(kind, shift=_required_int(spec, "shift"))
    if kind == "to_datetime":
        return Strategy(kind, timestamp_ms=parse_datetime_ms(_required(spec, "datetime")))
    if kind == "by_duration":
        duration = parse_duration_ms(_required(spec, "duration"))
        now = now_ms if now_ms is not None else int(time.time() * 1000)
        if now - duration < 0:
            raise BadInput(
                "strategy.duration", "strategy.duration: reaches back before 1970-01-01."
            )
        return Strategy(kind, timestamp_ms=now - duration)
    if kind == "from_file":
        return Strategy(kind, file_offsets=parse_offsets_csv(_required(spec, "csv"), group_id))
    return Strategy(kind)


def _required(spec: dict[str, Any], key: str) -> Any:
    value = spec.get(key)
    if value is None or value == "":
        raise BadInput(
            f"strategy.{key}", f"strategy.{key}: required for strategy {spec['type']!r}."
        )
    return value


def _required_int(spec: dict[str, Any], key: str) -> int:
    value = _required(spec, key)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadInput(f"strategy.{key}", f"strategy.{key}: must be a whole number.")
    try:
        return int(value)
    except ValueError:
        raise BadInput(
            f"strategy.{key}", f"strategy.{key}: must be a whole number, not {value!r}."
        ) from None


def _partitions_of(
    snap: ClusterSnapshot, topic: str, field: str, wanted: Iterable[int] = ()
) -> list[int]:
    partitions = snap.partitions_of(topic, wanted)
    if partitions is None:
        raise BadInput(field, f"{field}: topic {topic!r} does not exist.")
    return partitions


def resolve_scope(
    scope: dict[str, Any],
    strategy: Strategy,
    snap: ClusterSnapshot,
    committed: dict[TP, int | None],
) -> list[TopicPartition]:
    if strategy.type == "from_file":
        assert strategy.file_offsets is not None
        for topic, partition in strategy.file_offsets:
            if partition not in _partitions_of(snap, topic, "strategy.csv", [partition]):
                raise BadInput(
                    "strategy.csv", f"strategy.csv: topic {topic!r} has no partition {partition}."
                )
        return sorted(map(TopicPartition._make, strategy.file_offsets))
    if scope.get("all_topics"):
        return sorted(TopicPartition(*tp) for tp, offset in committed.items() if offset is not None)
    selected: set[TopicPartition] = set()
    for index, item in enumerate(scope.get("topics") or []):
        field = f"scope.topics[{index}]"
        wanted = item.get("partitions")
        existing = _partitions_of(snap, item["topic"], f"{field}.topic", wanted or ())
        if wanted is None:
            selected.update(TopicPartition(item["topic"], p) for p in existing)
            continue
        for partition in wanted:
            if partition not in existing:
                raise BadInput(
                    f"{field}.partitions",
                    f"{field}.partitions: topic {item['topic']!r} has no partition {partition}.",
                )
            selected.add(TopicPartition(item["topic"], partition))
    return sorted(selected)


def _offsets_or_fail(results: dict[TP, Any], what: str) -> dict[TP, kafka.OffsetResult]:
    for key, result in sorted(results.items()):
        if isinstance(result, kafka.KafkaAdapterError):
            tp = TopicPartition(*key)
            raise type(result)(
                f"Could not read the {what} of partition {tp.label}: {result.message}",
                code=result.code,
                details={"topic": tp.topic, "partition": tp.partition},
            )
    return results


def gather_states(
    cfg: ClusterConfig, tps: Sequence[TP], committed: dict[TP, int | None], strategy: Strategy
) -> dict[TP, PartitionState]:
    client = kafka.for_cluster(cfg)
    starts = _offsets_or_fail(client.list_offsets(tps, "earliest"), "log start")
    ends = _offsets_or_fail(client.list_offsets(tps, "latest"), "log end")
    for_time: dict[TP, kafka.OffsetResult] = {}
    if strategy.timestamp_ms is not None:
        for_time = _offsets_or_fail(
            client.list_offsets(tps, strategy.timestamp_ms), "offset for the time"
        )
    return {
        tp: PartitionState(
            committed=committed.get(tp),
            log_start=starts[tp].offset,
            log_end=ends[tp].offset,
            offset_for_time=for_time[tp].offset if tp in for_time else None,
        )
        for tp in tps
    }


def plan_rows(cfg: ClusterConfig, planned: list[PlannedPartition]) -> list[dict[str, Any]]:
    """The plan as API rows, with the write time of the record at each new offset."""
    peek = {
        (p.topic, p.partition): p.new_offset for p in planned if p.new_offset < p.log_end_offset
    }
    stamps = kafka.for_cluster(cfg).record_timestamps(peek)
    rows = []
    for p in planned:
        ts = stamps.get((p.topic, p.partition))
        rows.append(
            {
                "topic": p.topic,
                "partition": p.partition,
                "current_offset": p.current_offset,
                "new_offset": p.new_offset,
                "log_start_offset": p.log_start_offset,
                "log_end_offset": p.log_end_offset,
                "lag_before": p.lag_before,
                "lag_after": p.lag_after,
                "clamped": p.clamped,
                "new_offset_timestamp": _iso(ts),
            }
        )
    return rows


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _GroupLock:
    def __init__(self, cluster: str, group_id: str, holder: str):
        self.key = {"cluster": cluster, "group_id": group_id}
        self.holder = holder

    def __enter__(self) -> None:
        GroupResetLock.objects.filter(
            **self.key, acquired_at__lt=timezone.now() - STALE_LOCK_AFTER
        ).delete()
        try:
            with transaction.atomic():
                GroupResetLock.objects.create(**self.key, holder=self.holder)
        except IntegrityError:
            lock = GroupResetLock.objects.filter(**self.key).first()
            who = f" by {lock.holder} at {lock.acquired_at:%H:%M:%S}Z" if lock else ""
            raise Conflict(
                f"Another offset reset of group {self.key['group_id']!r} is running "
                f"(started{who}); try again when it is done.",
                code="reset_in_progress",
            ) from None

    def __exit__(self, *exc: Any) -> None:
        GroupResetLock.objects.filter(**self.key, holder=self.holder).delete()


def _commit(cfg: ClusterConfig, group_id: str, offsets: dict[TP, int]) -> list[dict[str, Any]]:
    """Commit `offsets`, read them back, and commit again what Kafka acknowledged but lost."""
    client = kafka.for_cluster(cfg)

    def read(tps: list[TP]) -> dict[TP, int | None] | None:
        try:
            return client.committed_offsets({group_id: tps}, stable=True)[group_id]
        except kafka.KafkaAdapterError:
            return None  # unreadable now: the commit's own answer stands

    errors = commit_verified(
        lambda part: client.commit_offsets(group_id, part),
        read,
        lambda: is_inactive(describe_group(cfg, group_id)),
        offsets,
    )
    return [
        {
            "topic": tp.topic,
            "partition": tp.partition,
            "new_offset": offsets[tp],
            "committed": errors.get(tp) is None,
            "error": errors.get(tp),
        }
        for tp in map(TopicPartition._make, sorted(offsets))
    ]


# A commit acknowledged while the group's coordinator moves can be lost (the old coordinator
# acknowledged a write the new one never had: KAFKA-20634); read back, committed again.
VERIFY_ROUNDS = 3
LOST = (
    "Kafka acknowledged the commit but does not show it when read back (its group coordinator "
    "moved at that moment?); its committed offset is {now}."
)
ACTIVE_SINCE = "a consumer joined the group while the commit was checked; not committed again"


def commit_verified(
    commit: Callable[[dict[TP, int]], dict[TP, str | None]],
    read: Callable[[list[TP]], dict[TP, int | None] | None],
    inactive: Callable[[], bool],
    offsets: dict[TP, int],
    rounds: int = VERIFY_ROUNDS,
) -> dict[TP, str | None]:
    """Per partition, None or why it is not at its new offset: `commit` them, then `read`
    them back (stably), and commit again those acknowledged but not shown, while the group
    stays `inactive`, up to `rounds` times. A read that fails (None) ends the checking."""
    errors: dict[TP, str | None] = dict(commit(offsets))
    for round_ in range(rounds + 1):
        acked = [tp for tp in offsets if errors.get(tp) is None]
        now = read(acked) if acked else {}
        if now is None:
            break
        lost = {tp: offsets[tp] for tp in acked if now.get(tp) != offsets[tp]}
        if not lost:
            break
        if round_ == rounds or not inactive():
            why = LOST if round_ == rounds else ACTIVE_SINCE
            errors.update({tp: why.format(now=now.get(tp)) for tp in lost})
            break
        errors.update(commit(lost))
    return errors


def _final_state(result: list[dict[str, Any]]) -> str:
    ok = sum(r["committed"] for r in result)
    if ok == len(result):
        return OffsetReset.State.SUCCEEDED
    return OffsetReset.State.PARTIAL if ok else OffsetReset.State.FAILED


def create_reset(cfg: ClusterConfig, group_id: str, body: dict[str, Any], user: Any) -> OffsetReset:
    """Plan a reset (`body` is the validated request) and store it; unless `dry_run`, also
    execute it at once, under the group's lock (for automation that previews elsewhere)."""
    strategy = build_strategy(body["strategy"], group_id)
    if body.get("dry_run", True):
        reset, _ = _planned_reset(cfg, group_id, body, strategy, user)
        reset.save()
        return reset
    refuse_if_active(describe_group(cfg, group_id))
    with _GroupLock(cfg.name, group_id, user.username):
        reset, planned = _planned_reset(cfg, group_id, body, strategy, user)
        # Re-check just before committing: a consumer may have joined while we planned.
        refuse_if_active(describe_group(cfg, group_id))
        offsets = {(p.topic, p.partition): p.new_offset for p in planned}
        _record_execution(reset, _commit(cfg, group_id, offsets))
    return reset


def plan_changes(
    plan_rows: list[dict[str, Any]],
    committed: dict[TP, int | None],
    starts: dict[TP, int | None],
    ends: dict[TP, int | None],
) -> list[dict[str, Any]]:
    """What no longer holds of a previewed plan: a committed offset that moved, or a new
    offset that fell outside the partition's log range since (retention, deleted records)."""
    changes = []
    for row in plan_rows:
        tp = TopicPartition(row["topic"], row["partition"])
        now = committed.get(tp)
        start, end = starts.get(tp), ends.get(tp)
        out_of_range = start is None or end is None or not start <= row["new_offset"] <= end
        if now != row["current_offset"] or out_of_range:
            changes.append(
                {
                    "topic": tp.topic,
                    "partition": tp.partition,
                    "planned_current_offset": row["current_offset"],
                    "current_offset": now,
                    "new_offset": row["new_offset"],
                    "log_start_offset": start,
                    "log_end_offset": end,
                }
            )
    return changes


def execute_preview(reset_id: int, user: Any, reason: str = "") -> OffsetReset:
    """Execute exactly the plan of preview `reset_id`, if it still holds (else 409)."""
    reset = get_reset(reset_id)
    if reset.executed or not reset.dry_run:
        raise Conflict(
            f"Reset {reset_id} was already executed; preview again to reset anew.",
            code="already_executed",
        )
    if reset.strategy.get("type") == "undo":
        raise Conflict(f"Reset {reset_id} is an undo, not a preview.", code="not_a_preview")
    cfg = get_cluster(reset.cluster)
    refuse_if_active(describe_group(cfg, reset.group_id))
    with _GroupLock(cfg.name, reset.group_id, user.username):
        client = kafka.for_cluster(cfg)
        tps = [(r["topic"], r["partition"]) for r in reset.plan]
        committed = client.committed_offsets({reset.group_id: tps}, stable=True)[reset.group_id]
        starts = client.log_offsets(tps, "earliest")
        ends = client.log_offsets(tps, "latest")
        changed = plan_changes(reset.plan, committed, starts, ends)
        if changed:
            raise Conflict(
                f"The plan of preview {reset_id} no longer holds: {len(changed)} partition"
                f"{'s' if len(changed) != 1 else ''} changed since (first: "
                f"{changed[0]['topic']}-{changed[0]['partition']}, committed offset "
                f"{changed[0]['planned_current_offset']} then, {changed[0]['current_offset']} "
                "now). Preview again.",
                code="plan_stale",
                details={"changes": changed},
            )
        refuse_if_active(describe_group(cfg, reset.group_id))
        offsets = {(r["topic"], r["partition"]): r["new_offset"] for r in reset.plan}
        if reason:
            reset.reason = reason
        _record_execution(reset, _commit(cfg, reset.group_id, offsets))
    return reset


def _record_execution(reset: OffsetReset, result: list[dict[str, Any]]) -> None:
    """Store an execution's per-partition outcome."""
    reset.result = result
    reset.dry_run = False
    reset.executed = True
    reset.executed_at = timezone.now()
    reset.state = _final_state(result)
    reset.save()


def _planned_reset(
    cfg: ClusterConfig, group_id: str, body: dict[str, Any], strategy: Strategy, user: Any
) -> tuple[OffsetReset, list[PlannedPartition]]:
    snap = cache.snapshot(cfg)
    committed = kafka.for_cluster(cfg).committed_offsets({group_id: None}, stable=True)[group_id]
    tps = resolve_scope(body.get("scope") or {}, strategy, snap, committed)
    if not tps:
        raise BadInput(
            "scope",
            "scope: selects no partitions (the group has no committed offsets there); "
            "name topics or partitions explicitly.",
        )
    planned = plan(strategy, gather_states(cfg, tps, committed, strategy))
    reset = OffsetReset(
        cluster=cfg.name,
        group_id=group_id,
        strategy=body["strategy"],
        scope=body.get("scope") or {},
        dry_run=True,
        reason=body.get("reason", ""),
        plan=plan_rows(cfg, planned),
        created_by=user,
    )
    return reset, planned


def get_reset(reset_id: int) -> OffsetReset:
    reset = OffsetReset.objects.select_related("created_by").filter(pk=reset_id).first()
    if reset is None:
        raise NotFound(f"There is no offset reset {reset_id}.", code="reset_not_found")
    return reset


def undo_reset(reset_id: int, user: Any, reason: str = "") -> OffsetReset:
    """Restore every partition's offset from before an executed reset, as a new reset."""
    original = get_reset(reset_id)
    cfg = get_cluster(original.cluster)
    if not original.executed:
        raise Conflict(
            f"Reset {reset_id} was a dry run; there is nothing to undo.", code="not_executed"
        )
    restore: dict[TP, int] = {
        TopicPartition(r["topic"], r["partition"]): r["current_offset"]
        for r in original.plan
        if r["current_offset"] is not None
    }
    skipped = [r for r in original.plan if r["current_offset"] is None]
    if not restore:
        raise Conflict(
            f"Reset {reset_id} only touched partitions that had no committed offset "
            "before; Kafka's admin API cannot remove one partition's offset.",
            code="nothing_to_restore",
        )
    refuse_if_active(describe_group(cfg, original.group_id))
    client = kafka.for_cluster(cfg)
    tps = sorted(map(TopicPartition._make, restore))
    ends = client.list_offsets(tps, "latest")
    starts = client.list_offsets(tps, "earliest")
    committed = client.committed_offsets({original.group_id: tps}, stable=True)[original.group_id]
    planned = [
        PlannedPartition(
            topic=tp.topic,
            partition=tp.partition,
            current_offset=committed.get(tp),
            new_offset=restore[tp],
            log_start_offset=_offset_or(starts.get(tp), restore[tp]),
            log_end_offset=_offset_or(ends.get(tp), restore[tp]),
            clamped=False,
        )
        for tp in tps
    ]
    undo = OffsetReset(
        cluster=cfg.name,
        group_id=original.group_id,
        strategy={"type": "undo", "undo_of": original.pk},
        scope=original.scope,
        dry_run=False,
        reason=reason or f"undo of reset {original.pk}",
        plan=plan_rows(cfg, planned),
        created_by=user,
        undo_of=original,
    )
    with _GroupLock(cfg.name, original.group_id, user.username):
        refuse_if_active(describe_group(cfg, original.group_id))
        result = _commit(cfg, original.group_id, restore)
    result += [
        {
            "topic": r["topic"],
            "partition": r["partition"],
            "new_offset": None,
            "committed": False,
            "error": "had no committed offset before the reset; not restorable",
        }
        for r in skipped
    ]
    _record_execution(undo, result)
    return undo


def _offset_or(result: Any, default: int) -> int:
    return result.offset if isinstance(result, kafka.OffsetResult) else default


def reset_as_dict(reset: OffsetReset) -> dict[str, Any]:
    return {
        "id": reset.pk,
        "cluster": reset.cluster,
        "group_id": reset.group_id,
        "dry_run": reset.dry_run,
        "executed": reset.executed,
        "state": reset.state,
        "strategy": reset.strategy,
        "scope": reset.scope,
        "reason": reset.reason,
        "created_by": reset.created_by.username if reset.created_by else None,
        "created_at": _iso_dt(reset.created_at),
        "executed_at": _iso_dt(reset.executed_at),
        "undo_of": reset.undo_of_id,
        "plan": reset.plan,
        "result": reset.result,
    }


def _iso_dt(moment: Any) -> str | None:
    if moment is None:
        return None
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
