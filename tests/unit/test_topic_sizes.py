"""Topic sizes, message counts and readers from a cluster's sizes and the sampler's pass."""

from __future__ import annotations

from console.kafka.types import PartitionMeta, TopicMeta
from groups.lag.readers import readers_by_topic
from topics.sizes import ClusterSizes, partition_size, topic_size_fields

TOPIC = TopicMeta(
    "t",
    False,
    [PartitionMeta(0, 1, [1, 2], [1, 2]), PartitionMeta(1, 2, [2, 3], [2, 3])],
)


def _sizes(replicas: dict, unanswered: frozenset = frozenset(), ends=None) -> ClusterSizes:
    ends = {("t", 0): 10, ("t", 1): 7} if ends is None else ends
    starts = {("t", 0): 2, ("t", 1): 0}
    return ClusterSizes(replicas, starts, ends, unanswered, frozenset(starts), 0.0)


def test_the_size_is_the_leaders_and_replicas_add_every_copy():
    sizes = _sizes({("t", 0, 1): 100, ("t", 0, 2): 90, ("t", 1, 2): 50, ("t", 1, 3): 50})
    fields = topic_size_fields(TOPIC, sizes, compacted=False)
    assert fields == {
        "size_bytes": 150,
        "replicas_size_bytes": 290,
        "message_count": 15,
        "message_count_is_upper_bound": False,
    }


def test_a_leader_not_read_makes_the_size_unknown_not_smaller():
    sizes = _sizes({("t", 0, 2): 90, ("t", 1, 2): 50, ("t", 1, 3): 50}, frozenset({1}))
    fields = topic_size_fields(TOPIC, sizes, compacted=True)
    assert fields["size_bytes"] is None
    assert fields["replicas_size_bytes"] is None  # a broker's dirs unread: unknown
    assert fields["message_count_is_upper_bound"] is True


def test_a_partition_without_offsets_makes_the_count_unknown():
    sizes = _sizes({}, ends={("t", 0): 10})
    assert topic_size_fields(TOPIC, sizes, compacted=False)["message_count"] is None


def test_a_partition_without_leader_has_no_size():
    offline = PartitionMeta(0, None, [1], [])
    assert partition_size(_sizes({("t", 0, 1): 5}), "t", offline) is None


def test_readers_are_listed_per_topic_by_group_with_their_lag_and_status():
    evaluations = {
        "b": {"topics": {"t": {"lag": 5, "status": "WARN"}, "u": {"lag": 0, "status": "OK"}}},
        "a": {"topics": {"t": {"lag": None, "status": "UNKNOWN"}}},
        "idle": {"topics": {}},
    }
    assert readers_by_topic(evaluations) == {
        "t": [
            {"group_id": "a", "lag": None, "status": "UNKNOWN"},
            {"group_id": "b", "lag": 5, "status": "WARN"},
        ],
        "u": [{"group_id": "b", "lag": 0, "status": "OK"}],
    }


def test_a_brokers_disk_sums_its_directories_and_the_replicas_it_holds():
    from topics.sizes import broker_disk_fields

    sizes = ClusterSizes(
        {("t", 0, 1): 100, ("t", 1, 1): 20, ("t", 1, 2): 50},
        {},
        {},
        frozenset({3}),
        frozenset(),
        0.0,
        {1: (1000, 400), 2: (None, None)},
    )
    assert broker_disk_fields(sizes, 1) == {
        "disk_total_bytes": 1000,
        "disk_usable_bytes": 400,
        "replicas_size_bytes": 120,
    }
    assert broker_disk_fields(sizes, 2)["disk_total_bytes"] is None
    assert broker_disk_fields(sizes, 3)["replicas_size_bytes"] is None  # did not answer
    assert broker_disk_fields(None, 1)["replicas_size_bytes"] is None
