"""Predictive-maintenance job types (see docs/predictive-maintenance.md)."""

from __future__ import annotations

from sparkjobs.job_types import JobType

MODEL_JOB_TYPES: tuple[JobType, ...] = ()
