"""The small wire-protocol client: requests as Kafka expects them, responses parsed."""

import struct

from console.kafka import protocol as kp


def _response(body: bytes) -> bytes:
    return struct.pack(">i", 9) + kp.NO_TAGS + body  # correlation id, no header tags


def test_offset_fetch_request_layout():
    message = kp.offset_fetch_request({"g1": None, "g2": [("t", 1), ("t", 0)]}, 5)
    size, api_key, version, correlation = struct.unpack_from(">ihhi", message)
    assert (api_key, version, correlation) == (9, 8, 5)
    assert size == len(message) - 4
    body = message[4 + 10 + len(b"kafka-console") + 1 :]
    reader = kp.Reader(body)
    assert reader.array_length() == 2
    assert reader.compact_string() == "g1"
    assert reader.uvarint() == 0  # null topics: every committed partition
    reader.tags()
    assert reader.compact_string() == "g2"
    assert reader.array_length() == 1
    assert reader.compact_string() == "t"
    assert reader.array_length() == 2
    assert (reader.int32(), reader.int32()) == (0, 1)


def test_offset_fetch_response_parsing():
    def partition(index: int, offset: int, error: int = 0, metadata: str | None = None) -> bytes:
        return (
            struct.pack(">iqi", index, offset, -1)
            + (kp.uvarint(0) if metadata is None else kp.compact_string(metadata))
            + struct.pack(">h", error)
            + kp.NO_TAGS
        )

    topic = (
        kp.compact_string("t")
        + kp.compact_array([partition(0, 42, metadata="by app ü"), partition(1, -1)])
        + kp.NO_TAGS
    )
    ok = kp.compact_string("g1") + kp.compact_array([topic]) + struct.pack(">h", 0) + kp.NO_TAGS
    moved = kp.compact_string("g2") + kp.compact_array([]) + struct.pack(">h", 16) + kp.NO_TAGS
    gone = kp.compact_string("g3") + kp.compact_array([]) + struct.pack(">h", 69) + kp.NO_TAGS
    body = struct.pack(">i", 0) + kp.compact_array([ok, moved, gone]) + kp.NO_TAGS
    parsed = kp.parse_offset_fetch(_response(body))
    assert parsed == {"g1": {("t", 0): 42, ("t", 1): None}, "g2": 16, "g3": {}}


def test_find_coordinator_response_parsing():
    def entry(key: str, host: str, port: int, error: int) -> bytes:
        return (
            kp.compact_string(key)
            + struct.pack(">i", 1)
            + kp.compact_string(host)
            + struct.pack(">ih", port, error)
            + kp.uvarint(0)
            + kp.NO_TAGS
        )

    body = (
        struct.pack(">i", 0)
        + kp.compact_array([entry("a", "127.0.0.1", 19092, 0), entry("b", "", -1, 15)])
        + kp.NO_TAGS
    )
    parsed = kp.parse_find_coordinators(_response(body))
    assert parsed == {"a": kp.Coordinator(1, "127.0.0.1", 19092), "b": 15}
    assert parsed["a"].address == ("127.0.0.1", 19092)  # type: ignore[union-attr]


def _assignment(topics: dict[str, list[int]], version: int = 3) -> bytes:
    out = struct.pack(">hi", version, len(topics))
    for topic, partitions in topics.items():
        out += struct.pack(">h", len(topic)) + topic.encode() + struct.pack(">i", len(partitions))
        out += b"".join(struct.pack(">i", p) for p in partitions)
    return out + struct.pack(">i", -1)  # no user data


def test_consumer_assignment_parsing():
    data = _assignment({"orders": [2, 0], "b": [1]})
    assert kp.parse_consumer_assignment(data) == [("b", 1), ("orders", 0), ("orders", 2)]
    assert kp.parse_consumer_assignment(b"") == [] and kp.parse_consumer_assignment(None) == []


def test_describe_groups_request_and_response():
    message = kp.describe_groups_request(["g1", "g2"], 3)
    _, api_key, version, _ = struct.unpack_from(">ihhi", message)
    assert (api_key, version) == (kp.DESCRIBE_GROUPS, 5)
    assert message.endswith(
        kp.compact_array([kp.compact_string("g1"), kp.compact_string("g2")]) + b"\x00" + kp.NO_TAGS
    )

    def member(member_id: str, assignment: bytes) -> bytes:
        return (
            kp.compact_string(member_id)
            + kp.uvarint(0)  # no group instance id
            + kp.compact_string("client-1")
            + kp.compact_string("/10.0.0.9")
            + kp.compact_bytes(b"subscription")
            + kp.compact_bytes(assignment)
            + kp.NO_TAGS
        )

    def group(error: int, name: str, state: str, ptype: str, assignor: str, members: list) -> bytes:
        return (
            struct.pack(">h", error)
            + kp.compact_string(name)
            + kp.compact_string(state)
            + kp.compact_string(ptype)
            + kp.compact_string(assignor)
            + kp.compact_array(members)
            + struct.pack(">i", -2147483648)
            + kp.NO_TAGS
        )

    body = (
        struct.pack(">i", 0)
        + kp.compact_array(
            [
                group(
                    0, "g1", "Stable", "consumer", "range", [member("m1", _assignment({"t": [1]}))]
                ),
                group(0, "c1", "Stable", "connect", "sessioned", [member("w1", b"\x00\x01junk")]),
                group(69, "g2", "", "", "", []),
            ]
        )
        + kp.NO_TAGS
    )
    parsed = kp.parse_describe_groups(_response(body))
    assert parsed["g2"] == 69
    assert parsed["g1"] == kp.DescribedGroup(
        "Stable",
        "consumer",
        "range",
        [kp.DescribedMember("m1", "client-1", "/10.0.0.9", [("t", 1)])],
    )
    # Other protocols' assignments are opaque: kept out, never mis-decoded.
    assert parsed["c1"].members[0].assignment == []  # type: ignore[union-attr]


def test_tagged_fields_are_skipped():
    reader = kp.Reader(
        kp.uvarint(2)
        + kp.uvarint(0)
        + kp.uvarint(3)
        + b"abc"
        + kp.uvarint(7)
        + kp.uvarint(1)
        + b"z"
        + struct.pack(">h", 5)
    )
    reader.tags()
    assert reader.int16() == 5
