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


def test_describe_quorum_request_and_response_bytes():
    from console.kafka.protocol import describe_quorum_request, parse_describe_quorum_leader

    request = describe_quorum_request(7)
    assert request[4:10] == b"\x00\x37\x00\x00\x00\x00"[:6]  # api key 55, version 0
    # A v0 response: correlation id, no header tags, error 0, one topic with one partition
    # whose leader is 2 (epoch 5, high watermark 100), no voters/observers.
    body = (
        b"\x00\x00\x00\x07"
        + b"\x00"
        + b"\x00\x00"
        + b"\x02"
        + b"\x13__cluster_metadata"
        + b"\x02"
        + b"\x00\x00\x00\x00"
        + b"\x00\x00"
        + b"\x00\x00\x00\x02"
        + b"\x00\x00\x00\x05"
        + b"\x00" * 7
        + b"\x64"
        + b"\x01\x01\x00\x00\x00"
    )
    assert parse_describe_quorum_leader(body) == 2
    assert parse_describe_quorum_leader(b"\x00\x00\x00\x07\x00\x00\x2a") is None  # error 42
