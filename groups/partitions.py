"""A partition as groups' code names it, shared by the offset resets and the lag sampler.

console.kafka keys its answers by plain `(topic, partition)` tuples (`TP`); groups' code
reads them as `TopicPartition` (`TopicPartition(*tp)`), which equals and hashes as the same
tuple, so either finds the other's dict entries. Loads no Kafka client.
"""

from __future__ import annotations

from typing import NamedTuple

TP = tuple[str, int]  # the pair as console.kafka takes and returns it (console.kafka.TP)


class TopicPartition(NamedTuple):
    topic: str
    partition: int

    @property
    def label(self) -> str:
        """`topic-partition`, as Kafka's tools name a partition."""
        return f"{self.topic}-{self.partition}"
