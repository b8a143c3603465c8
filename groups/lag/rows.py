"""A group's lag evaluation as the REST answers show it: the fields the sampler adds to a
group's row and detail, and the whole row of the groups list, which the sampler stores with
each pass so that the list is answered without reading every partition's evaluation."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

UNKNOWN = "UNKNOWN"


@functools.lru_cache(maxsize=16)  # a pass gives every group's row and message the same time
def iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat()


def _rates(topics: dict[str, dict[str, Any]]) -> dict[str, float | None]:
    """The group's write and consume rates: the sums over its topics, None unless every
    topic has one (one loop: every group's row, every pass)."""
    write: float | None = 0.0
    consume: float | None = 0.0
    for t in topics.values():
        w, c = t.get("write_per_s"), t.get("consume_per_s")
        write = None if write is None or w is None else write + w
        consume = None if consume is None or c is None else consume + c
    if not topics:
        return {"write_per_s": None, "consume_per_s": None}
    return {
        "write_per_s": None if write is None else float(write),
        "consume_per_s": None if consume is None else float(consume),
    }


def evaluation_fields(evaluation: dict[str, Any] | None) -> dict[str, Any]:
    """The group-level fields the sampler adds to a REST answer (empty values without one)."""
    if not evaluation:
        return {
            "status": UNKNOWN,
            "max_lag_seconds": None,
            "rates": {"write_per_s": None, "consume_per_s": None},
            "catch_up_seconds": None,
            "retention_risk": "none",
            "retention_reason": None,
            "sampled_at": None,
        }
    return {
        "status": evaluation.get("status", UNKNOWN),
        "max_lag_seconds": evaluation.get("max_lag_seconds"),
        "rates": _rates(evaluation.get("topics", {})),
        "catch_up_seconds": evaluation.get("catch_up_seconds"),
        "retention_risk": evaluation.get("retention_risk", "none"),
        "retention_reason": evaluation.get("retention_reason"),
        "sampled_at": iso(evaluation.get("ts")),
    }


def list_row(evaluation: dict[str, Any]) -> dict[str, Any]:
    """The group's row of `GET clusters/{cluster}/groups`, as of the pass that evaluated it:
    what a read of Kafka at that moment gives (groups.lag.rest.live_groups)."""
    return {
        "group_id": evaluation["group_id"],
        "state": evaluation["state"],
        "protocol_type": evaluation["protocol_type"],
        "member_count": evaluation["member_count"],
        "topics": evaluation["topic_names"],
        "total_lag": evaluation["total_lag"],
        "max_lag": evaluation["max_lag"],
        **evaluation_fields(evaluation),
    }
