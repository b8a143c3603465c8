"""The bytes each partition holds, for the size side of the retention risk
(`PartitionSizes`): only partitions of topics that delete by `retention.bytes` are asked, with
one DescribeLogDirs per broker naming exactly them (a cluster without such a topic costs
nothing), every `EVERY` passes and at once for a partition not seen before. A broker answers
DescribeLogDirs by walking all of its logs, even for one partition named (40-60 ms a pass at
40,000 partitions on the dev stack), and a size grows no faster than its writes: the size
side of the risk lags the truth by `EVERY` intervals at most. A partition's size is its
largest replica's (not a reassignment's future one): the leader's, or a follower's that has
not yet truncated, which errs on the side of a warning. A failed read keeps what was known;
a partition no longer asked is forgotten. In memory only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from console import kafka
from groups.partitions import TP

log = logging.getLogger(__name__)

EVERY = 6


class PartitionSizes:
    def __init__(self) -> None:
        self.known: dict[TP, int] = {}
        self._failing = False

    def refresh(self, client: kafka.ClusterClient, partitions: Iterable[TP], passes: int) -> int:
        """Read the sizes the pass after `passes` successful ones should (all of
        `partitions` every `EVERY` passes, else those never read); returns how many were
        asked."""
        wanted = {(topic, partition) for topic, partition in partitions}
        for gone in set(self.known) - wanted:
            del self.known[gone]
        ask = wanted if passes % EVERY == 0 else wanted - self.known.keys()
        if not ask:
            return 0
        try:
            answers = client.describe_log_dirs(partitions=ask)
        except kafka.KafkaAdapterError as exc:
            answers = {0: exc}
        sizes: dict[TP, int] = {}
        failed = [str(a) for a in answers.values() if isinstance(a, kafka.KafkaAdapterError)]
        for dirs in answers.values():
            if isinstance(dirs, list):
                for d in dirs:
                    for rep in d.replicas:
                        tp = (rep.topic, rep.partition)
                        if tp in ask and not rep.is_future:
                            sizes[tp] = max(sizes.get(tp, 0), rep.size_bytes)
        if failed and not self._failing:
            log.warning("partition sizes not all read (kept the last known): %s", failed[0])
        self._failing = bool(failed)
        self.known.update(sizes)
        return len(ask)

    def of(self, tp: TP) -> int | None:
        """Its size in bytes (a TopicPartition is the same key as its tuple)."""
        return self.known.get(tp)

    def of_all(self, tps: Iterable[TP]) -> tuple[int | None, ...]:
        """`of` each partition, in C (a group's partitions, each pass)."""
        return tuple(map(self.known.get, tps))
