"""The retention settings of the topics groups read (`RetentionConfigs`), kept between passes.

Configs change rarely: a pass reads them for every such topic every `EVERY` passes, and at
once for a topic not seen before; the passes between use what was kept. A failed read keeps
what was known (a topic whose settings were never read has no retention risk but `lost`).
In memory only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from console import kafka
from console.kafka import KafkaAdapterError
from groups.lag.retention import CONFIG_KEYS, TopicRetention

log = logging.getLogger(__name__)

EVERY = 12


class RetentionConfigs:
    def __init__(self) -> None:
        self.known: dict[str, TopicRetention | None] = {}
        self._failing = False

    def refresh(self, client: kafka.ClusterClient, topics: Iterable[str], passes: int) -> int:
        """Read what this pass should; returns how many topics were asked."""
        wanted = set(topics)
        for gone in set(self.known) - wanted:
            del self.known[gone]
        ask = sorted(wanted if passes % EVERY == 0 else wanted - set(self.known))
        if not ask:
            return 0
        try:
            values = client.topic_config_values(ask, CONFIG_KEYS)
        except KafkaAdapterError as exc:
            if not self._failing:
                log.warning("retention settings not read (kept the last known): %s", exc)
            self._failing = True
            return len(ask)
        self._failing = False
        for topic in ask:
            found = values.get(topic)
            if found is not None:
                self.known[topic] = TopicRetention.from_configs(found)
        return len(ask)

    def of(self, topic: str) -> TopicRetention | None:
        return self.known.get(topic)
