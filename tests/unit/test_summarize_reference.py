"""`summarize` (one loop, run for every group and topic of every pass) gives what the
straightforward definition below gives, for any rows."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from groups.lag import measures, status
from groups.lag.evaluation import summarize


def reference(rows: list[dict[str, Any]]) -> dict[str, Any]:
    lags = [p["lag"] for p in rows if p["lag"] is not None]
    seconds = [p["lag_seconds"] for p in rows if p["lag_seconds"] is not None]
    total = sum(lags) if lags else None

    def rate_sum(name: str) -> float | None:
        values = [p[name] for p in rows]
        return None if not values or any(v is None for v in values) else float(sum(values))

    write, consume = rate_sum("write_per_s"), rate_sum("consume_per_s")
    worst = measures.worst_risk(p["retention_risk"] for p in rows)
    named = [p for p in rows if p["retention_risk"] == worst and p.get("retention_reason")]
    reason = None
    if worst != measures.NONE and named:
        reason = f"{named[0]['topic']}-{named[0]['partition']}: {named[0]['retention_reason']}"
    return {
        "lag": total,
        "max_lag": max(lags) if lags else None,
        "max_lag_seconds": max(seconds) if seconds else None,
        "write_per_s": write,
        "consume_per_s": consume,
        "catch_up_seconds": measures.catch_up_seconds(total, write, consume),
        "retention_risk": worst,
        "retention_reason": reason,
        "status": status.group_status(p["status"] for p in rows),
    }


maybe_float = st.none() | st.floats(-1e6, 1e6, allow_nan=False)
rows = st.lists(
    st.fixed_dictionaries(
        {
            "topic": st.sampled_from(["a", "b"]),
            "partition": st.integers(0, 3),
            "lag": st.none() | st.integers(-5, 10**6),
            "lag_seconds": maybe_float,
            "write_per_s": maybe_float,
            "consume_per_s": maybe_float,
            "retention_risk": st.sampled_from(["none", "near", "lost", "odd"]),
            "retention_reason": st.none() | st.sampled_from(["", "why", "because"]),
            "status": st.sampled_from([*status.SEVERITY, "not a status"]),
        }
    ),
    max_size=6,
)


@settings(max_examples=400, deadline=None)
@given(rows)
def test_summarize_equals_its_definition(rows: list[dict[str, Any]]) -> None:
    assert summarize(rows) == reference(rows)
    assert summarize(iter(rows)) == reference(rows)
