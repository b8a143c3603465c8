"""The wire-protocol module (console/kafka/protocol.py) without services: every request as
Kafka expects it, every answer parsed.

Answers are built byte by byte from the Kafka protocol's schemas, so a wrong field order or
width in the parser fails here rather than against a broker.
"""

import struct

from console.kafka import protocol as kp
from console.kafka.types import PartitionMeta


# --- shared encoding --------------------------------------------------------------------------
def _cstr(text: str | None) -> bytes:
    return kp.uvarint(0) if text is None else kp.compact_string(text)


def _response(body: bytes) -> bytes:
    return struct.pack(">i", 9) + kp.NO_TAGS + body  # correlation id, no header tags


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


# --- Metadata ---------------------------------------------------------------------------------
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


# --- ListOffsets ------------------------------------------------------------------------------
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


def test_list_offsets_answer_with_a_tagged_partition_is_read_one_by_one():
    """A run of untagged answers is read in one call; a topic whose answers carry a tagged
    field (none does today) is read one answer at a time, and gives the same."""

    def partition(index: int, offset: int, tags: bytes = kp.NO_TAGS) -> bytes:
        return struct.pack(">ihqqi", index, 0, -1, offset, 3) + tags

    tagged = kp.uvarint(1) + kp.uvarint(7) + kp.uvarint(2) + b"\x01\x02"  # field 7, 2 bytes
    answer = (
        struct.pack(">i", 5) + kp.NO_TAGS + struct.pack(">i", 0) + kp.uvarint(3)
        + _cstr("a") + kp.uvarint(3) + partition(0, 10) + partition(1, 11, tagged) + kp.NO_TAGS
        + _cstr("b") + kp.uvarint(3) + partition(0, 20) + partition(1, 21) + kp.NO_TAGS
        + kp.NO_TAGS
    )  # fmt: skip
    assert kp.parse_list_offsets(answer) == {
        ("a", 0): (0, -1, 10),
        ("a", 1): (0, -1, 11),
        ("b", 0): (0, -1, 20),
        ("b", 1): (0, -1, 21),
    }


# --- OffsetFetch ------------------------------------------------------------------------------
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
    reader.tags()
    reader.tags()
    assert reader.data[reader.pos] == 0  # require_stable: off unless asked


def test_offset_fetch_request_asks_for_a_stable_read():
    plain = kp.offset_fetch_request({"g": None}, 5)
    stable = kp.offset_fetch_request({"g": None}, 5, require_stable=True)
    # The flag is the body's last byte before its (empty) tagged fields.
    assert (plain[-2], stable[-2]) == (0, 1)
    assert plain[:-2] == stable[:-2]


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


def test_offset_fetch_plain_runs_are_read_at_once_and_give_what_one_by_one_gives():
    """A topic's answers without metadata or tags are read in one call; a run broken by one
    answer with metadata (second topic, middle) is read one by one: the same offsets."""

    def partition(index: int, offset: int, error: int = 0, metadata: str = "") -> bytes:
        return (
            struct.pack(">iqi", index, offset, -1)
            + _cstr(metadata)
            + struct.pack(">h", error)
            + kp.NO_TAGS
        )

    def topic(name: str, partitions: list[bytes]) -> bytes:
        return _cstr(name) + kp.uvarint(len(partitions) + 1) + b"".join(partitions) + kp.NO_TAGS

    plain = topic("a", [partition(0, 5), partition(1, -1), partition(2, 7, error=3)])
    broken = topic("b", [partition(0, 8), partition(1, 9, metadata="x"), partition(2, 10)])
    group = _cstr("g") + kp.uvarint(3) + plain + broken + b"\x00\x00" + kp.NO_TAGS
    answer = struct.pack(">i", 7) + kp.NO_TAGS + struct.pack(">i", 0) + kp.uvarint(2) + group
    assert kp.parse_offset_fetch(answer + kp.NO_TAGS) == {
        "g": {
            ("a", 0): 5,
            ("a", 1): None,  # nothing committed
            ("a", 2): None,  # an error
            ("b", 0): 8,
            ("b", 1): 9,
            ("b", 2): 10,
        }
    }


# --- FindCoordinator --------------------------------------------------------------------------
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


# --- DescribeGroups and consumer assignments --------------------------------------------------
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


