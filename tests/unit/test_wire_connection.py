"""A broker that goes away during the TLS handshake is "no answer" (ask the next broker, or
504), never an unhandled socket error (a 500 in the failover test) nor a TLS failure (502)."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Callable

import pytest

from console.clusters import ClusterSecurity
from console.kafka.connection import Connection, WireUnreachable
from console.kafka.wire import WireClient


def _listening(answer: Callable[[socket.socket], None]) -> tuple[socket.socket, int]:
    """A local listener and its port: each connection is handed to `answer` (in a daemon
    thread) until the test closes the listener."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            answer(conn)

    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


def _server(behaviour: str) -> tuple[socket.socket, int]:
    def answer(conn: socket.socket) -> None:
        conn.recv(1024)  # the ClientHello
        if behaviour == "reset":
            # SO_LINGER 0: close with RST, as a broker killed mid-handshake does.
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    return _listening(answer)


@pytest.mark.parametrize("behaviour", ["reset", "close"])
def test_a_connection_ended_mid_handshake_is_unreachable(behaviour):
    listener, port = _server(behaviour)
    try:
        with pytest.raises(WireUnreachable):
            Connection(("127.0.0.1", port), ClusterSecurity(protocol="SSL"), timeout=5)
    finally:
        listener.close()


def test_the_next_bootstrap_server_is_asked_after_a_reset(monkeypatch):
    listener, port = _server("reset")
    try:
        client = WireClient(f"127.0.0.1:{port},127.0.0.1:1", ClusterSecurity(protocol="SSL"))
        with pytest.raises(WireUnreachable) as caught:
            client.first_answer(lambda cid: b"", timeout=3)
        assert "no bootstrap server answered" in str(caught.value)
        assert str(port) in str(caught.value) and "127.0.0.1:1" in str(caught.value)
    finally:
        listener.close()


class _Wire:
    """The wire client's ListGroups, answering as scripted: per call, per broker id
    (error code, groups)."""

    def __init__(self, answers):
        self.answers, self.calls = list(answers), 0

    def list_groups(self, timeout):
        self.calls += 1
        return self.answers.pop(0)


def _client(wire):
    from console.clusters import ClusterConfig
    from console.kafka.client import ClusterClient

    client = ClusterClient(ClusterConfig("c", "127.0.0.1:1"), timeout=5)
    client.wire = wire
    return client


def _listed(*names, state="Stable", ptype="consumer"):
    from console.kafka.protocol import ListedGroup

    return [ListedGroup(n, ptype, state) for n in names]


def test_the_groups_of_every_broker_are_listed_once_with_protocol_type():
    wire = _Wire(
        [{1: (0, _listed("b", "a")), 2: (0, _listed("c", state="Empty", ptype="")), 3: (0, [])}]
    )
    listings = _client(wire).list_groups()
    assert [(g.group_id, g.state, g.protocol_type, g.is_simple) for g in listings] == [
        ("a", "Stable", "consumer", False),
        ("b", "Stable", "consumer", False),
        ("c", "Empty", "", True),
    ]


def test_listing_groups_asks_again_while_a_coordinator_loads():
    """A just-restarted broker answers COORDINATOR_LOAD_IN_PROGRESS for a moment: the groups
    list (a 502 in a CI run after the broker-restart tests) asks again within the timeout."""
    loading = {1: (14, []), 2: (0, _listed("h"))}
    wire = _Wire([loading, loading, {1: (0, _listed("g")), 2: (0, _listed("h"))}])
    assert [g.group_id for g in _client(wire).list_groups()] == ["g", "h"]
    assert wire.calls == 3


def test_listing_groups_fails_at_once_on_another_error_and_after_the_attempts():
    from console.kafka.errors import KafkaCallFailed, KafkaTimeout
    from console.kafka.wire import NO_ANSWER

    denied = {1: (31, [])}  # CLUSTER_AUTHORIZATION_FAILED
    wire = _Wire([denied])
    with pytest.raises(KafkaCallFailed) as caught:
        _client(wire).list_groups()
    assert wire.calls == 1 and caught.value.details["kafka_error"] == "CLUSTER_AUTHORIZATION_FAILED"
    wire = _Wire([{1: (14, [])}] * 5)
    with pytest.raises(KafkaCallFailed) as caught:
        _client(wire).list_groups()
    assert wire.calls == 5 and "COORDINATOR_LOAD_IN_PROGRESS" in str(caught.value.details)
    # A broker that did not answer: the listing would miss its groups, so it fails (504).
    wire = _Wire([{1: (0, _listed("g")), 2: (NO_ANSWER, [])}])
    with pytest.raises(KafkaTimeout):
        _client(wire).list_groups()
    assert wire.calls == 1


