"""Trained models and the latest predictions: what the maintenance views call (no HTTP).

- Models: every succeeded `train-model` job (its result) and `maintenance-pipeline` job (its
  `result["train-model"]`), newest first; a model's id is the id of the job that trained it.
  Each says whether it is usable (`model_quality`: not when no better than chance).
- Predictions: the newest records of the predictions topic (the last `SCAN_PER_PARTITION`
  of each partition, `console.kafka.records`), the latest per equipment by record timestamp,
  highest failure probability first. Records that are not a prediction (not JSON, no
  equipment id or probability) are skipped.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, TypeGuard

from console import kafka
from console.clusters import get_cluster
from console.errors import BadInput, NotFound
from console.kafka.records import Record, latest_values
from console.metadata import cache
from console.roles import ClusterScope, scoped
from maintenance import challenge
from maintenance.types_model import DEFAULT_PREDICTIONS_TOPIC, MODEL_JOBS, STEPPED
from sparkjobs.choices import JobState
from sparkjobs.job_types import TOPIC_NAME
from sparkjobs.models import SparkJob

MODEL_SOURCES = MODEL_JOBS
METRICS = ("roc_auc", "pr_auc", "precision", "recall", "threshold")
# Records read per partition: more than the equipment a score run writes to it, so the newest
# run is always complete (3 partitions x 5,000 = 15,000 equipment), and a read stays small.
SCAN_PER_PARTITION = 5000
_TOPIC = re.compile(str(TOPIC_NAME["pattern"]))
_TOPIC_MAX = int(str(TOPIC_NAME["maxLength"]))


# --- models -----------------------------------------------------------------------------------
def feature_importances(table: Any) -> list[dict[str, Any]]:
    """A result's `feature_importances` table ({"columns": ["feature", "importance"], "rows"})
    as [{feature, importance}], largest first: typed fields for the API, whatever order an
    older result kept. Rows that are not [name, number] are left out (a result is JSON any
    script version wrote)."""
    if not isinstance(table, Mapping) or not isinstance(table.get("rows"), list):
        return []
    columns = table.get("columns")
    columns = list(columns) if isinstance(columns, list) else []
    fi = columns.index("feature") if "feature" in columns else 0
    vi = columns.index("importance") if "importance" in columns else 1
    out = []
    for row in table["rows"]:
        if not isinstance(row, list) or len(row) <= max(fi, vi):
            continue
        name, value = row[fi], row[vi]
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if isinstance(name, str) and is_number:
            out.append({"feature": name, "importance": float(value)})
    return sorted(out, key=lambda item: (-item["importance"], item["feature"]))


# A model whose test part says it is no better than chance is never offered as usable: the
# one place this rule lives (the API's `quality`; docs/maintenance-model.md).
MIN_ROC_AUC = 0.6  # 0.5 is guessing; below 0.6 the ranking is mostly noise
MIN_RECALL = 0.05  # at its threshold it flags (almost) none of the failures


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def model_quality(metrics: Mapping[str, Any]) -> tuple[str, str | None]:
    """("usable", None), or ("chance" | "unmeasured", why): from the test-part metrics."""
    auc, recall = metrics.get("roc_auc"), metrics.get("recall")
    if not _finite(auc) or not _finite(recall):
        return "unmeasured", (
            "its test part gave no ROC AUC or recall (no failure or no healthy day in it): "
            "how good it is is unknown"
        )
    if auc < MIN_ROC_AUC:
        return "chance", f"ROC AUC {auc:.3f} is below {MIN_ROC_AUC}: no better than chance"
    if recall < MIN_RECALL:
        return "chance", (
            f"recall {recall:.3f} is below {MIN_RECALL}: at its threshold it finds almost no "
            "failure"
        )
    return "usable", None


def model_entry(
    job_id: int,
    job_type: str,
    cluster: str,
    created_at: datetime,
    params: Mapping[str, Any] | None,
    result: Any,
) -> dict[str, Any] | None:
    """One model from a succeeded job's row, or None when the job holds no model."""
    if not isinstance(result, Mapping):
        return None
    trained = result.get("train-model") if job_type in STEPPED else result
    if not isinstance(trained, Mapping) or not isinstance(trained.get("model_path"), str):
        return None
    params = params if isinstance(params, Mapping) else {}
    # A pipeline's own params hold one object per step: its model's are under "model".
    model_params = params.get("model", {}) if job_type in STEPPED else params
    metrics = trained.get("metrics")
    metrics = metrics if isinstance(metrics, Mapping) else {}
    curve = trained.get("roc_curve")
    kept = {key: metrics.get(key) for key in METRICS}
    quality, reason = model_quality(kept)
    return {
        "id": int(trained.get("model_id") or job_id),
        "job_id": job_id,
        "job_type": job_type,
        "cluster": cluster,
        "created_at": created_at,
        "algorithm": trained.get("algorithm"),
        "params": dict(model_params) if isinstance(model_params, Mapping) else {},
        "metrics": kept,
        "quality": quality,
        "quality_reason": reason,
        "path": trained["model_path"],
        "roc_curve": curve if isinstance(curve, Mapping) else None,
        "feature_importances": feature_importances(trained.get("feature_importances")),
        # A retraining's model: what its challenge measured and decided (lifecycle.py adds
        # whether it was promoted).
        "challenge": challenge.outcome(params, result, quality, reason),
    }


