"""The one place where a job's state changes: an allowed-transition table and CAS updates.

Several processes touch a job (the API, its worker, a reaper on another worker), so every
change is `filter(pk=..., state__in=<what we believe>).update(...)`: 0 rows means someone
else moved the job first and the caller must not act as if it had won.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from sparkjobs import live
from sparkjobs.choices import ACTIVE, TERMINAL, JobState
from sparkjobs.models import SparkJob

Q, SUB, RUN = JobState.QUEUED, JobState.SUBMITTED, JobState.RUNNING
OK, FAIL, CANC, LOST = JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED, JobState.LOST

ALLOWED: dict[str, frozenset[str]] = {
    # A queued job can fail before spark-submit starts (its topic was deleted meanwhile).
    Q: frozenset({SUB, FAIL, CANC}),
    # A short job can end before its application id was seen in the log.
    SUB: frozenset({RUN, OK, FAIL, CANC, LOST}),
    RUN: frozenset({OK, FAIL, CANC, LOST}),
    **{state: frozenset() for state in TERMINAL},
}


class IllegalTransition(ValueError):
    pass


def can_move(old: str, new: str) -> bool:
    return new in ALLOWED.get(old, frozenset())


def transition(job_id: int, old: str | Iterable[str], new: str, **fields: Any) -> bool:
    """Move job `job_id` from (one of) `old` to `new`, setting `fields` too.

    Returns whether this call made the change. Raises IllegalTransition when the table
    forbids any of the asked moves: that is a bug in the caller, not a race.
    """
    olds = [old] if isinstance(old, str) else list(old)
    illegal = [o for o in olds if not can_move(o, new)]
    if illegal or not olds:
        raise IllegalTransition(f"a job cannot move from {illegal or olds} to {new}")
    now = timezone.now()
    if new in TERMINAL:
        fields.setdefault("finished_at", now)
        fields.pop("cancel_requested", None)
    if new == SUB:
        fields.setdefault("started_at", now)
        fields.setdefault("heartbeat_at", now)
    won = SparkJob.objects.filter(pk=job_id, state__in=olds).update(state=new, **fields) == 1
    if won:
        live.job_changed(job_id)
    return won


def update_active(job_id: int, **fields: Any) -> bool:
    """Change fields (progress, heartbeat, app id) of a job that is still active."""
    changed = SparkJob.objects.filter(pk=job_id, state__in=ACTIVE).update(**fields) == 1
    if changed:
        live.job_changed(job_id)
    return changed


def request_cancel(job_id: int) -> str | None:
    """Cancel: a queued job is cancelled at once; a started one gets the flag its worker
    acts on. Returns the state the job is in afterwards, or None when it had already ended."""
    if transition(job_id, Q, CANC):
        return CANC
    if SparkJob.objects.filter(pk=job_id, state__in=(SUB, RUN)).update(cancel_requested=True):
        live.job_changed(job_id)
        return SparkJob.objects.values_list("state", flat=True).get(pk=job_id)
    return None
