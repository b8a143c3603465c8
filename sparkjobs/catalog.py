"""The catalog of job types: the platform's own (the topic jobs, the lag report) and the ones
other apps register with it.

An app that brings job types of its own (the predictive-maintenance app, say) calls
`register(...)` from its AppConfig.ready(), so they are in the catalog in every process that
set Django up (the web server, the Celery worker, management commands); the platform imports
no such app. `JOB_TYPES` lists the topic jobs first, then the registered ones in the order
they were registered, then the lag report: the order of `GET spark/job-types`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured

from console.errors import BadInput
from sparkjobs import steps as job_steps
from sparkjobs.job_types import TOPIC_JOB_TYPES, JobType
from sparkjobs.types_lag_report import LAG_REPORT_JOB_TYPES

JOB_TYPES: dict[str, JobType] = {}
_registered: list[JobType] = []


def _rebuild() -> None:
    """JOB_TYPES (and the step names of the types with steps) from the platform's own types
    and the registered ones; the same dicts are updated, so every importer sees the change."""
    listed = (*TOPIC_JOB_TYPES, *_registered, *LAG_REPORT_JOB_TYPES)
    JOB_TYPES.clear()
    JOB_TYPES.update((jt.name, jt) for jt in listed)
    job_steps.JOB_STEPS.clear()
    job_steps.JOB_STEPS.update((jt.name, jt.steps) for jt in listed if jt.steps)


def register(*job_types: JobType) -> None:
    """Add an app's job types to the catalog. Registering a type again changes nothing;
    another type under a name the catalog already has is a configuration error."""
    for job_type in job_types:
        held = JOB_TYPES.get(job_type.name)
        if held is job_type:
            continue
        if held is not None:
            raise ImproperlyConfigured(
                f"Spark job type {job_type.name!r} is registered twice (two apps, or an app "
                "and the platform, define it)."
            )
        _registered.append(job_type)
        JOB_TYPES[job_type.name] = job_type  # so a repeated name in this call is caught too
    _rebuild()


def get_job_type(name: Any) -> JobType:
    if not isinstance(name, str) or name not in JOB_TYPES:
        raise BadInput(
            "job_type",
            f"job_type: unknown job type {name!r}; choose one of {', '.join(sorted(JOB_TYPES))}.",
        )
    return JOB_TYPES[name]


_rebuild()
