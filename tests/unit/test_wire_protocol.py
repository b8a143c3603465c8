"""Encoding and decoding of the wire client's DescribeConfigs and SASL requests (no services).

Answers are built byte by byte from the Kafka protocol's schemas, so a wrong field order or
width in the parser fails here rather than against a broker.
"""

import struct

from console.kafka import protocol as kp
from console.kafka.types import PartitionMeta


def _cstr(text: str | None) -> bytes:
    return kp.uvarint(0) if text is None else kp.compact_string(text)


def _config_entry(name: str, value: str | None) -> bytes:
    return (
        _cstr(name)
        + _cstr(value)
        + b"\x00"  # read only
        + b"\x05"  # source: DEFAULT_CONFIG
        + b"\x00"  # sensitive
        + kp.uvarint(1)  # no synonyms
        + b"\x03"  # config type INT
        + _cstr(None)  # documentation
        + kp.NO_TAGS
    )


def _describe_configs_response(results: list[bytes]) -> bytes:
    header = struct.pack(">i", 7) + kp.NO_TAGS
    return (
        header
        + struct.pack(">i", 0)
        + kp.uvarint(len(results) + 1)
        + b"".join(results)
        + kp.NO_TAGS
    )


def _result(error: int, topic: str, entries: list[bytes]) -> bytes:
    return (
        struct.pack(">h", error)
        + _cstr(None)
        + struct.pack(">b", kp.TOPIC_RESOURCE)
        + _cstr(topic)
        + kp.uvarint(len(entries) + 1)
        + b"".join(entries)
        + kp.NO_TAGS
    )


def test_describe_configs_request_asks_for_the_keys_of_each_topic():
    message = kp.describe_configs_request(["a", "bb"], ["min.insync.replicas"], correlation_id=9)
    size, api_key, version, correlation = struct.unpack_from(">ihhi", message)
    assert (api_key, version, correlation) == (kp.DESCRIBE_CONFIGS, 4, 9)
    assert size == len(message) - 4
    body = message.split(b"kafka-console" + kp.NO_TAGS, 1)[1]
    resource_a = (
        b"\x02"
        + kp.compact_string("a")
        + kp.compact_array([kp.compact_string("min.insync.replicas")])
        + kp.NO_TAGS
    )
    assert body.startswith(kp.uvarint(3) + resource_a)
    assert body.endswith(b"\x00\x00" + kp.NO_TAGS)  # no synonyms, no documentation


def test_describe_configs_request_with_no_keys_asks_for_all():
    message = kp.describe_configs_request(["a"], None, correlation_id=1)
    assert (b"\x02" + kp.compact_string("a") + kp.uvarint(0) + kp.NO_TAGS) in message


def test_parse_describe_configs_values_and_errors():
    payload = _describe_configs_response(
        [
            _result(0, "orders", [_config_entry("min.insync.replicas", "2")]),
            _result(3, "gone", []),  # UNKNOWN_TOPIC_OR_PARTITION
            _result(0, "nulls", [_config_entry("min.insync.replicas", None)]),
        ]
    )
    assert kp.parse_describe_configs(payload) == {
        "orders": {"min.insync.replicas": "2"},
        "gone": 3,
        "nulls": {"min.insync.replicas": None},
    }


def test_sasl_handshake_uses_the_non_flexible_header():
    message = kp.sasl_handshake_request("SCRAM-SHA-512", correlation_id=4)
    size, api_key, version, correlation, client_len = struct.unpack_from(">ihhih", message)
    assert (api_key, version, correlation) == (kp.SASL_HANDSHAKE, 1, 4)
    rest = message[14 + client_len :]
    # No tagged-field byte after the client id: the body starts with the mechanism string.
    assert rest == struct.pack(">h", 13) + b"SCRAM-SHA-512"


def test_parse_sasl_handshake_answer():
    payload = (
        struct.pack(">ih", 4, 33)  # correlation, UNSUPPORTED_SASL_MECHANISM
        + struct.pack(">i", 2)
        + struct.pack(">h", 5)
        + b"PLAIN"
        + struct.pack(">h", 13)
        + b"SCRAM-SHA-256"
    )
    assert kp.parse_sasl_handshake(payload) == (33, ["PLAIN", "SCRAM-SHA-256"])


def test_sasl_authenticate_round_trip():
    message = kp.sasl_authenticate_request(b"n,,n=u,r=abc", correlation_id=5)
    assert message.endswith(kp.compact_bytes(b"n,,n=u,r=abc") + kp.NO_TAGS)
    payload = (
        struct.pack(">i", 5)
        + kp.NO_TAGS
        + struct.pack(">h", 58)
        + kp.compact_string("Authentication failed")
        + kp.compact_bytes(b"")
        + struct.pack(">q", 0)
        + kp.NO_TAGS
    )
    assert kp.parse_sasl_authenticate(payload) == (58, "Authentication failed", b"")


def _int32_array(values: list[int]) -> bytes:
    return kp.uvarint(len(values) + 1) + b"".join(struct.pack(">i", v) for v in values)


def _metadata_partition(error: int, index: int, leader: int, replicas: list[int]) -> bytes:
    return (
        struct.pack(">hiii", error, index, leader, 7)  # ..., leader epoch
        + _int32_array(replicas)  # replicas
        + _int32_array(replicas[:1])  # isr
        + _int32_array([])  # offline replicas
        + kp.NO_TAGS
    )


def _metadata_topic(error: int, name: str, partitions: list[bytes]) -> bytes:
    return (
        struct.pack(">h", error)
        + _cstr(name)
        + bytes(16)  # topic id
        + b"\x00"  # is internal
        + kp.uvarint(len(partitions) + 1)
        + b"".join(partitions)
        + struct.pack(">i", -2147483648)  # authorized operations
        + kp.NO_TAGS
    )


