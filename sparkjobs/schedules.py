"""Job schedules: what the schedules API does, and the scheduler's tick (no HTTP here).

A due slot is handled in one transaction that locks the schedule, moves `next_run_at` past
now, and records the slot (`ScheduleRun`, unique per schedule and slot) with the job it
started: a slot is never run twice, also when the scheduler stops half-way (nothing of the
slot was kept, so it runs on restart) or two schedulers run at once. Slots missed while no
scheduler ran are run once, not once each. A job is submitted exactly as a person's would be
(`service.submit`: the same checks and the same audit entry, with the schedule's owner as
the actor and the schedule named in it); while the schedule's previous job is queued or
running the slot is skipped, and a submit refused by its checks (or that could not check:
Kafka did not answer) is recorded with its reason. Such a slot is not tried again.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from console import kafka
from console.audit import audited
from console.clusters import ClusterNotFound
from console.errors import ConsoleError, NotFound
from sparkjobs import service
from sparkjobs.catalog import get_job_type
from sparkjobs.choices import ACTIVE
from sparkjobs.job_types import validate_params
from sparkjobs.models import Schedule, ScheduleRun, SparkJob
from sparkjobs.schedule_times import Timing, check_timing, next_run

log = logging.getLogger(__name__)

RECENT_RUNS = 20
TIMING_FIELDS = ("cron", "every_minutes", "timezone")


def timing_of(schedule: Schedule) -> Timing:
    return Timing(schedule.cron, schedule.every_minutes, schedule.timezone)


def list_schedules() -> QuerySet[Schedule]:
    """Every schedule with its creator and its newest job's id (`newest_job_id`), in one
    query: the schedules page lists them all."""
    newest = (
        SparkJob.objects.filter(schedule=OuterRef("pk")).order_by("-created_at", "-id").values("pk")
    )
    return Schedule.objects.select_related("created_by").annotate(
        newest_job_id=Subquery(newest[:1])
    )


def get_schedule(schedule_id: int) -> Schedule:
    schedule = list_schedules().filter(pk=schedule_id).first()
    if schedule is None:
        raise NotFound(f"There is no schedule {schedule_id}.", code="schedule_not_found")
    return schedule


def recent_runs(schedule: Schedule, limit: int = RECENT_RUNS) -> list[ScheduleRun]:
    return list(schedule.runs.select_related("job").order_by("-due_at", "-id")[:limit])


def last_job_id(schedule: Schedule) -> int | None:
    """The schedule's newest job's id: annotated by list_schedules, else one query."""
    if hasattr(schedule, "newest_job_id"):
        return schedule.newest_job_id
    job = SparkJob.objects.filter(schedule=schedule).order_by("-created_at", "-id").first()
    return None if job is None else job.pk


def checked(body: dict[str, Any], stored: Schedule | None = None) -> dict[str, Any]:
    """A schedule's fields (a whole one, or a change of `stored`) checked as a submit would
    check them without Kafka: the job type, its params against its schema, the timing.
    Kafka-bound checks (a topic exists) run at each slot, as for any submit."""
    merged = {**_fields(stored), **body}
    job_type = get_job_type(merged["job_type"])
    out = dict(body)
    if "params" in body or "job_type" in body:
        out["params"] = validate_params(job_type, merged.get("params", {}))
    if any(key in body for key in TIMING_FIELDS):
        timing = check_timing(merged.get("cron"), merged.get("every_minutes"), merged["timezone"])
        out["cron"], out["every_minutes"] = timing.cron, timing.every_minutes
    return out


def _fields(schedule: Schedule | None) -> dict[str, Any]:
    if schedule is None:
        return {"timezone": "UTC", "cron": None, "every_minutes": None, "params": {}}
    keys = ("job_type", "cluster", "params", *TIMING_FIELDS)
    return {key: getattr(schedule, key) for key in keys}


def create_schedule(body: dict[str, Any], user: Any) -> Schedule:
    schedule = Schedule(created_by=user, **body)
    if schedule.enabled:
        schedule.next_run_at = next_run(timing_of(schedule), timezone.now())
    schedule.save()
    return get_schedule(schedule.pk)


def update_schedule(schedule: Schedule, body: dict[str, Any]) -> Schedule:
    with transaction.atomic():
        # Locked: the scheduler may be moving this schedule's next run at the same moment.
        schedule = Schedule.objects.select_for_update().get(pk=schedule.pk)
        was_enabled = schedule.enabled
        for key, value in body.items():
            setattr(schedule, key, value)
        if not schedule.enabled:
            schedule.next_run_at = None
        elif not was_enabled or any(key in body for key in TIMING_FIELDS):
            schedule.next_run_at = next_run(timing_of(schedule), timezone.now())
        schedule.save()
    return get_schedule(schedule.pk)


# --- the scheduler's tick ---------------------------------------------------------------------


def run_due(now: datetime | None = None) -> list[ScheduleRun]:
    """Handle every slot due at `now` (the scheduler calls this every few seconds)."""
    now = now or timezone.now()
    due = Schedule.objects.filter(enabled=True, next_run_at__lte=now).order_by("next_run_at")
    runs = []
    for schedule_id in list(due.values_list("pk", flat=True)):
        run = _run_slot(schedule_id, now)
        if run is not None:
            runs.append(run)
    return runs


def _run_slot(schedule_id: int, now: datetime) -> ScheduleRun | None:
    with transaction.atomic():
        schedule = (
            Schedule.objects.select_for_update(of=("self",))
            .select_related("created_by")
            .filter(pk=schedule_id, enabled=True, next_run_at__lte=now)
            .first()
        )
        if schedule is None:  # changed or handled by another scheduler meanwhile
            return None
        due_at = schedule.next_run_at
        assert due_at is not None
        schedule.next_run_at = next_run(timing_of(schedule), max(now, due_at))
        schedule.save(update_fields=["next_run_at"])
        running = (
            SparkJob.objects.filter(schedule=schedule, state__in=ACTIVE).order_by("-id").first()
        )
        if running is not None:
            run = ScheduleRun.objects.create(
                schedule=schedule,
                due_at=due_at,
                outcome=ScheduleRun.Outcome.SKIPPED,
                job=running,
                reason=f"job {running.pk} of this schedule is still {running.state}",
            )
        else:
            run = _submit(schedule, due_at)
    log.info("schedule %s, slot %s: %s %s", schedule_id, due_at, run.outcome, run.reason)
    return run


def _submit(schedule: Schedule, due_at: datetime) -> ScheduleRun:
    request = {
        "job_type": schedule.job_type,
        "cluster": schedule.cluster,
        "params": schedule.params,
        "schedule_id": schedule.pk,
        "due_at": due_at.isoformat(),
    }
    try:
        with audited(
            schedule.created_by,
            "spark.job.submit",
            cluster=schedule.cluster,
            target=schedule.job_type,
            request=request,
        ) as entry:
            entry.details["schedule_id"] = schedule.pk
            job = service.submit(
                schedule.job_type,
                schedule.cluster,
                schedule.params,
                schedule.created_by,
                entry,
                schedule=schedule,
            )
    except (ConsoleError, ClusterNotFound, kafka.KafkaAdapterError) as exc:
        outcome = (
            ScheduleRun.Outcome.FAILED
            if isinstance(exc, kafka.KafkaAdapterError)
            else ScheduleRun.Outcome.REFUSED
        )
        reason = getattr(exc, "message", None) or str(exc)
        return ScheduleRun.objects.create(
            schedule=schedule, due_at=due_at, outcome=outcome, reason=reason
        )
    return ScheduleRun.objects.create(
        schedule=schedule, due_at=due_at, outcome=ScheduleRun.Outcome.STARTED, job=job
    )
