"""Champion / challenger: whether a retraining's model becomes the active one
(docs/maintenance-loop.md, "Retraining and promotion").

A `maintenance-retrain` job measures its new model (the challenger) and the active model at
submit (the champion) on the same rows: the newest labelled days, its own test part
(maintenance/jobs/pm_challenge.py). `verdict` decides from those measurements, a pure rule:

- a challenger that is not usable (`service.model_quality`) is never promoted;
- with no active model to beat, a usable challenger is promoted (the retraining schedule of a
  cluster without a model gives it one);
- a champion that could not be measured on these days (it needs features this run did not
  compute) is kept: the comparison is not made, and an operator decides;
- otherwise the challenger is promoted when its ROC AUC on those days is at least the
  champion's plus the margin (`challenge.margin`, 0.01 by default): a model is replaced only
  for a real gain, not for noise or for a tie.

lifecycle.settle, the job type's `on_success`, applies the verdict once the job has succeeded:
an automatic promotion (`ModelPromotion.How.AUTO`, the verdict its reason, audited) if the
champion is still the active model; an operator's promotion in the meantime wins. `outcome`
says, for any model, what its challenge decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_MARGIN = 0.01
MAX_MARGIN = 0.5


def _auc(side: Any) -> float | None:
    value = side.get("roc_auc") if isinstance(side, Mapping) else None
    return float(value) if isinstance(value, int | float) else None


def verdict(
    measured: Mapping[str, Any], margin: float, quality: str, quality_reason: str | None
) -> tuple[bool, str]:
    """(promote?, why) for a challenge's measurements (its `challenge` step's result)."""
    champion_id = measured.get("champion_id")
    challenger, champion = _auc(measured.get("challenger")), _auc(measured.get("champion"))
    days = (
        f"on the {measured.get('rows')} rows of the labelled days from "
        f"{measured.get('cutoff_date')} ({measured.get('positives')} before a failure)"
    )
    if quality != "usable":
        return False, f"Not promoted: the new model is not usable ({quality_reason})."
    if champion_id is None:
        return True, (
            f"Promoted: there was no active model to beat, and the new model is usable (ROC "
            f"AUC {challenger:.3f} {days})."
        )
    if champion is None or challenger is None:
        why = measured.get("champion_unscored") or "its ROC AUC is undefined on these days"
        return False, (
            f"Not promoted: model {champion_id} could not be measured against it ({why}); "
            "promote it by hand if it should be active."
        )
    gain = round(challenger - champion, 6)
    compared = f"ROC AUC {challenger:.3f} against model {champion_id}'s {champion:.3f} {days}"
    if gain >= margin:
        return True, f"Promoted: {compared}, a gain of {gain:.3f} (the margin is {margin:g})."
    return False, (f"Kept as a candidate: {compared}; it must beat the active model by {margin:g}.")


def measured_challenge(params: Any, result: Any) -> tuple[dict[str, Any], float] | None:
    """(a retraining's challenge measurements, its margin), or None for other jobs."""
    measured = result.get("challenge") if isinstance(result, Mapping) else None
    if not isinstance(measured, Mapping):
        return None
    wanted = params.get("challenge") if isinstance(params, Mapping) else None
    margin = wanted.get("margin") if isinstance(wanted, Mapping) else None
    return dict(measured), float(margin if isinstance(margin, int | float) else DEFAULT_MARGIN)


def outcome(
    params: Any, result: Any, quality: str, quality_reason: str | None
) -> dict[str, Any] | None:
    """What a retraining's challenge decided for its model, from its job's params and result
    (None for a model that was not challenged): the measurements and the verdict. Whether it
    was promoted is the promotions' history (lifecycle.py)."""
    found = measured_challenge(params, result)
    if found is None:
        return None
    measured, margin = found
    promote, reason = verdict(measured, margin, quality, quality_reason)
    return {
        "champion_id": measured.get("champion_id"),
        "cutoff_date": measured.get("cutoff_date"),
        "rows": measured.get("rows"),
        "positives": measured.get("positives"),
        "challenger_roc_auc": _auc(measured.get("challenger")),
        "champion_roc_auc": _auc(measured.get("champion")),
        "margin": margin,
        "verdict": "promote" if promote else "keep",
        "promoted": False,
        "reason": reason,
    }
