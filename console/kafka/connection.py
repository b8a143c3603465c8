"""Connections of the wire client: TCP, TLS and SASL as librdkafka does them, kept in a pool.

The same `ClusterSecurity` that configures librdkafka configures these sockets: TLS with the
cluster's CA (or the system's), an optional client certificate, hostname verification unless
turned off; SASL PLAIN or SCRAM-SHA-256/512 after a SaslHandshake. A connection is opened once
per broker and reused (a TLS handshake and a SCRAM exchange cost more than the request).
"""

from __future__ import annotations

import collections
import socket
import ssl
import struct
import threading
from collections.abc import Callable

from console.clusters import ClusterSecurity, SecretUnavailable
from console.kafka import protocol, scram

Address = tuple[str, int]


class WireError(Exception):
    """Base of the wire client's errors; `kind` is what the API's error code says."""

    kind = "kafka_error"


class WireUnreachable(WireError):
    """No answer: refused, reset or timed out (the API answers 504)."""

    kind = "kafka_timeout"


class WireAuthFailed(WireError):
    """The broker refused our SASL credentials, or the mechanism."""

    kind = "kafka_auth_failed"


class WireTlsFailed(WireError):
    """The TLS handshake failed: an untrusted CA, a name mismatch, a bad client key."""

    kind = "kafka_tls_failed"


class WireUnsupported(WireError):
    """The broker is too old for a request the wire client sends (ApiVersions says so)."""

    kind = "kafka_version_unsupported"


class WireConfigError(WireError):
    """The cluster's settings cannot be used (a secret file missing, a CA file unreadable)."""

    kind = "cluster_misconfigured"


def parse_servers(bootstrap_servers: str) -> list[Address]:
    out = []
    for server in bootstrap_servers.split(","):
        host, _, port = server.strip().rpartition(":")
        out.append((host.strip("[]"), int(port)))
    return out


def tls_context(security: ClusterSecurity) -> ssl.SSLContext:
    try:
        context = ssl.create_default_context(cafile=security.ssl_ca_location)
        if security.ssl_certificate_location and security.ssl_key_location:
            password = security.ssl_key_password.reveal() if security.ssl_key_password else None
            context.load_cert_chain(
                security.ssl_certificate_location, security.ssl_key_location, password
            )
    except SecretUnavailable as exc:
        raise WireConfigError(f"the TLS key password is not available: {exc}") from None
    except (OSError, ssl.SSLError) as exc:
        raise WireConfigError(f"the TLS files cannot be loaded: {exc}") from None
    context.check_hostname = security.ssl_check_hostname
    return context


