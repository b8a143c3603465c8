"""Which failure model is active on a cluster, and promoting one (by hand, audited by the view).

A cluster's active model is its newest `ModelPromotion`; before the first there is none, and
nothing is scored by default. Only a usable model (`service.model_quality`) may be promoted,
and only on the cluster it was trained on. Rolling back is promoting an earlier model again:
the history keeps every change with who made it and why.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from console import audit
from console.errors import Conflict, NotFound
from console.roles import ClusterScope
from maintenance import challenge, scoring, service
from maintenance.models import ModelPromotion
from maintenance.types_performance import PERFORMANCE
from sparkjobs.choices import JobState
from sparkjobs.models import SparkJob

log = logging.getLogger(__name__)

HISTORY = 20  # promotions shown with the active model, newest first


def get_model(model_id: int) -> dict[str, Any]:
    """One trained model (a succeeded job that holds one), or NotFound."""
    row = (
        SparkJob.objects.filter(
            pk=model_id, job_type__in=service.MODEL_SOURCES, state=JobState.SUCCEEDED
        )
        .values_list("id", "job_type", "cluster", "created_at", "params", "result")
        .first()
    )
    entry = service.model_entry(*row) if row else None
    if entry is not None:
        _with_promotion([entry])
    if entry is None:
        raise NotFound(
            f"There is no trained model {model_id} (a model's id is the id of the succeeded "
            "train-model or maintenance-pipeline job that trained it).",
            code="model_not_found",
        )
    return entry


def active_ids() -> dict[str, int]:
    """{cluster: its active model's id} for every cluster that has one."""
    active: dict[str, int] = {}
    for cluster, model_id in ModelPromotion.objects.values_list("cluster", "model_id"):
        active.setdefault(cluster, model_id)  # newest first (Meta.ordering)
    return active


def list_models(limit: int, scope: ClusterScope | None = None) -> list[dict[str, Any]]:
    """`service.list_models`, each saying whether it is its cluster's active model."""
    active = active_ids()
    models = [
        {**model, "active": active.get(model["cluster"]) == model["id"]}
        for model in service.list_models(limit, scope)
    ]
    return _with_promotion(models)


def _with_promotion(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each challenged model's `challenge.promoted`: whether its retraining promoted it (one
    query). A verdict to promote that was not carried out says why."""
    challenged = [m for m in models if m.get("challenge")]
    if not challenged:
        return models
    auto = set(
        ModelPromotion.objects.filter(
            how=ModelPromotion.How.AUTO, model_id__in=[m["id"] for m in challenged]
        ).values_list("model_id", flat=True)
    )
    for model in challenged:
        outcome = model["challenge"]
        outcome["promoted"] = model["id"] in auto
        if outcome["verdict"] == "promote" and not outcome["promoted"]:
            outcome["reason"] = (
                f"Not promoted: model {outcome['champion_id']} was no longer the active model "
                "when the retraining ended (another had been promoted meanwhile)."
            )
    return models


def _history_entry(row: ModelPromotion) -> dict[str, Any]:
    return {
        "model_id": row.model_id,
        "how": row.how,
        "reason": row.reason,
        "promoted_by": row.promoted_by.username if row.promoted_by else None,
        "promoted_at": row.promoted_at,
    }


def active_model(cluster: str) -> dict[str, Any]:
    """The active model of `cluster` (None before the first promotion), why, and the history."""
    history = list(
        ModelPromotion.objects.filter(cluster=cluster).select_related("promoted_by")[:HISTORY]
    )
    current = history[0] if history else None
    daily = scoring.daily_schedules(cluster)
    return {
        "cluster": cluster,
        "model": {**get_model(current.model_id), "active": True} if current else None,
        **(
            _history_entry(current)
            if current
            else {"how": None, "reason": None, "promoted_by": None, "promoted_at": None}
        ),
        "history": [_history_entry(row) for row in history],
        "scoring_schedule": daily[0],
        "performance_schedule": daily[1],
        "retrain_schedule": daily[2],
    }


def promote(model_id: int, actor: Any, reason: str) -> dict[str, Any]:
    """Make `model_id` the active model of the cluster it was trained on; the new state."""
    model = get_model(model_id)
    cluster = model["cluster"]
    if model["quality"] != "usable":
        raise Conflict(
            f"Model {model_id} is not usable ({model['quality_reason']}); it cannot be made "
            "the active model.",
            code="model_not_usable",
        )
    with transaction.atomic():
        # (Two promotions at the same moment both land; the newer is active and the history
        # shows both.)
        current = ModelPromotion.objects.filter(cluster=cluster).first()
        if current is not None and current.model_id == model_id:
            raise Conflict(
                f"Model {model_id} is already the active model of cluster {cluster!r}.",
                code="already_active",
            )
        ModelPromotion.objects.create(
            cluster=cluster,
            model_id=model_id,
            how=ModelPromotion.How.MANUAL,
            reason=reason,
            promoted_by=actor if getattr(actor, "pk", None) else None,
        )
        scoring.ensure_daily_scoring(cluster, model_id, actor)
    return active_model(cluster)


def performance(model_id: int) -> dict[str, Any]:
    """The newest realised performance of a model (its newest succeeded `model-performance`
    job's result), or the model with nothing computed yet (`job_id` null, no days)."""
    get_model(model_id)  # NotFound: 404
    job = (
        SparkJob.objects.filter(
            job_type=PERFORMANCE, state=JobState.SUCCEEDED, params__model_id=model_id
        )
        .order_by("-id")  # the newest computation (jobs finish in about the order they start)
        .values("id", "finished_at", "result")
        .first()
    )
    result = job["result"] if job and isinstance(job["result"], dict) else {}
    return {
        "model_id": model_id,
        "job_id": job["id"] if job else None,
        "computed_at": job["finished_at"] if job else None,
        "threshold": result.get("threshold"),
        "horizon_days": result.get("horizon_days"),
        "last_day": result.get("last_day"),
        "days": result.get("days") or [],
        "totals": result.get("totals"),
        "calibration": result.get("calibration"),
    }


def settle(job_id: int) -> None:
    """The retrain job type's on_success: promote its model if the verdict says so and its
    champion is still the active model; audited either way."""
    job = (
        SparkJob.objects.filter(pk=job_id)
        .values("id", "job_type", "cluster", "created_at", "params", "result", "created_by")
        .first()
    )
    if job is None:
        return
    model = service.model_entry(
        job["id"], job["job_type"], job["cluster"], job["created_at"], job["params"], job["result"]
    )
    found = challenge.measured_challenge(job["params"], job["result"])
    if model is None or found is None:
        log.warning("retrain job %s succeeded without a model or a challenge", job_id)
        return
    measured, margin = found
    promote, reason = challenge.verdict(measured, margin, model["quality"], model["quality_reason"])
    cluster = job["cluster"]
    owner = job["created_by"]
    with transaction.atomic():
        active = ModelPromotion.active_id(cluster)
        if promote and active != measured.get("champion_id"):
            promote = False
            reason = (
                f"Not promoted: model {active} became the active model while it ran "
                f"(it was measured against {measured.get('champion_id')})."
            )
        if promote:
            ModelPromotion.objects.create(
                cluster=cluster,
                model_id=model["id"],
                how=ModelPromotion.How.AUTO,
                reason=reason,
                promoted_by_id=owner,
            )
            scoring.ensure_daily_scoring(cluster, model["id"], None)
        audit.record(
            actor=f"retrain job {job_id}",
            action="spark.model.promote" if promote else "spark.model.challenge",
            outcome="ok",
            cluster=cluster,
            target=str(model["id"]),
            details={
                "promoted": promote,
                "reason": reason,
                "champion_id": measured.get("champion_id"),
                "margin": margin,
            },
        )
