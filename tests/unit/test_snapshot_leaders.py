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


def test_a_miss_in_a_cached_snapshot_is_confirmed_by_the_brokers(monkeypatch):
    """A topic created after the cached snapshot was taken is found, not refused (issue: a
    job submitted within the snapshot's TTL of creating its topic got "does not exist")."""
    from console.clusters import ClusterConfig

    client = _Client([Broker(1, "a", 1, None)], [_topic("old", 1)])
    asked: list[tuple[str, list[int]]] = []

    def find_topic(name: str, wanted=()) -> TopicMeta | None:
        asked.append((name, list(wanted)))
        return next((t for t in client.topics if t.name == name), None)

    monkeypatch.setattr(client, "find_topic", find_topic, raising=False)
    monkeypatch.setattr(metadata.kafka, "for_cluster", lambda cfg: client)
    cache, cfg = metadata.SnapshotCache(), ClusterConfig("c", "x:1")
    cached = cache.snapshot(cfg)
    client.topics = [_topic("old", 1), _topic("new", 1)]
    assert cache.snapshot(cfg) is cached  # within its TTL: the cached one, without "new"
    assert "new" not in cached.topics
    assert cached.partitions_of("new") == [0]  # the miss asked the brokers
    assert asked == [("new", [])]
    assert cached.partitions_of("old") == [0]  # a hit asks nothing
    assert len(asked) == 1
    assert cached.partitions_of("gone") is None  # a real miss is still a miss, after asking
    assert asked[-1] == ("gone", [])
    # A partition asked for that the cached snapshot lacks is confirmed too.
    client.topics = [TopicMeta("old", False, [PartitionMeta(p, 1, [1], [1]) for p in (0, 1)])]
    assert cached.partitions_of("old", [1]) == [0, 1]
    assert asked[-1] == ("old", [1])


def test_a_snapshot_without_a_cache_answers_from_itself():
    snap = metadata.ClusterSnapshot(0.0, ClusterDescription("id", 1, []), {})
    assert snap.partitions_of("t") is None


def test_a_broker_that_refuses_a_topic_name_does_not_make_it_exist():
    """Metadata for a name Kafka cannot hold answers INVALID_TOPIC_EXCEPTION with the topic
    listed and no partitions: that is not a topic (the fuzz run's 500 on a topic detail)."""
    from console.kafka import protocol
    from console.kafka.wire import _known

    def answer(error: int | None, partitions: list[PartitionMeta]) -> protocol.Metadata:
        errors = {} if error is None else {"t": error}
        return protocol.Metadata("id", 1, {}, {"t": partitions}, errors, frozenset())

    one = [PartitionMeta(0, 1, [1], [1])]
    assert _known(answer(None, one), "t") == one
    assert _known(answer(protocol.LEADER_NOT_AVAILABLE, one), "t") == one  # being created
    for refused in (17, 29, protocol.UNKNOWN_TOPIC):  # invalid name, not authorized, unknown
        assert _known(answer(refused, []), "t") is None


def test_a_name_kafka_cannot_hold_is_missing_without_asking():
    from console.clusters import ClusterConfig
    from console.kafka.client import ClusterClient

    client = ClusterClient(ClusterConfig("c", "127.0.0.1:9"), timeout=0.5)  # nothing listens
    for name in ("a b", "é", "x" * 250, ".", "..", ""):
        assert client.find_topic(name) is None
