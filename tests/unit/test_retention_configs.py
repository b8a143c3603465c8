"""The retention settings the sampler keeps between passes (groups.lag.retention_configs):
read for every topic every EVERY passes and at once for a new one, kept when a read fails.
A recording stand-in for the client: this is the caching rule, not Kafka."""

from __future__ import annotations

from console.kafka import KafkaAdapterError
from groups.lag.retention import TopicRetention
from groups.lag.retention_configs import EVERY, RetentionConfigs

WEEK = {"retention.ms": "604800000", "retention.bytes": "-1", "cleanup.policy": "delete"}


class Client:
    def __init__(self) -> None:
        self.asked: list[list[str]] = []
        self.fail = False
        self.values = {"a": WEEK, "b": {**WEEK, "cleanup.policy": "compact"}}

    def topic_config_values(self, topics: list[str], keys: list[str]) -> dict:
        assert keys == ["retention.ms", "retention.bytes", "cleanup.policy"]
        self.asked.append(topics)
        if self.fail:
            raise KafkaAdapterError("brokers down", code="kafka_unreachable")
        return {t: self.values[t] for t in topics if t in self.values}


def test_every_topic_at_the_first_pass_then_only_new_ones_until_the_next_round():
    configs, client = RetentionConfigs(), Client()
    assert configs.refresh(client, {"a", "b"}, passes=0) == 2
    assert configs.of("a") == TopicRetention(604800000, None, True)
    assert configs.of("b") is not None and not configs.of("b").deletes
    assert configs.refresh(client, {"a", "b"}, passes=1) == 0
    client.values["c"] = WEEK
    assert configs.refresh(client, {"a", "b", "c"}, passes=2) == 1
    assert client.asked == [["a", "b"], ["c"]]
    client.values["a"] = {**WEEK, "retention.ms": "60000"}
    configs.refresh(client, {"a", "b", "c"}, passes=EVERY)
    assert client.asked[-1] == ["a", "b", "c"] and configs.of("a").ms == 60000


def test_topics_no_group_reads_are_forgotten_and_a_failed_read_keeps_what_was_known():
    configs, client = RetentionConfigs(), Client()
    configs.refresh(client, {"a", "b"}, passes=0)
    configs.refresh(client, {"a"}, passes=1)
    assert configs.of("b") is None and configs.of("a") is not None
    client.fail = True
    configs.refresh(client, {"a"}, passes=EVERY)
    assert configs.of("a") == TopicRetention(604800000, None, True)
    configs.refresh(client, {"a", "gone"}, passes=EVERY + 1)  # not found: nothing kept
    assert configs.of("gone") is None
