"""Which groups read each topic, with their lag on it: from the sampler's latest pass, so a
topic list of thousands of rows costs one Redis read and no Kafka call per group."""

from __future__ import annotations

import logging
from typing import Any

from groups.lag import store

log = logging.getLogger(__name__)


def readers_by_topic(evaluations: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """topic -> [{group_id, lag, status}] by group id, from the groups' evaluations."""
    out: dict[str, list[dict[str, Any]]] = {}
    for group in sorted(evaluations):
        for topic, summary in evaluations[group].get("topics", {}).items():
            out.setdefault(topic, []).append(
                {"group_id": group, "lag": summary.get("lag"), "status": summary.get("status")}
            )
    return out


def topic_readers(cluster: str) -> dict[str, list[dict[str, Any]]] | None:
    """`readers_by_topic` of the cluster's latest pass; None when it is not known (the sampler
    has not passed yet, or Redis is down): a topic list then says "unknown", not "no reader"."""
    try:
        evaluations, meta = store.read_latest_and_meta(cluster)
    except store.StoreUnavailable as exc:
        log.warning("lag store unavailable, topic readers unknown: %s", exc)
        return None
    if meta is None:
        return None
    return readers_by_topic(evaluations)