def list_models(limit: int, scope: ClusterScope | None = None) -> list[dict[str, Any]]:
    """The newest `limit` models, of the clusters `scope` allows (None: every cluster); the
    scope filters the query, so a user's limit counts only models it may see."""
    jobs = SparkJob.objects.filter(job_type__in=MODEL_SOURCES, state=JobState.SUCCEEDED)
    if scope is not None:
        jobs = scoped(jobs, scope)
    rows = jobs.order_by("-created_at", "-id").values_list(
        "id", "job_type", "cluster", "created_at", "params", "result"
    )
    models = []
    for row in rows.iterator():
        entry = model_entry(*row)
        if entry is not None:
            models.append(entry)
            if len(models) >= limit:
                break
    return models


# --- predictions ------------------------------------------------------------------------------
def _prediction(value: bytes | None) -> dict[str, Any] | None:
    try:
        data = json.loads(value) if value is not None else None
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    equipment, probability = data.get("equipment_id"), data.get("failure_probability")
    if not isinstance(equipment, str) or isinstance(probability, bool):
        return None
    if not isinstance(probability, (int, float)):
        return None
    day, model_id = data.get("day"), data.get("model_id")
    return {
        "equipment_id": equipment,
        "day": day if isinstance(day, str) else None,
        "failure_probability": float(probability),
        "model_id": model_id
        if isinstance(model_id, int) and not isinstance(model_id, bool)
        else None,
        "drivers": _entries(data.get("drivers"), {"feature": str, "value": float, "weight": float}),
        "recent_alarms": _entries(
            data.get("recent_alarms"), {"fault_code": str, "count": int, "days": int}
        ),
    }


def _entries(items: Any, shape: dict[str, type]) -> list[dict[str, Any]]:
    """The well-formed entries of a list a score job wrote (a record written by an older
    score job has none: []). Numbers are kept as the shape's type; a bool is no number."""
    out = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, dict):
            continue
        entry: dict[str, Any] = {}
        for key, kind in shape.items():
            value = item.get(key)
            if kind is str and isinstance(value, str):
                entry[key] = value
            elif kind is not str and _finite(value) and (kind is float or value == int(value)):
                entry[key] = kind(value)
        if len(entry) == len(shape):
            out.append(entry)
    return out


def latest_predictions(records: Iterable[Record], limit: int) -> list[dict[str, Any]]:
    """The latest prediction per equipment (by record timestamp; on a tie the record read
    later), highest probability first, then by equipment id; at most `limit`."""
    latest: dict[str, tuple[int, dict[str, Any]]] = {}
    for _key, value, ts in records:
        prediction = _prediction(value)
        if prediction is None:
            continue
        stamp = -1 if ts is None else ts
        held = latest.get(prediction["equipment_id"])
        if held is None or stamp >= held[0]:
            latest[prediction["equipment_id"]] = (stamp, prediction)
    ranked = sorted(
        (p for _, p in latest.values()),
        key=lambda p: (-p["failure_probability"], p["equipment_id"]),
    )
    return ranked[:limit]


def checked_topic(topic: str, field: str) -> str:
    """A topic name from a query parameter, or a 400 naming `field`."""
    if len(topic) > _TOPIC_MAX or not _TOPIC.fullmatch(topic):
        raise BadInput(field, f"{field}: {topic!r} is not a valid topic name.")
    return topic


def read_predictions(cluster: str, topic: str | None, limit: int) -> list[dict[str, Any]]:
    """The latest prediction per equipment from a cluster's predictions topic."""
    topic = checked_topic(topic or DEFAULT_PREDICTIONS_TOPIC, "topic")
    cfg = get_cluster(cluster)  # ClusterNotFound: the API's 404
    partitions = cache.snapshot(cfg).partitions_of(topic)
    if partitions is None:
        raise NotFound(
            f"Topic {topic!r} does not exist on cluster {cfg.name!r} (a score job or the "
            "maintenance pipeline writes predictions to it).",
            code="topic_not_found",
        )
    records = latest_values(kafka.for_cluster(cfg), topic, partitions, SCAN_PER_PARTITION)
    return latest_predictions(records, limit)