class Connection:
    """One authenticated connection to one broker; not thread-safe (the pool serializes)."""

    def __init__(self, address: Address, security: ClusterSecurity, timeout: float):
        self.address = address
        self._correlation = 0
        self.last_api_key = -1  # of the last request sent (counted by the pool)
        # The broker's ApiVersions table; None until it has answered (not checked meanwhile).
        self.versions: dict[int, tuple[int, int]] | None = None
        host, port = address
        try:
            raw = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise WireUnreachable(f"{host}:{port}: {exc.strerror or exc}") from None
        try:
            raw.settimeout(timeout)
            if security.uses_tls:
                try:
                    self.sock: socket.socket = tls_context(security).wrap_socket(
                        raw, server_hostname=host
                    )
                except ssl.SSLCertVerificationError as exc:
                    raise WireTlsFailed(
                        f"TLS handshake with {host}:{port} failed: certificate verify failed "
                        f"({exc.verify_message})"
                    ) from None
                except (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError) as exc:
                    # The broker closed the connection mid-handshake (it is stopping): no
                    # answer, so the next broker is asked, not a TLS failure to report.
                    raise WireUnreachable(f"{host}:{port}: closed during TLS ({exc})") from None
                except ssl.SSLError as exc:
                    raise WireTlsFailed(
                        f"TLS handshake with {host}:{port} failed: {exc.reason or exc}"
                    ) from None
                except OSError as exc:  # reset or timed out mid-handshake: no answer
                    raise WireUnreachable(
                        f"{host}:{port}: TLS handshake: {exc.strerror or exc}"
                    ) from None
            else:
                self.sock = raw
            # Before SASL: a broker answers ApiVersions ahead of authentication.
            self.versions = self._api_versions()
            if security.uses_sasl:
                self._authenticate(security)
        except BaseException:
            raw.close()
            raise

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _next_id(self) -> int:
        self._correlation = (self._correlation + 1) % (1 << 31)
        return self._correlation

    def _api_versions(self) -> dict[int, tuple[int, int]]:
        """What the broker speaks, asked once per connection."""
        error, versions = protocol.parse_api_versions(
            self.exchange(protocol.api_versions_request, 10)
        )
        if error:
            raise WireUnsupported(
                f"{self.address[0]}:{self.address[1]} answered ApiVersions v3 with error "
                f"{error}: the console needs Kafka {protocol.MINIMUM_KAFKA} or newer"
            )
        return versions

    def exchange(self, build: Callable[[int], bytes], timeout: float) -> bytes:
        """Send one request (built with the next correlation id); return the response payload.
        A request the broker does not speak is refused here, before it is sent."""
        self.sock.settimeout(timeout)
        data = build(self._next_id())
        key, version = protocol.header_key_version(data)
        if self.versions is not None:
            why = protocol.unsupported(self.versions, key, version)
            if why:
                raise WireUnsupported(
                    f"{self.address[0]}:{self.address[1]} is too old for the console: {why} "
                    f"(the console needs Kafka {protocol.MINIMUM_KAFKA} or newer)"
                )
        self.last_api_key = key
        try:
            self.sock.sendall(data)
            size = struct.unpack(">i", self._recv_exact(4))[0]
            return self._recv_exact(size)
        except OSError as exc:
            raise WireUnreachable(f"{self.address[0]}:{self.address[1]}: {exc}") from None

    def _recv_exact(self, size: int) -> bytes:
        chunks = bytearray()
        while len(chunks) < size:
            chunk = self.sock.recv(min(size - len(chunks), 1 << 20))
            if not chunk:
                raise OSError("connection closed by the broker")
            chunks += chunk
        return bytes(chunks)

    def _authenticate(self, security: ClusterSecurity) -> None:
        mechanism = security.sasl_mechanism or ""
        where = f"{self.address[0]}:{self.address[1]}"
        error, enabled = protocol.parse_sasl_handshake(
            self.exchange(lambda cid: protocol.sasl_handshake_request(mechanism, cid), 10)
        )
        if error:
            raise WireAuthFailed(
                f"{where} does not accept SASL mechanism {mechanism} "
                f"(it enables {', '.join(enabled) or 'none'})"
            )
        try:
            password = security.sasl_password.reveal() if security.sasl_password else ""
        except SecretUnavailable as exc:
            raise WireConfigError(f"the SASL password is not available: {exc}") from None
        user = security.sasl_username or ""
        try:
            if mechanism == "PLAIN":
                self._sasl_step(scram.plain_initial(user, password), where)
                return
            client = scram.ScramClient(mechanism, user, password)
            server_first = self._sasl_step(client.first(), where)
            server_final = self._sasl_step(client.final(server_first), where)
            client.verify(server_final)
        except scram.SaslError as exc:
            raise WireAuthFailed(
                f"SASL {mechanism} authentication with {where} failed: {exc}"
            ) from None

    def _sasl_step(self, data: bytes, where: str) -> bytes:
        error, message, answer = protocol.parse_sasl_authenticate(
            self.exchange(lambda cid: protocol.sasl_authenticate_request(data, cid), 10)
        )
        if error:
            raise WireAuthFailed(
                f"SASL authentication with {where} failed: {message or f'error {error}'}"
            )
        return answer


class ConnectionPool:
    """One connection per broker address, reused; a broken one is replaced once.

    `requests` counts the requests answered, by Kafka API key (benchmarks report them)."""

    def __init__(self, security: ClusterSecurity):
        self.security = security
        self._lock = threading.Lock()
        self._connections: dict[Address, Connection] = {}
        self._address_locks: dict[Address, threading.Lock] = {}
        self.requests: collections.Counter[int] = collections.Counter()

    def exchange(self, address: Address, build: Callable[[int], bytes], timeout: float) -> bytes:
        with self._lock:
            address_lock = self._address_locks.setdefault(address, threading.Lock())
        with address_lock:
            for attempt in (1, 2):
                conn = self._connections.get(address)
                reused = conn is not None
                if conn is None:
                    conn = Connection(address, self.security, timeout)
                    self._connections[address] = conn
                try:
                    answer = conn.exchange(build, timeout)
                    with self._lock:  # brokers are asked from several threads at once
                        self.requests[conn.last_api_key] += 1
                    return answer
                except WireUnreachable:
                    conn.close()
                    self._connections.pop(address, None)
                    # A pooled connection may have been closed by the broker while idle.
                    if not reused or attempt == 2:
                        raise
            raise AssertionError("unreachable")

    def api_versions(self, address: Address, timeout: float) -> dict[int, tuple[int, int]]:
        """What the broker at `address` speaks: its ApiVersions answer, asked when the pooled
        connection was opened (opened here if there is none)."""
        with self._lock:
            address_lock = self._address_locks.setdefault(address, threading.Lock())
        with address_lock:
            conn = self._connections.get(address)
            if conn is None:
                conn = Connection(address, self.security, timeout)
                self._connections[address] = conn
            return dict(conn.versions or {})

    def close(self) -> None:
        with self._lock:
            for conn in self._connections.values():
                conn.close()
            self._connections.clear()
