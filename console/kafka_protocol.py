"""A minimal Kafka wire-protocol client for the requests librdkafka lacks or gets wrong.

Used only by `console.kafka` (the rest of the project never imports this), over PLAINTEXT:
- DescribeQuorum (API 55): the active KRaft controller, which librdkafka cannot ask for.
- FindCoordinator v4 + OffsetFetch v8: committed offsets of many groups in one request per
  coordinator (KIP-709). librdkafka sends one group per request, and its admin
  ListConsumerGroupOffsets crashes the process when a coordinator answers NOT_COORDINATOR
  (confluentinc/librdkafka#5040, open), which happens whenever group coordinators move.

Every request here is flexible (compact strings and arrays, tagged fields), with request
header v2 and response header v1.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterable, Mapping

TP = tuple[str, int]

DESCRIBE_QUORUM = 55
FIND_COORDINATOR = 10
OFFSET_FETCH = 9
# Group errors after which asking the (new) coordinator again is the right thing.
RETRIABLE_GROUP_ERRORS = {14, 15, 16}  # LOAD_IN_PROGRESS, NOT_AVAILABLE, NOT_COORDINATOR
GROUP_ID_NOT_FOUND = 69


class ProtocolError(Exception):
    pass


# --- encoding -------------------------------------------------------------------------------


def uvarint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def compact_string(text: str) -> bytes:
    data = text.encode()
    return uvarint(len(data) + 1) + data


def compact_array(items: list[bytes] | None) -> bytes:
    if items is None:
        return uvarint(0)
    return uvarint(len(items) + 1) + b"".join(items)


NO_TAGS = b"\x00"


def request(api_key: int, version: int, correlation_id: int, body: bytes) -> bytes:
    client_id = b"kafka-console"
    header = struct.pack(">hhih", api_key, version, correlation_id, len(client_id))
    payload = header + client_id + NO_TAGS + body
    return struct.pack(">i", len(payload)) + payload


# --- decoding -------------------------------------------------------------------------------


class Reader:
    def __init__(self, data: bytes, pos: int = 0):
        self.data = data
        self.pos = pos

    def _unpack(self, fmt: str) -> int:
        (value,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += struct.calcsize(fmt)
        return value

    def int8(self) -> int:
        return self._unpack(">b")

    def int16(self) -> int:
        return self._unpack(">h")

    def int32(self) -> int:
        return self._unpack(">i")

    def int64(self) -> int:
        return self._unpack(">q")

    def uvarint(self) -> int:
        shift = value = 0
        while True:
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7

    def compact_string(self) -> str | None:
        length = self.uvarint()
        if length == 0:
            return None
        text = self.data[self.pos : self.pos + length - 1].decode()
        self.pos += length - 1
        return text

    def array_length(self) -> int:
        return max(0, self.uvarint() - 1)

    def tags(self) -> None:
        for _ in range(self.uvarint()):
            self.uvarint()  # tag
            size = self.uvarint()  # read before moving: `pos += uvarint()` would lose it
            self.pos += size


def response_body(payload: bytes) -> Reader:
    """A reader positioned after response header v1 (correlation id, tags)."""
    reader = Reader(payload)
    reader.int32()
    reader.tags()
    return reader


# --- transport ------------------------------------------------------------------------------


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            raise OSError("connection closed by the broker")
        chunks += chunk
    return bytes(chunks)


def exchange(host: str, port: int, message: bytes, timeout: float) -> bytes:
    """Send one request and return the response payload (after its 4-byte size)."""
    with socket.create_connection((host.strip("[]"), port), timeout=timeout) as sock:
        sock.settimeout(timeout)
        sock.sendall(message)
        size = struct.unpack(">i", _recv_exact(sock, 4))[0]
        return _recv_exact(sock, size)


def servers(bootstrap_servers: str) -> list[tuple[str, int]]:
    out = []
    for server in bootstrap_servers.split(","):
        host, _, port = server.strip().rpartition(":")
        out.append((host, int(port)))
    return out


def first_answer(bootstrap_servers: str, message: bytes, timeout: float) -> bytes:
    errors = []
    for host, port in servers(bootstrap_servers):
        try:
            return exchange(host, port, message, timeout)
        except OSError as exc:
            errors.append(f"{host}:{port}: {exc}")
    raise OSError("no bootstrap server answered (" + "; ".join(errors) + ")")


# --- DescribeQuorum -------------------------------------------------------------------------


def describe_quorum_request(correlation_id: int) -> bytes:
    partition = struct.pack(">i", 0) + NO_TAGS
    topic = compact_string("__cluster_metadata") + compact_array([partition]) + NO_TAGS
    return request(DESCRIBE_QUORUM, 0, correlation_id, compact_array([topic]) + NO_TAGS)


def parse_describe_quorum_leader(payload: bytes) -> int | None:
    """Leader id from a DescribeQuorum v0 response, or None on any error."""
    reader = response_body(payload)
    if reader.int16():
        return None
    if reader.array_length() < 1:
        return None
    reader.compact_string()
    if reader.array_length() < 1:
        return None
    reader.int32()  # partition index
    error, leader = reader.int16(), reader.int32()
    return leader if error == 0 and leader >= 0 else None


def quorum_leader(bootstrap_servers: str, timeout: float = 3.0) -> int | None:
    try:
        payload = first_answer(bootstrap_servers, describe_quorum_request(1), timeout)
        return parse_describe_quorum_leader(payload)
    except (OSError, ValueError, struct.error, IndexError):
        return None


# --- FindCoordinator + OffsetFetch ----------------------------------------------------------


def find_coordinators_request(groups: list[str], correlation_id: int) -> bytes:
    body = struct.pack(">b", 0) + compact_array([compact_string(g) for g in groups]) + NO_TAGS
    return request(FIND_COORDINATOR, 4, correlation_id, body)


def parse_find_coordinators(payload: bytes) -> dict[str, tuple[str, int] | int]:
    """Per group: (host, port) of its coordinator, or the error code."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out: dict[str, tuple[str, int] | int] = {}
    for _ in range(reader.array_length()):
        key = reader.compact_string() or ""
        reader.int32()  # node id
        host = reader.compact_string() or ""
        port = reader.int32()
        error = reader.int16()
        reader.compact_string()  # error message
        reader.tags()
        out[key] = error if error else (host, port)
    return out