def _api_versions_answer(correlation_id: int, table: dict[int, tuple[int, int]], error=0) -> bytes:
    """An ApiVersions v3 response (header v0), as a broker sends it."""
    from console.kafka import protocol

    body = struct.pack(">ih", correlation_id, error)
    if not error:
        body += protocol.uvarint(len(table) + 1)
        for key, (low, high) in table.items():
            body += struct.pack(">hhh", key, low, high) + b"\x00"
        body += struct.pack(">i", 0) + b"\x00"  # throttle, tags
    return struct.pack(">i", len(body)) + body


def _old_broker(table: dict[int, tuple[int, int]], error: int = 0) -> tuple[socket.socket, int]:
    """A listener that answers ApiVersions with `table`, then closes after any other request."""

    def answer(conn: socket.socket) -> None:
        size = struct.unpack(">i", conn.recv(4))[0]
        request = conn.recv(size)
        key, _version, correlation = struct.unpack_from(">hhi", request, 0)
        if key == 18:
            conn.sendall(_api_versions_answer(correlation, table, error))
        conn.recv(1 << 16)  # anything after it: a real broker would misread it
        conn.close()

    return _listening(answer)


def test_every_request_builder_sends_the_version_the_table_names():
    from console.kafka import acl_protocol, protocol, quota_protocol
    from console.kafka.types import AclFilter

    built = [
        protocol.describe_quorum_request(1),
        protocol.find_coordinators_request(["g"], 1),
        protocol.offset_fetch_request({"g": None}, 1),
        protocol.describe_groups_request(["g"], 1),
        protocol.list_groups_request(1),
        protocol.describe_configs_request(["t"], ["min.insync.replicas"], 1),
        protocol.metadata_request(None, 1),
        protocol.list_offsets_request({"t": [0]}, -1, 1),
        protocol.sasl_handshake_request("PLAIN", 1),
        protocol.sasl_authenticate_request(b"x", 1),
        protocol.describe_log_dirs_request(1),
        protocol.incremental_alter_configs_request(4, "", {"a": "1"}, [], True, 1),
        protocol.list_partition_reassignments_request(1),
        protocol.alter_partition_reassignments_request({("t", 0): [1, 2]}, 1),
        acl_protocol.describe_acls_request(AclFilter(), 1),
        acl_protocol.create_acls_request([], 1),
        acl_protocol.delete_acls_request([AclFilter()], 1),
        quota_protocol.describe_client_quotas_request([], False, 1),
        quota_protocol.alter_client_quotas_request((("user", "a"),), {"x": 1.0}, [], True, 1),
    ]
    sent = {protocol.header_key_version(data) for data in built}
    assert sent == {(key, version) for key, (_name, version) in protocol.SPOKEN.items()}


def test_a_broker_too_old_for_offset_fetch_v8_is_named_before_anything_is_sent():
    from console.kafka import protocol
    from console.kafka.connection import WireUnsupported

    table = {18: (0, 3), 3: (0, 12), 9: (0, 7)}  # OffsetFetch up to v7: Kafka 2.8
    listener, port = _old_broker(table)
    try:
        conn = Connection(("127.0.0.1", port), ClusterSecurity(), timeout=5)
        assert conn.versions == table
        with pytest.raises(WireUnsupported) as caught:
            conn.exchange(lambda cid: protocol.offset_fetch_request({"g": None}, cid), 5)
        message = str(caught.value)
        assert "OffsetFetch v0-v7" in message and "sends v8" in message
        assert f"Kafka {protocol.MINIMUM_KAFKA} or newer" in message
        with pytest.raises(WireUnsupported, match="does not support DescribeGroups at all"):
            conn.exchange(lambda cid: protocol.describe_groups_request(["g"], cid), 5)
        conn.close()
    finally:
        listener.close()


def test_a_broker_without_api_versions_v3_is_too_old_at_connect():
    from console.kafka.client import wire_error
    from console.kafka.connection import WireUnsupported

    listener, port = _old_broker({}, error=35)  # UNSUPPORTED_VERSION: Kafka before 2.4
    try:
        with pytest.raises(WireUnsupported) as caught:
            Connection(("127.0.0.1", port), ClusterSecurity(), timeout=5)
        assert "needs Kafka 3.1 or newer" in str(caught.value)
        adapted = wire_error(caught.value, "list consumer groups")
        assert adapted.code == "kafka_version_unsupported"
        assert "3.1 or newer" in adapted.message
    finally:
        listener.close()