# --- ListGroups -------------------------------------------------------------------------------
def test_list_groups_request_asks_for_every_state():
    raw = kp.list_groups_request(7)
    api_key, version, correlation = struct.unpack_from(">hhi", raw, 4)
    assert (api_key, version, correlation) == (kp.LIST_GROUPS, 4, 7)
    assert raw.endswith(b"\x00" + b"\x01" + kp.NO_TAGS)  # header tags, no states filter, tags


def test_list_groups_answer_gives_protocol_type_and_state():
    def group(name: str, ptype: str, state: str, tags: bytes = kp.NO_TAGS) -> bytes:
        return _cstr(name) + _cstr(ptype) + _cstr(state) + tags

    unknown_tag = kp.uvarint(1) + kp.uvarint(0) + kp.uvarint(2) + b"xy"
    body = (
        struct.pack(">ih", 0, 0)
        + kp.compact_array(
            [
                group("orders", "consumer", "Stable"),
                group("offsets-only", "", "Empty", unknown_tag),
                group("sink", "connect", "CompletingRebalance"),
            ]
        )
        + kp.NO_TAGS
    )
    error, groups = kp.parse_list_groups(_response(body))
    assert error == 0
    assert groups == [
        kp.ListedGroup("orders", "consumer", "Stable"),
        kp.ListedGroup("offsets-only", "", "Empty"),
        kp.ListedGroup("sink", "connect", "CompletingRebalance"),
    ]
    refused = struct.pack(">ih", 0, 14) + kp.compact_array([]) + kp.NO_TAGS
    assert kp.parse_list_groups(_response(refused)) == (14, [])


# --- DescribeConfigs --------------------------------------------------------------------------
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


# --- SASL -------------------------------------------------------------------------------------
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


# --- DescribeLogDirs --------------------------------------------------------------------------
def _log_dir(error: int, path: str, topics: dict[str, list[tuple]], total: int, usable: int):
    encoded = []
    for name, partitions in topics.items():
        parts = [
            struct.pack(">iqq?", p, size, lag, future) + kp.NO_TAGS
            for p, size, lag, future in partitions
        ]
        encoded.append(_cstr(name) + kp.compact_array(parts) + kp.NO_TAGS)
    return (
        struct.pack(">h", error)
        + _cstr(path)
        + kp.compact_array(encoded)
        + struct.pack(">qq", total, usable)
        + kp.NO_TAGS
    )


def test_describe_log_dirs_request_asks_for_every_replica():
    data = kp.describe_log_dirs_request(5)
    assert kp.header_key_version(data) == (35, 4)
    assert data.endswith(kp.uvarint(0) + kp.NO_TAGS)  # topics null: all, no tags


def test_describe_log_dirs_answer_gives_dirs_sizes_and_replicas_sorted():
    dirs = [
        _log_dir(0, "/data/b", {"t": [(1, 300, 0, False), (0, 200, 5, True)]}, 1000, 400),
        _log_dir(56, "/data/a", {}, -1, -1),
    ]
    payload = _response(struct.pack(">ih", 0, 0) + kp.compact_array(dirs) + kp.NO_TAGS)
    error, parsed = kp.parse_describe_log_dirs(payload)
    assert error == 0
    assert [d.path for d in parsed] == ["/data/a", "/data/b"]
    offline, good = parsed
    assert (offline.error, offline.total_bytes, offline.usable_bytes) == (56, None, None)
    assert (good.total_bytes, good.usable_bytes) == (1000, 400)
    assert [(r.partition, r.size_bytes, r.offset_lag, r.is_future) for r in good.replicas] == [
        (0, 200, 5, True),
        (1, 300, 0, False),
    ]


def test_describe_log_dirs_request_error_is_returned():
    payload = _response(struct.pack(">ih", 0, 31) + kp.compact_array([]) + kp.NO_TAGS)
    assert kp.parse_describe_log_dirs(payload) == (31, [])


def test_describe_configs_of_the_broker_default_entity():
    data = kp.describe_configs_request([""], None, 3, kp.BROKER_RESOURCE)
    assert kp.header_key_version(data) == (32, 4)
    assert struct.pack(">b", 4) + kp.compact_string("") in data


