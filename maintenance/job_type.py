"""What every predictive-maintenance job type has in common, said once: its script is in
maintenance/jobs/, and it reads no topic range resolved by the platform (`reads_range=False`:
each reads whole topics or earlier jobs' files itself)."""

from __future__ import annotations

from functools import partial

from maintenance.jobs import JOBS_DIR
from sparkjobs.job_types import JobType

maintenance_job_type = partial(JobType, scripts_dir=JOBS_DIR, reads_range=False)
