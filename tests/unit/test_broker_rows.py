from console.kafka import Broker, ClusterDescription, PartitionMeta, TopicMeta
from topics.cluster_overview import broker_rows


def test_leader_replica_and_offline_counts_per_broker():
    desc = ClusterDescription("cid", 2, [Broker(1, "h", 1, None), Broker(2, "h", 2, "rack-b")])
    topics = [
        TopicMeta(
            "a", False, [PartitionMeta(0, 1, [1, 2], [1, 2]), PartitionMeta(1, 2, [2, 1], [2])]
        ),
        # Offline partition: no leader, both its replicas count as offline.
        TopicMeta("b", False, [PartitionMeta(0, None, [1, 2], [])]),
    ]
    rows = {row["id"]: row for row in broker_rows(desc, topics)}
    assert rows[1] == {
        "id": 1,
        "host": "h",
        "port": 1,
        "rack": None,
        "is_controller": False,
        "leader_count": 1,
        "replica_count": 3,
        "offline_replica_count": 1,
    }
    assert rows[2]["is_controller"] is True
    assert rows[2]["leader_count"] == 1
    assert rows[2]["rack"] == "rack-b"