def test_config_entries_carry_source_read_only_and_drop_sensitive_values():
    def entry(name, value, read_only, source, sensitive):
        return (
            _cstr(name)
            + _cstr(value)
            + struct.pack(">bbb", read_only, source, sensitive)
            + kp.uvarint(1)  # no synonyms
            + struct.pack(">b", 1)
            + _cstr(None)
            + kp.NO_TAGS
        )

    entries = [entry("a", "1", 0, 3, 0), entry("p", "x", 0, 2, 1), entry("n", "2", 1, 4, 0)]
    result = struct.pack(">hbb", 0, 0, 4) + _cstr("") + kp.compact_array(entries) + kp.NO_TAGS
    result = struct.pack(">h", 0) + result[2:]
    payload = _response(struct.pack(">i", 0) + kp.compact_array([result]) + kp.NO_TAGS)
    parsed = kp.parse_config_entries(payload)[""]
    assert (parsed["a"].value, parsed["a"].source) == ("1", "DYNAMIC_DEFAULT_BROKER_CONFIG")
    assert (parsed["p"].value, parsed["p"].sensitive) == (None, True)
    assert (parsed["n"].read_only, parsed["n"].source) == (True, "STATIC_BROKER_CONFIG")


def test_incremental_alter_configs_request_and_answer():
    data = kp.incremental_alter_configs_request(4, "", {"k": "v"}, ["d"], True, 2)
    assert kp.header_key_version(data) == (44, 1)
    assert kp.compact_string("k") + struct.pack(">b", 0) + kp.compact_string("v") in data
    assert kp.compact_string("d") + struct.pack(">b", 1) + kp.uvarint(0) in data
    assert data.endswith(struct.pack(">?", True) + kp.NO_TAGS)
    answer = struct.pack(">h", 40) + _cstr("Invalid value") + struct.pack(">b", 4) + _cstr("")
    payload = _response(struct.pack(">i", 0) + kp.compact_array([answer + kp.NO_TAGS]) + kp.NO_TAGS)
    assert kp.parse_incremental_alter_configs(payload) == [(40, "Invalid value")]


# --- Partition reassignments ------------------------------------------------------------------
def _int32s(values):
    return kp.uvarint(len(values) + 1) + b"".join(struct.pack(">i", v) for v in values)


def test_alter_partition_reassignments_request_targets_and_cancels():
    data = kp.alter_partition_reassignments_request({("t", 1): [3, 2], ("t", 0): None}, 4)
    assert kp.header_key_version(data) == (45, 0)
    moved = struct.pack(">i", 1) + _int32s([3, 2]) + kp.NO_TAGS
    cancelled = struct.pack(">i", 0) + kp.uvarint(0) + kp.NO_TAGS  # null replicas: cancel
    assert _cstr("t") + kp.compact_array([cancelled, moved]) + kp.NO_TAGS in data


def test_alter_partition_reassignments_answer_per_partition():
    parts = [
        struct.pack(">ih", 0, 0) + _cstr(None) + kp.NO_TAGS,
        struct.pack(">ih", 1, 39) + _cstr("Invalid replica assignment") + kp.NO_TAGS,
    ]
    topic = _cstr("t") + kp.compact_array(parts) + kp.NO_TAGS
    body = struct.pack(">ih", 0, 0) + _cstr(None) + kp.compact_array([topic]) + kp.NO_TAGS
    assert kp.parse_alter_partition_reassignments(_response(body)) == (
        0,
        None,
        {("t", 0): (0, None), ("t", 1): (39, "Invalid replica assignment")},
    )


def test_list_partition_reassignments_answer_gives_replicas_adding_and_removing():
    part = struct.pack(">i", 0) + _int32s([2, 3, 1]) + _int32s([3]) + _int32s([1]) + kp.NO_TAGS
    topic = _cstr("t") + kp.compact_array([part]) + kp.NO_TAGS
    body = struct.pack(">ih", 0, 0) + _cstr(None) + kp.compact_array([topic]) + kp.NO_TAGS
    error, message, moving = kp.parse_list_partition_reassignments(_response(body))
    assert (error, message) == (0, None)
    assert moving == {("t", 0): kp.Reassigning([2, 3, 1], [3], [1])}


def test_describe_log_dirs_request_for_some_partitions_names_them_by_topic():
    data = kp.describe_log_dirs_request(5, [("b", 1), ("a", 2), ("b", 0), ("b", 1)])
    assert kp.header_key_version(data) == (35, 4)
    topics = [
        kp.compact_string(t) + kp.compact_array([struct.pack(">i", p) for p in ps]) + kp.NO_TAGS
        for t, ps in (("a", [2]), ("b", [0, 1]))
    ]
    assert data.endswith(kp.compact_array(topics) + kp.NO_TAGS)
