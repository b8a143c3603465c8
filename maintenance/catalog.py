"""The predictive-maintenance job types, in the order the platform lists them: the data half
(types_features.py), the model half (types_model.py), then the pipeline of them all
(types_pipeline.py), the retraining (types_retrain.py), the daily scoring (types_scoring.py)
and realised performance (types_performance.py). The app registers them with the platform's
catalog when Django starts (apps.py)."""

from __future__ import annotations

from maintenance.types_features import FEATURE_JOB_TYPES
from maintenance.types_model import MODEL_JOB_TYPES
from maintenance.types_performance import PERFORMANCE_JOB_TYPES
from maintenance.types_pipeline import PIPELINE_JOB_TYPES
from maintenance.types_retrain import RETRAIN_JOB_TYPES
from maintenance.types_scoring import SCORING_JOB_TYPES
from sparkjobs.job_types import JobType

MAINTENANCE_JOB_TYPES: tuple[JobType, ...] = (
    *FEATURE_JOB_TYPES,
    *MODEL_JOB_TYPES,
    *PIPELINE_JOB_TYPES,
    *RETRAIN_JOB_TYPES,
    *SCORING_JOB_TYPES,
    *PERFORMANCE_JOB_TYPES,
)
