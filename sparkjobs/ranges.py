"""Which offsets a job reads: its params resolved against the partitions' log bounds.

Resolved once, when the job starts, so its script reads exactly these offsets (Spark's Kafka
source with `startingOffsets`/`endingOffsets` JSON) and its result can say what was read.
"""

from __future__ import annotations

from typing import Any

from console import kafka
from console.clusters import ClusterConfig
from console.errors import BadInput
from sparkjobs.job_types import parse_time_ms

Ranges = dict[int, tuple[int, int]]


def _per_partition(value: Any, partition: int) -> int | None:
    if isinstance(value, dict):
        found = value.get(str(partition))
        return None if found is None else int(found)
    return None if value is None else int(value)


def plan_ranges(
    partitions: list[int],
    log_start: dict[int, int],
    log_end: dict[int, int],
    start: dict[int, int | None],
    end: dict[int, int | None],
) -> Ranges:
    """[first, end) per partition: absent bounds are the log's, every bound is clamped into
    the retained log, and an end never falls before its start (an empty range)."""
    out: Ranges = {}
    for p in partitions:
        low, high = log_start[p], log_end[p]
        asked_start, asked_end = start.get(p), end.get(p)
        first = low if asked_start is None else min(max(asked_start, low), high)
        stop = high if asked_end is None else min(max(asked_end, first), high)
        out[p] = (first, stop)
    return out


def _offsets(client: Any, tps: list[kafka.TP], spec: str | int, what: str) -> dict[int, int]:
    results = client.list_offsets(tps, spec)
    out: dict[int, int] = {}
    for (topic, partition), result in results.items():
        if isinstance(result, kafka.KafkaAdapterError):
            raise type(result)(
                f"Could not read the {what} of {topic}/{partition}: {result.message}",
                code=result.code,
            )
        out[partition] = result.offset
    return out


def resolve_ranges(cfg: ClusterConfig, params: dict[str, Any]) -> Ranges:
    """The job's ranges on the cluster as it is now (the topic may have changed since the
    job was queued: that is refused with the same errors as at submission)."""
    topic = params["topic"]
    client = kafka.for_cluster(cfg)
    meta = client.find_topic(topic, params.get("partitions") or ())
    existing = [] if meta is None else [p.partition for p in meta.partitions]
    if not existing:
        raise BadInput("params.topic", f"params.topic: topic {topic!r} does not exist.")
    partitions = params.get("partitions") or existing
    missing = sorted(set(partitions) - set(existing))
    if missing:
        raise BadInput("params.partitions", f"params.partitions: no partition {missing[0]}.")
    tps = [(topic, p) for p in sorted(partitions)]
    low = _offsets(client, tps, "earliest", "log start")
    high = _offsets(client, tps, "latest", "log end")
    bounds: dict[str, dict[int, int | None]] = {}
    for side in ("start", "end"):
        moment = params.get(f"{side}_time")
        if moment is not None:
            at = _offsets(client, tps, parse_time_ms(moment, f"params.{side}_time"), "time")
            # Kafka answers -1 when no record is that recent: the range ends at the log end.
            bounds[side] = {p: (high[p] if o < 0 else o) for p, o in at.items()}
        else:
            value = params.get(f"{side}_offset")
            bounds[side] = {p: _per_partition(value, p) for p in partitions}
    return plan_ranges(sorted(partitions), low, high, bounds["start"], bounds["end"])
