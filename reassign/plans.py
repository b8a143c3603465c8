"""Reassignment plans in kafka-reassign-partitions.sh's JSON format, read and written.

`{"version": 1, "partitions": [{"topic", "partition", "replicas", "log_dirs"}]}`: what the
tool's --generate prints and its --execute / --verify / --cancel read. A plan read here is
refused with the tool's own words where it has them (an empty list, a duplicate partition,
a duplicate replica, log_dirs of another length, a version other than 1); keys the format does
not have are refused too (a misspelt "replica" must not become "no replicas").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from console.errors import BadInput

TP = tuple[str, int]
ANY_DIR = "any"
_PLAN_KEYS = {"version", "partitions"}
_PARTITION_KEYS = {"topic", "partition", "replicas", "log_dirs"}


@dataclass(frozen=True)
class Target:
    """One partition's wanted replicas (order: the first is the preferred leader) and, per
    replica, the log dir to put it in (`any`: wherever the broker likes)."""

    topic: str
    partition: int
    replicas: tuple[int, ...]
    log_dirs: tuple[str, ...]

    @property
    def tp(self) -> TP:
        return (self.topic, self.partition)


def _refuse(message: str) -> BadInput:
    return BadInput("plan", f"plan: {message}")


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise _refuse(f"{what} must be a whole number from 0 to {2**31 - 1}, not {value!r}.")
    return value


def parse_plan(doc: Any) -> list[Target]:
    """The targets of a plan document, in its order; BadInput (field `plan`) otherwise."""
    if not isinstance(doc, Mapping):
        raise _refuse('must be an object {"version": 1, "partitions": [...]}.')
    unknown = sorted(set(doc) - _PLAN_KEYS)
    if unknown:
        raise _refuse(f"unknown key(s) {', '.join(map(repr, unknown))}.")
    if doc.get("version", 1) != 1:
        raise _refuse(f"Not supported version field value {doc.get('version')!r}.")
    raw = doc.get("partitions")
    if not isinstance(raw, list) or not raw:
        raise _refuse("Partition reassignment list cannot be empty.")
    targets: list[Target] = []
    seen: set[TP] = set()
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise _refuse(f"partitions[{i}] must be an object.")
        unknown = sorted(set(item) - _PARTITION_KEYS)
        if unknown:
            raise _refuse(f"partitions[{i}]: unknown key(s) {', '.join(map(repr, unknown))}.")
        topic = item.get("topic")
        if not isinstance(topic, str) or not topic:
            raise _refuse(f"partitions[{i}].topic must be a topic name.")
        partition = _whole(item.get("partition"), f"partitions[{i}].partition")
        replicas = item.get("replicas")
        if not isinstance(replicas, list) or not replicas:
            raise _refuse("Partition replica list cannot be empty.")
        brokers = tuple(_whole(r, f"partitions[{i}].replicas") for r in replicas)
        name = f"{topic}-{partition}"
        if (topic, partition) in seen:
            raise _refuse(f"Partition reassignment contains duplicate topic partitions: {name}")
        seen.add((topic, partition))
        repeated = sorted({b for b in brokers if brokers.count(b) > 1})
        if repeated:
            raise _refuse(
                "Partition replica lists may not contain duplicate entries: "
                f"{name} contains multiple entries for {repeated[0]}"
            )
        dirs = item.get("log_dirs")
        if dirs is None:
            log_dirs = (ANY_DIR,) * len(brokers)
        elif not isinstance(dirs, list) or not all(isinstance(d, str) and d for d in dirs):
            raise _refuse(f'partitions[{i}].log_dirs must be a list of paths or "any".')
        elif len(dirs) != len(brokers):
            raise _refuse(
                f"Size of replicas list {list(brokers)} is different from size of log dirs "
                f"list {dirs} for partition {name}"
            )
        else:
            log_dirs = tuple(dirs)
        targets.append(Target(topic, partition, brokers, log_dirs))
    return targets


def plan_document(
    assignment: Mapping[TP, list[int] | tuple[int, ...]],
    dirs: Mapping[tuple[str, int, int], str] | None = None,
) -> dict[str, Any]:
    """An assignment as the tool prints it: sorted by topic then partition; each replica's
    log dir from `dirs` ((topic, partition, broker) -> path; Kafka 4.3's --generate prints the
    current dirs so), else "any"."""
    known = dirs or {}
    return {
        "version": 1,
        "partitions": [
            {
                "topic": topic,
                "partition": partition,
                "replicas": list(assignment[(topic, partition)]),
                "log_dirs": [
                    known.get((topic, partition, b), ANY_DIR)
                    for b in assignment[(topic, partition)]
                ],
            }
            for topic, partition in sorted(assignment)
        ],
    }


def replicas_of(doc: dict[str, Any]) -> dict[TP, list[int]]:
    """A plan document (one the console wrote, so well formed) as replicas by partition."""
    return {(p["topic"], p["partition"]): list(p["replicas"]) for p in doc["partitions"]}
