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
