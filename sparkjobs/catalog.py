"""The catalog of job types: the topic jobs and the predictive-maintenance ones."""

from __future__ import annotations

from typing import Any

from console.errors import BadInput
from sparkjobs.job_types import TOPIC_JOB_TYPES, JobType
from sparkjobs.types_features import FEATURE_JOB_TYPES
from sparkjobs.types_model import MODEL_JOB_TYPES
from sparkjobs.types_pipeline import PIPELINE_JOB_TYPES

JOB_TYPES: dict[str, JobType] = {
    jt.name: jt
    for jt in (*TOPIC_JOB_TYPES, *FEATURE_JOB_TYPES, *MODEL_JOB_TYPES, *PIPELINE_JOB_TYPES)
}


def get_job_type(name: Any) -> JobType:
    if not isinstance(name, str) or name not in JOB_TYPES:
        raise BadInput(
            "job_type",
            f"job_type: unknown job type {name!r}; choose one of {', '.join(sorted(JOB_TYPES))}.",
        )
    return JOB_TYPES[name]
