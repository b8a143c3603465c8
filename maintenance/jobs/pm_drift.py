"""Feature drift: how far a scored day's feature distributions moved from the training set's,
as a population-stability index (PSI) per feature.

The reference is taken when a model is trained (`drift_reference`): per feature, the decile
edges of the reference rows and the share of those rows in each bin. A scored day's rows are
put in the same bins (`day_drift`), and PSI = sum over bins of (actual - expected) x
ln(actual / expected). The day's shares are smoothed with half a row per bin (an empty bin
of a small fleet is rare, not infinitely far), the reference's floored at FLOOR.

A feature has drifted when its PSI is above DRIFT_THRESHOLD (0.25, the usual "significant
shift" bar: below 0.1 the same population, 0.1 to 0.25 a moderate shift) and above what
chance alone reaches one day in a thousand for samples of these sizes (`chance_bar`: PSI is
about a chi-square statistic times 1/n + 1/m, so a day of 40 machines against a reference of
320 rows needs about 0.8 on ten bins, while a fleet of thousands needs the 0.25).

Pure functions for the arithmetic (tested without Spark); DataFrame API only for the counts,
so executors never need this module.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

BINS = 10
FLOOR = 1e-4
PSEUDO_COUNT = 0.5  # per bin, added to the day's counts
DRIFT_THRESHOLD = 0.25
Z_999 = 3.090232  # the standard normal's 99.9th percentile
QUANTILE_ERROR = 0.001
DIGITS = 6


# --- pure ------------------------------------------------------------------------------------
def edges_of(quantiles: Sequence[float]) -> list[float]:
    """Bin edges from a feature's quantiles: finite, distinct, ascending (a feature that takes
    few values, such as an alarm count that is mostly 0, has fewer edges than BINS - 1)."""
    return sorted({float(q) for q in quantiles if q is not None and math.isfinite(q)})


def bin_of(value: float, edges: Sequence[float]) -> int:
    """The bin of a value: the number of edges at or below it (0 .. len(edges))."""
    return bisect_right(edges, value)


def shares(counts: Sequence[int]) -> list[float]:
    """Each bin's share of the rows (all 0.0 without rows)."""
    total = sum(counts)
    return [c / total if total else 0.0 for c in counts]


def smoothed_shares(counts: Sequence[int], pseudo: float = PSEUDO_COUNT) -> list[float]:
    """Each bin's share with `pseudo` rows added to every bin (a bin no row fell in keeps a
    small share, so one empty bin of a small fleet does not read as a large shift)."""
    total = sum(counts) + pseudo * len(counts)
    return [(c + pseudo) / total for c in counts]


def chi2_quantile_999(df: int) -> float:
    """The chi-square distribution's 99.9th percentile (Wilson-Hilferty: at most 4 % above
    the exact value for any df >= 1, never below it, enough for a bar)."""
    if df < 1:
        return 0.0
    a = 2 / (9 * df)
    return df * (1 - a + Z_999 * math.sqrt(a)) ** 3


def chance_bar(bins: int, day_rows: int, reference_rows: int) -> float:
    """The PSI that two samples of one population reach by chance one day in a thousand."""
    if day_rows <= 0 or reference_rows <= 0:
        return math.inf
    return chi2_quantile_999(bins - 1) * (1 / day_rows + 1 / reference_rows)


def psi(expected: Sequence[float], actual: Sequence[float], floor: float = FLOOR) -> float:
    """The population-stability index of `actual` shares against `expected` ones."""
    if len(expected) != len(actual):
        raise ValueError(f"{len(expected)} expected shares against {len(actual)} actual ones")
    total = 0.0
    for e, a in zip(expected, actual, strict=True):
        e, a = max(e, floor), max(a, floor)
        total += (a - e) * math.log(a / e)
    return total


def drift_summary(
    reference: Mapping[str, Any],
    counts: Mapping[str, Sequence[int]],
    threshold: float = DRIFT_THRESHOLD,
) -> dict[str, Any]:
    """The drift of one day: PSI per feature with its bar, largest PSI first, and the features
    over their bar (the larger of `threshold` and the chance bar of these sample sizes)."""
    reference_rows = int(reference.get("rows") or 0)
    rows = []
    for feature, ref in reference["features"].items():
        if feature not in counts:
            continue
        day = counts[feature]
        bar = max(threshold, chance_bar(len(day), sum(day), reference_rows))
        value = psi(ref["shares"], smoothed_shares(day))
        rows.append({"feature": feature, "psi": round(value, DIGITS), "bar": round(bar, DIGITS)})
    rows.sort(key=lambda row: (-row["psi"], row["feature"]))
    return {
        "threshold": threshold,
        "rows": sum(next(iter(counts.values()), [])),
        "features": rows,
        "drifted": [row["feature"] for row in rows if row["psi"] > row["bar"]],
        "max_psi": rows[0]["psi"] if rows else None,
    }


# --- Spark -----------------------------------------------------------------------------------
def _bin_column(column: str, edges: Sequence[float]) -> Column:
    """bin_of as a column: the first edge above the value is the bin's upper bound."""
    expr: Column = F.lit(len(edges))
    for i in reversed(range(len(edges))):
        expr = F.when(F.col(column) < F.lit(edges[i]), F.lit(i)).otherwise(expr)
    return expr


def bin_counts(rows: DataFrame, edges: Mapping[str, Sequence[float]]) -> dict[str, list[int]]:
    """Rows per bin of every feature, in one pass (features as rows of a long table)."""
    if not edges:
        return {}
    long = rows.select(
        F.explode(
            F.array(
                *(
                    F.struct(F.lit(c).alias("f"), _bin_column(c, e).alias("b"))
                    for c, e in edges.items()
                )
            )
        ).alias("x")
    )
    counts = {c: [0] * (len(e) + 1) for c, e in edges.items()}
    for row in long.groupBy("x.f", "x.b").count().collect():
        counts[row["f"]][int(row["b"])] = int(row["count"])
    return counts


def drift_reference(rows: DataFrame, columns: list[str]) -> dict[str, Any]:
    """The training rows' bins per feature: edges at the deciles and each bin's share."""
    probabilities = [i / BINS for i in range(1, BINS)]
    quantiles = rows.approxQuantile(columns, probabilities, QUANTILE_ERROR) if columns else []
    edges = {c: edges_of(q) for c, q in zip(columns, quantiles, strict=True)}
    counts = bin_counts(rows, edges)
    return {
        "bins": BINS,
        "features": {
            c: {"edges": edges[c], "shares": [round(s, DIGITS) for s in shares(counts[c])]}
            for c in columns
        },
    }


def day_drift(rows: DataFrame, reference: dict[str, Any]) -> dict[str, Any]:
    """A scored day's drift against a model's reference (rows: that day's, nulls filled)."""
    present = {c: ref["edges"] for c, ref in reference["features"].items() if c in rows.columns}
    return drift_summary(reference, bin_counts(rows, present))
