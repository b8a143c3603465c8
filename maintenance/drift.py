"""A model's feature drift per scored day, as its score steps measured it (the `drift` of a
`score` step's result, maintenance/jobs/pm_drift.py): read from the succeeded jobs that scored
with the model (`score`, `maintenance-score`, and the pipeline that trained it)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from maintenance.lifecycle import get_model
from maintenance.types_model import PIPELINE, STEPPED
from maintenance.types_scoring import SCORING
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob

# The bar the score step measures against (pm_drift.DRIFT_THRESHOLD; a unit test keeps the two
# equal: the web process never imports the Spark scripts).
DRIFT_THRESHOLD = 0.25
DAYS = 30  # the newest scored days shown
SCANNED_JOBS = 500  # the newest scoring jobs read for them (a day scored twice counts once)
SCORE = "score"


def _score_result(job_type: str, result: Any) -> dict[str, Any] | None:
    inner = result.get(SCORE) if job_type != SCORE and isinstance(result, dict) else result
    return inner if isinstance(inner, dict) else None


def drift_days(jobs: list[tuple[int, str, Any]], model_id: int) -> list[dict[str, Any]]:
    """The days scored by `model_id` with their drift, one per day (its newest scoring, by
    job id), oldest first, at most DAYS; `jobs` are (id, job_type, result)."""
    newest: dict[str, dict[str, Any]] = {}
    for job_id, job_type, result in sorted(jobs, key=lambda job: -job[0]):
        score = _score_result(job_type, result)
        if score is None or score.get("model_id") != model_id:
            continue
        day, drift = score.get("day"), score.get("drift")
        if not isinstance(day, str) or not isinstance(drift, dict) or day in newest:
            continue
        newest[day] = {
            "day": day,
            "job_id": job_id,
            "scored_at": score.get("scored_at"),
            "rows": drift.get("rows"),
            "max_psi": drift.get("max_psi"),
            "drifted": list(drift.get("drifted") or []),
            "features": list(drift.get("features") or []),
        }
    days = sorted(newest.values(), key=lambda entry: entry["day"])
    return days[-DAYS:]


def model_drift(model_id: int) -> dict[str, Any]:
    """The drift of the days a model scored (GET spark/models/{id}/drift)."""
    model = get_model(model_id)  # NotFound: 404
    trained = SparkJob.objects.filter(pk=model["job_id"]).values_list("job_type", "result").first()
    jobs = list(
        SparkJob.objects.filter(state=JobState.SUCCEEDED)
        .filter(
            Q(job_type=SCORE, result__model_id=model_id)
            | Q(job_type__in=(SCORING, PIPELINE), result__score__model_id=model_id)
        )
        .order_by("-id")
        .values_list("id", "job_type", "result")[:SCANNED_JOBS]
    )
    job_type, result = trained or ("", None)
    train = result.get("train-model") if job_type in STEPPED and result else result
    reference = train.get("drift_reference") if isinstance(train, dict) else None
    return {
        "model_id": model_id,
        "threshold": DRIFT_THRESHOLD,
        "reference": {"part": reference["source"], "rows": reference["rows"]}
        if isinstance(reference, dict) and "source" in reference
        else None,
        "days": drift_days(jobs, model_id),
    }
