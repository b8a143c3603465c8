"""A topic's configs right after it was created: a broker behind on metadata answers without
the topic, and the detail must not present the defaults as the topic's configs."""

from __future__ import annotations

import pytest

from console import kafka
from topics import listing

MIN_ISR_2 = {
    "min.insync.replicas": kafka.ConfigValue("2", "DYNAMIC_TOPIC_CONFIG", False, False, False)
}


class Brokers:
    """Answers without the topic `behind` times, then with its configs."""

    def __init__(self, behind: int) -> None:
        self.behind, self.asked = behind, 0

    def describe_topic_configs(self, topics: list[str]) -> dict:
        self.asked += 1
        return {} if self.asked <= self.behind else {topics[0]: MIN_ISR_2}


def test_a_broker_behind_on_metadata_is_asked_again(monkeypatch):
    monkeypatch.setattr(listing, "CONFIG_READ_PAUSE_S", 0)
    brokers = Brokers(behind=3)
    assert listing.topic_configs(brokers, "t") == MIN_ISR_2
    assert brokers.asked == 4


def test_configs_that_never_come_are_a_504_not_the_defaults(monkeypatch):
    monkeypatch.setattr(listing, "CONFIG_READ_PAUSE_S", 0)
    brokers = Brokers(behind=10**6)
    with pytest.raises(kafka.KafkaTimeout, match="could not be read"):
        listing.topic_configs(brokers, "t")
    assert brokers.asked == listing.CONFIG_READ_ATTEMPTS
