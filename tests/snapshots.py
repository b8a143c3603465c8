"""Metadata snapshots built in memory, for unit tests of the checks that read one (Spark job
submits, the maintenance job types) without a cluster."""

from __future__ import annotations

import time

from console import kafka
from console.metadata import ClusterSnapshot


def topics_snapshot(*topics: str) -> ClusterSnapshot:
    """A cluster holding `topics`, each of one partition with its one replica on broker 1."""
    metas = {t: kafka.TopicMeta(t, False, [kafka.PartitionMeta(0, 1, [1], [1])]) for t in topics}
    return ClusterSnapshot(time.monotonic(), kafka.ClusterDescription("c", 1, []), metas)
