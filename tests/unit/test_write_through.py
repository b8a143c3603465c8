"""project.write_through on a real socket pair: a write with nothing queued reaches the peer at
once, with no writability registration; what the kernel does not take, what follows it and a
write to a closed peer take Twisted's buffered path, in order."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import tcp

from project import write_through


class _Reactor:
    """What tcp.Connection asks of a reactor here: the writers it registers."""

    def __init__(self) -> None:
        self.writers: list[Any] = []

    def addWriter(self, writer: Any) -> None:  # noqa: N802 (Twisted's names)
        if writer not in self.writers:
            self.writers.append(writer)

    def removeWriter(self, writer: Any) -> None:  # noqa: N802
        self.writers.remove(writer)

    def addReader(self, reader: Any) -> None:  # noqa: N802
        pass

    def removeReader(self, reader: Any) -> None:  # noqa: N802
        pass


@pytest.fixture
def pair(monkeypatch) -> Iterator[tuple[tcp.Connection, socket.socket, _Reactor]]:
    monkeypatch.setattr(tcp.Connection, "write", tcp.Connection.write)  # undone after
    write_through.install()
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    reactor = _Reactor()
    connection = tcp.Connection(ours, None, reactor)  # type: ignore[arg-type]
    connection.connected = 1
    yield connection, peer, reactor
    ours.close()
    peer.close()


def _read(peer: socket.socket, size: int) -> bytes:
    peer.settimeout(5)
    out = b""
    while len(out) < size:
        out += peer.recv(size - len(out))
    return out


def test_a_write_with_nothing_queued_is_sent_at_once(pair):
    connection, peer, reactor = pair
    connection.write(b"hello")
    assert reactor.writers == []
    assert connection._tempDataBuffer == [] and connection.dataBuffer == b""
    assert _read(peer, 5) == b"hello"


def test_what_the_kernel_does_not_take_is_buffered_and_later_writes_queue_behind_it(pair):
    connection, peer, reactor = pair
    big = bytes(range(256)) * 8192  # 2 MiB: more than a socket buffer takes at once
    connection.write(big)
    queued = connection._tempDataLen
    assert 0 < queued < len(big)
    assert reactor.writers == [connection]
    connection.write(b"after")  # behind the queue, not before it
    assert connection._tempDataLen == queued + 5
    received = b""
    peer.settimeout(5)
    while connection._tempDataLen or connection.dataBuffer[connection.offset :]:
        received += peer.recv(1 << 20)
        connection.doWrite()  # what the reactor does once the socket is writable
    received += _read(peer, len(big) + 5 - len(received))
    assert received == big + b"after"
    assert reactor.writers == []


def test_a_write_to_a_closed_peer_is_left_to_the_reactor(pair):
    connection, peer, reactor = pair
    peer.close()
    connection.write(b"x" * 100_000)
    # Twisted's path: buffered and registered, so the reactor's doWrite meets the error and
    # disconnects as it always did.
    assert reactor.writers == [connection]
    assert connection._tempDataLen == 100_000
    assert isinstance(connection.doWrite(), Exception)  # the error the reactor acts on
