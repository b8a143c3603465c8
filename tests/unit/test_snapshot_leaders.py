"""The snapshot's leader map is carried over only while the metadata is unchanged."""

from __future__ import annotations

from console import metadata
from console.kafka.types import Broker, ClusterDescription, PartitionMeta, TopicMeta


class _Client:
    def __init__(self, brokers: list[Broker], topics: list[TopicMeta]):
        self.brokers, self.topics = brokers, topics

    def describe_cluster(self) -> ClusterDescription:
        return ClusterDescription("id", 1, list(self.brokers))

    def topic_metadata(self) -> list[TopicMeta]:
        return list(self.topics)  # the same objects, as the real client gives when unchanged


def _topic(name: str, leader: int) -> TopicMeta:
    return TopicMeta(name, False, [PartitionMeta(0, leader, [1, 2], [1, 2])])


def test_the_leader_map_follows_the_metadata(monkeypatch):
    from console.clusters import ClusterConfig

    brokers = [Broker(1, "a", 1, None), Broker(2, "b", 2, None)]
    client = _Client(brokers, [_topic("t", 1)])
    monkeypatch.setattr(metadata.kafka, "for_cluster", lambda cfg: client)
    cache, cfg = metadata.SnapshotCache(), ClusterConfig("c", "x:1")
    first = cache.snapshot(cfg, max_age=0).leader_addresses
    assert first == {("t", 0): ("a", 1)}
    same = cache.snapshot(cfg, max_age=0)
    assert same.leader_addresses is first  # unchanged: carried over, not rebuilt
    client.topics = [_topic("t", 2)]  # a leader moved: new objects
    assert cache.snapshot(cfg, max_age=0).leader_addresses == {("t", 0): ("b", 2)}
    client.brokers = [Broker(1, "a", 1, None), Broker(2, "b2", 2, None)]  # a broker moved
    assert cache.snapshot(cfg, max_age=0).leader_addresses == {("t", 0): ("b2", 2)}
