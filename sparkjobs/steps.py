"""Steps of a multi-step job (a job type with `steps`, such as the maintenance app's pipeline):
the marker lines its script prints and what the runner makes of them. Pure: no Django, no I/O,
so it is unit-tested on its own.

A stepped job's script prints one line per step transition on its stdout (the driver output
the runner already reads):

    KAFKA_CONSOLE_STEP {"step": "training-set", "state": "running"}
    KAFKA_CONSOLE_STEP {"step": "training-set", "state": "succeeded", "result": {...}}
    KAFKA_CONSOLE_STEP {"step": "train-model", "state": "failed", "error": "ValueError: ..."}
    KAFKA_CONSOLE_STEP {"step": "score", "state": "skipped"}

The runner keeps `job.steps`, every step of the job type listed from the start as `pending`:
`[{"name", "state", "started_at", "finished_at", "result", "error"}]`. Progress is
`(finished steps + the running step's fraction) / number of steps`, the fraction measured on
the Spark jobs the script ran under the step's job group (`SparkContext.setJobGroup(step)`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STEP_MARKER = "KAFKA_CONSOLE_STEP"

PENDING, RUNNING, SUCCEEDED = "pending", "running", "succeeded"
FAILED, SKIPPED = "failed", "skipped"
STATES = (PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED)
FINISHED = frozenset({SUCCEEDED, FAILED, SKIPPED})

# Job types whose jobs have steps (and so a non-null `steps`), with their step names: the
# catalog's job types' own `steps`, kept here by sparkjobs.catalog as types are registered.
JOB_STEPS: dict[str, tuple[str, ...]] = {}

MAX_ERROR_CHARS = 2000


def marker_line(step: str, state: str, **extra: Any) -> str:
    """The line a script prints (one line: JSON never holds a raw newline)."""
    return f"{STEP_MARKER} {json.dumps({'step': step, 'state': state, **extra})}"


def parse_line(line: str) -> dict[str, Any] | None:
    """The step event of one driver output line, or None for any other (or malformed) line.

    Only a line that starts with the marker counts: a log line or a traceback that quotes it
    in the middle is not an event.
    """
    text = line.strip()
    if not text.startswith(STEP_MARKER + " "):
        return None
    try:
        event = json.loads(text[len(STEP_MARKER) + 1 :])
    except ValueError:
        return None
    if not isinstance(event, dict):
        return None
    step, state = event.get("step"), event.get("state")
    if not isinstance(step, str) or state not in STATES or state == PENDING:
        return None
    out: dict[str, Any] = {"step": step, "state": state}
    if state == SUCCEEDED:
        out["result"] = event.get("result")
    if state == FAILED:
        error = event.get("error")
        out["error"] = (error if isinstance(error, str) else "the step failed")[:MAX_ERROR_CHARS]
    return out


def initial(names: Iterable[str]) -> list[dict[str, Any]]:
    """Every step pending: what a stepped job shows from the moment it is saved."""
    return [
        {
            "name": name,
            "state": PENDING,
            "started_at": None,
            "finished_at": None,
            "result": None,
            "error": None,
        }
        for name in names
    ]


def apply(steps: Sequence[Mapping[str, Any]], event: Mapping[str, Any], now: str) -> list[Any]:
    """The steps after one event (a new list; `now` an ISO-8601 time). An event naming a step
    the job does not have, or moving a finished step, changes nothing: a script cannot
    rewrite what already happened."""
    out = [dict(s) for s in steps]
    for step in out:
        if step["name"] != event["step"] or step["state"] in FINISHED:
            continue
        state = event["state"]
        step["state"] = state
        if state == RUNNING:
            step["started_at"] = step["started_at"] or now
        else:
            step["finished_at"] = now
            if state == SUCCEEDED:
                step["result"] = event.get("result")
            elif state == FAILED:
                step["error"] = event.get("error")
        break
    return out


def finalize(steps: Sequence[Mapping[str, Any]], job_state: str, error: str, now: str) -> list:
    """The steps once the job ended, whatever its script managed to print: a step still
    running failed (with the job's error, or "cancelled"), and the ones not started are
    skipped. A script that exits cleanly has already said all of this."""
    out = [dict(s) for s in steps]
    for step in out:
        if step["state"] == RUNNING:
            step["state"] = FAILED
            step["finished_at"] = now
            step["error"] = ("cancelled" if job_state == "cancelled" else error or job_state)[
                :MAX_ERROR_CHARS
            ]
        elif step["state"] == PENDING:
            step["state"] = SKIPPED
    return out


def results(steps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """{step name: result} of the steps that succeeded, in order: a stepped job's result as
    far as it got."""
    return {s["name"]: s["result"] for s in steps if s["state"] == SUCCEEDED}


def running(steps: Sequence[Mapping[str, Any]]) -> str | None:
    return next((s["name"] for s in steps if s["state"] == RUNNING), None)


def progress(steps: Sequence[Mapping[str, Any]], fraction: float | None) -> float:
    """(finished steps + the running step's fraction) / steps, in [0, 1]."""
    if not steps:
        return 0.0
    done = sum(1 for s in steps if s["state"] in FINISHED)
    current = min(max(fraction or 0.0, 0.0), 1.0) if running(steps) else 0.0
    return min((done + current) / len(steps), 1.0)


def group_fraction(jobs: Any, group: str) -> float | None:
    """Completed share of the tasks of the Spark jobs in job group `group`, from the driver's
    REST API (`/api/v1/applications/<app>/jobs`); None when none has started yet.

    A step runs several Spark jobs one after the other, so this falls back when the next one
    starts; the runner keeps the highest progress it has shown.
    """
    if not isinstance(jobs, list):
        return None
    total = done = 0
    for job in jobs:
        if not isinstance(job, dict) or job.get("jobGroup") != group:
            continue
        total += int(job.get("numTasks") or 0)
        done += int(job.get("numCompletedTasks") or 0) + int(job.get("numSkippedTasks") or 0)
    return None if total == 0 else min(done / total, 1.0)
