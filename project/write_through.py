"""Twisted's TCP writes sent at once when nothing is queued, as asyncio's transports do.

Twisted's `FileDescriptor.write` only appends to a buffer and registers the socket for
writability; the bytes leave when the event loop next polls. A lag pass fans out to hundreds
of sockets in one turn of the loop, so no socket got its message before every socket's message
had been handled (publish to the first socket: 50 ms at 500 sockets), and each write cost an
epoll registration and removal. Here a write on a connection with nothing queued goes to the
socket straight away (non-blocking); what the kernel does not take, or any error, takes
Twisted's own buffered path, which then handles it exactly as before.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import tcp

_buffered_write = tcp.Connection.write


def _write(self: Any, data: bytes) -> None:
    if (
        not data
        or not isinstance(data, bytes)
        or self.TLS  # startTLS: the bytes go through the TLS layer first
        or not self.connected
        or self._writeDisconnected
        or self.disconnecting
        or self.dataBuffer
        or self._tempDataBuffer
    ):
        _buffered_write(self, data)
        return
    sent = self.writeSomeData(data)  # catches EWOULDBLOCK (0) and returns errors, not raises
    if isinstance(sent, Exception) or sent < 0:
        _buffered_write(self, data)  # the reactor's doWrite meets the error and disconnects
    elif sent < len(data):
        _buffered_write(self, data[sent:])


def install() -> None:
    """Use the write-through in this process (idempotent)."""
    tcp.Connection.write = _write  # type: ignore[method-assign]
