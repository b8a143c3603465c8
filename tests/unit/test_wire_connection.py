"""A broker that goes away during the TLS handshake is "no answer" (ask the next broker, or
504), never an unhandled socket error (a 500 in the failover test) nor a TLS failure (502)."""

from __future__ import annotations

import socket
import struct
import threading

import pytest

from console.clusters import ClusterSecurity
from console.kafka.connection import Connection, WireUnreachable
from console.kafka.wire import WireClient


def _server(behaviour: str) -> tuple[socket.socket, int]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.recv(1024)  # the ClientHello
            if behaviour == "reset":
                # SO_LINGER 0: close with RST, as a broker killed mid-handshake does.
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


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


class _Listing:
    def __init__(self, errors, valid=()):
        self.errors, self.valid = list(errors), list(valid)


class _Admin:
    def __init__(self, answers):
        self.answers, self.calls = list(answers), 0

    def list_consumer_groups(self, request_timeout):
        from concurrent.futures import Future

        self.calls += 1
        future: Future = Future()
        future.set_result(self.answers.pop(0))
        return future


def _client(admin):
    from console.clusters import ClusterConfig
    from console.kafka.client import ClusterClient

    client = ClusterClient(ClusterConfig("c", "127.0.0.1:1"), timeout=5)
    client._admin = admin
    client._refused_early = lambda future: None
    return client


def test_listing_groups_asks_again_while_a_coordinator_loads():
    """A just-restarted broker answers COORDINATOR_LOAD_IN_PROGRESS for a moment: the groups
    list (a 502 in a CI run after the broker-restart tests) asks again within the timeout."""
    from console.kafka.client import KafkaError

    loading = KafkaError(KafkaError.COORDINATOR_LOAD_IN_PROGRESS)
    group = type("G", (), {"group_id": "g", "state": None, "is_simple_consumer_group": False})
    admin = _Admin([_Listing([loading]), _Listing([loading]), _Listing([], [group])])
    assert [g.group_id for g in _client(admin).list_groups()] == ["g"]
    assert admin.calls == 3


def test_listing_groups_fails_at_once_on_another_error_and_after_the_attempts():
    from console.kafka.client import KafkaError
    from console.kafka.errors import KafkaCallFailed

    denied = KafkaError(KafkaError.CLUSTER_AUTHORIZATION_FAILED)
    admin = _Admin([_Listing([denied])])
    with pytest.raises(KafkaCallFailed):
        _client(admin).list_groups()
    assert admin.calls == 1
    loading = KafkaError(KafkaError.COORDINATOR_LOAD_IN_PROGRESS)
    admin = _Admin([_Listing([loading])] * 5)
    with pytest.raises(KafkaCallFailed) as caught:
        _client(admin).list_groups()
    assert admin.calls == 5 and "COORDINATOR_LOAD_IN_PROGRESS" in str(caught.value.details)