def test_metadata_answer_gives_brokers_placement_and_errors():
    brokers = [
        struct.pack(">i", node) + _cstr(f"10.0.0.{node}") + struct.pack(">i", 9092) + _cstr(rack)
        for node, rack in ((1, "a"), (2, None))
    ]
    answer = (
        struct.pack(">i", 3)
        + kp.NO_TAGS
        + struct.pack(">i", 0)
        + kp.uvarint(3)
        + b"".join(b + kp.NO_TAGS for b in brokers)
        + _cstr("cluster")
        + struct.pack(">i", 1)
        + kp.uvarint(3)
        + _metadata_topic(
            0,
            "orders",
            [
                _metadata_partition(0, 0, 2, [2, 1]),
                _metadata_partition(5, 1, -1, [1, 2, 3]),  # LEADER_NOT_AVAILABLE
            ],
        )
        + _metadata_topic(3, "gone", [])  # UNKNOWN_TOPIC_OR_PARTITION
        + kp.NO_TAGS
    )
    parsed = kp.parse_metadata(answer)
    assert parsed.brokers == {1: ("10.0.0.1", 9092, "a"), 2: ("10.0.0.2", 9092, None)}
    assert (parsed.cluster_id, parsed.controller_id) == ("cluster", 1)
    assert parsed.topics == {
        "orders": [
            PartitionMeta(partition=0, leader=2, replicas=[2, 1], isr=[2]),
            PartitionMeta(partition=1, leader=None, replicas=[1, 2, 3], isr=[1]),
        ]
    }
    assert parsed.topic_errors == {"gone": 3}
    assert parsed.leader_addresses() == {("orders", 0): ("10.0.0.2", 9092)}


def test_metadata_request_never_creates_topics():
    message = kp.metadata_request(["b", "a", "b"], correlation_id=4)
    size, api_key, version, correlation = struct.unpack_from(">ihhi", message)
    assert (api_key, version, correlation, size) == (kp.METADATA, 12, 4, len(message) - 4)
    body = message.split(b"kafka-console" + kp.NO_TAGS, 1)[1]
    topics = kp.uvarint(3) + b"".join(bytes(16) + _cstr(t) + kp.NO_TAGS for t in ("a", "b"))
    assert body == topics + b"\x00\x00" + kp.NO_TAGS
    assert kp.metadata_request(None, 1).endswith(kp.uvarint(0) + b"\x00\x00" + kp.NO_TAGS)


def test_list_offsets_request_asks_each_partition_for_the_timestamp():
    message = kp.list_offsets_request({"t": [1, 0]}, kp.EARLIEST, correlation_id=5)
    _, api_key, version, _ = struct.unpack_from(">ihhi", message)
    assert (api_key, version) == (kp.LIST_OFFSETS, 7)
    body = message.split(b"kafka-console" + kp.NO_TAGS, 1)[1]
    partitions = b"".join(struct.pack(">iiq", p, -1, -2) + kp.NO_TAGS for p in (0, 1))
    topic = _cstr("t") + kp.uvarint(3) + partitions + kp.NO_TAGS
    assert body == struct.pack(">ib", -1, 0) + kp.uvarint(2) + topic + kp.NO_TAGS


def test_list_offsets_answer_gives_error_timestamp_and_offset_per_partition():
    def partition(index: int, error: int, ts: int, offset: int) -> bytes:
        return struct.pack(">ihqqi", index, error, ts, offset, 3) + kp.NO_TAGS

    answer = (
        struct.pack(">i", 5)
        + kp.NO_TAGS
        + struct.pack(">i", 0)
        + kp.uvarint(2)
        + _cstr("t")
        + kp.uvarint(3)
        + partition(0, 0, 1_700_000_000_000, 42)
        + partition(1, 6, -1, -1)  # NOT_LEADER_OR_FOLLOWER
        + kp.NO_TAGS
        + kp.NO_TAGS
    )
    assert kp.parse_list_offsets(answer) == {
        ("t", 0): (0, 1_700_000_000_000, 42),
        ("t", 1): (6, -1, -1),
    }


def test_offset_fetch_answer_skips_metadata_and_tagged_fields_of_any_length():
    def partition(index: int, offset: int, metadata: str | None, tags: bytes) -> bytes:
        # v8: index, committed offset, leader epoch, metadata, error, tagged fields
        return struct.pack(">iqi", index, offset, -1) + _cstr(metadata) + b"\x00\x00" + tags

    one_tag = kp.uvarint(1) + kp.uvarint(0) + kp.uvarint(2) + b"xy"  # tag 0, 2 bytes
    partitions = [
        partition(0, 10, None, kp.NO_TAGS),
        partition(1, 11, "m" * 300, kp.NO_TAGS),  # a length over one varint byte
        partition(2, 12, "", one_tag),
        partition(3, -1, "short", kp.NO_TAGS),  # nothing committed
    ]
    topic = _cstr("t") + kp.uvarint(len(partitions) + 1) + b"".join(partitions) + kp.NO_TAGS
    group = _cstr("g") + kp.uvarint(2) + topic + b"\x00\x00" + kp.NO_TAGS
    answer = struct.pack(">i", 7) + kp.NO_TAGS + struct.pack(">i", 0) + kp.uvarint(2) + group
    assert kp.parse_offset_fetch(answer + kp.NO_TAGS) == {
        "g": {("t", 0): 10, ("t", 1): 11, ("t", 2): 12, ("t", 3): None}
    }