def offset_fetch_request(groups: Mapping[str, list[TP] | None], correlation_id: int) -> bytes:
    entries = []
    for group, partitions in groups.items():
        topics: list[bytes] | None = None
        if partitions is not None:
            by_topic: dict[str, list[int]] = {}
            for topic, partition in partitions:
                by_topic.setdefault(topic, []).append(partition)
            topics = [
                compact_string(topic)
                + compact_array([struct.pack(">i", p) for p in sorted(parts)])
                + NO_TAGS
                for topic, parts in sorted(by_topic.items())
            ]
        entries.append(compact_string(group) + compact_array(topics) + NO_TAGS)
    body = compact_array(entries) + struct.pack(">b", 0) + NO_TAGS  # require_stable false
    return request(OFFSET_FETCH, 8, correlation_id, body)


def parse_offset_fetch(payload: bytes) -> dict[str, dict[TP, int | None] | int]:
    """Per group: {(topic, partition): committed offset or None}, or the group's error code."""
    reader = response_body(payload)
    reader.int32()  # throttle
    out: dict[str, dict[TP, int | None] | int] = {}
    for _ in range(reader.array_length()):
        group = reader.compact_string() or ""
        offsets: dict[TP, int | None] = {}
        for _ in range(reader.array_length()):
            topic = reader.compact_string() or ""
            for _ in range(reader.array_length()):
                partition = reader.int32()
                committed = reader.int64()
                reader.int32()  # leader epoch
                reader.compact_string()  # metadata
                error = reader.int16()
                reader.tags()
                offsets[(topic, partition)] = committed if committed >= 0 and not error else None
            reader.tags()
        error = reader.int16()
        reader.tags()
        out[group] = error if error and error != GROUP_ID_NOT_FOUND else offsets
    return out


def fetch_committed(
    bootstrap_servers: str,
    groups: Mapping[str, Iterable[TP] | None],
    timeout: float,
    attempts: int = 4,
) -> dict[str, dict[TP, int | None]]:
    """Committed offsets of many groups: one FindCoordinator, one OffsetFetch per coordinator.

    A group whose coordinator moved is asked again (bounded); a group still failing after
    that raises ProtocolError naming it.
    """
    wanted = {g: (None if p is None else list(p)) for g, p in groups.items()}
    results: dict[str, dict[TP, int | None]] = {}
    deadline = time.monotonic() + timeout
    pending = dict(wanted)
    last_error: dict[str, int] = {}
    for attempt in range(attempts):
        if not pending:
            break
        if attempt:
            time.sleep(min(0.2 * attempt, max(0.0, deadline - time.monotonic())))
        remaining = max(0.5, deadline - time.monotonic())
        located = parse_find_coordinators(
            first_answer(bootstrap_servers, find_coordinators_request(list(pending), 1), remaining)
        )
        by_coordinator: dict[tuple[str, int], dict[str, list[TP] | None]] = {}
        for group, where in located.items():
            if isinstance(where, int):
                last_error[group] = where
                continue
            by_coordinator.setdefault(where, {})[group] = pending[group]
        for (host, port), batch in by_coordinator.items():
            remaining = max(0.5, deadline - time.monotonic())
            try:
                answer = parse_offset_fetch(
                    exchange(host, port, offset_fetch_request(batch, 2), remaining)
                )
            except OSError:
                continue  # that coordinator went away: the next round finds the new one
            for group, offsets in answer.items():
                if isinstance(offsets, int):
                    last_error[group] = offsets
                    if offsets not in RETRIABLE_GROUP_ERRORS:
                        raise ProtocolError(f"OffsetFetch for group {group!r}: error {offsets}")
                    continue
                results[group] = offsets
                pending.pop(group, None)
    if pending:
        names = ", ".join(sorted(pending))
        codes = {last_error.get(g) for g in pending}
        raise ProtocolError(f"no committed offsets for {names} (errors {codes})")
    return results
