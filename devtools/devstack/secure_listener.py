"""Readiness of the SASL_SSL listener: TLS handshakes, and the console user's SCRAM login.

Fresh storage gets the console's credential at format time (`kafka-storage format
--add-scram`). Storage formatted before the secured listener existed, or a password file made
anew, does not have it (or has an old one): then the login fails and the credential is
upserted with Kafka's ConfigCommand over the PLAINTEXT listener, which is idempotent.
"""

from __future__ import annotations

import re
import socket
import ssl
import subprocess
import time
from collections.abc import Callable, Iterable

from devtools.devstack import config, tls, tools
from devtools.devstack.errors import DevstackError

TOOL_TIMEOUT_S = 60.0
# A kafka-broker-api-versions line of a broker it reached: `host:port (id: 2 rack: ...) -> (`.
_REACHED = re.compile(r"^\S+ \(id: (\d+) [^)]*\) -> \(", re.MULTILINE)


def tls_handshake(node_id: int, timeout: float = 3.0) -> str:
    """TLS version negotiated with the node's SASL_SSL port; the certificate must verify
    against ca.pem for the name 127.0.0.1, as it must for the console."""
    context = ssl.create_default_context(cafile=str(tls.ca_pem()))
    with socket.create_connection((config.HOST, config.secure_port(node_id)), timeout) as raw:
        with context.wrap_socket(raw, server_hostname=config.HOST) as conn:
            return conn.version() or "unknown"


def wait_tls(node_ids: Iterable[int], deadline: float) -> None:
    """Until every node's SASL_SSL listener completes a verified TLS handshake."""
    if not tls.ca_pem().is_file():
        raise DevstackError(
            f"{tls.ca_pem()} is missing; restart the stack (devstack down && devstack up)."
        )
    for n in node_ids:
        port = config.secure_port(n)
        while True:
            try:
                tls_handshake(n)
                break
            except ssl.SSLCertVerificationError as exc:
                # Waiting does not help: the broker runs with other material than ca.pem's.
                raise DevstackError(
                    f"Node {n}'s certificate on {config.HOST}:{port} does not verify against "
                    f"{tls.ca_pem()} ({exc.verify_message}); restart the stack "
                    "(devstack down && devstack up)."
                ) from None
            except OSError as exc:  # refused, reset, or ssl.SSLError while it starts
                if time.monotonic() > deadline:
                    raise DevstackError(
                        f"Node {n}: no TLS handshake on {config.HOST}:{port}: {exc}"
                    ) from None
                time.sleep(0.5)


def parse_reached(api_versions_output: str) -> set[int]:
    """Node ids kafka-broker-api-versions got an answer from."""
    return {int(node) for node in _REACHED.findall(api_versions_output)}


def scram_logins() -> tuple[set[int], str]:
    """Nodes on which Kafka's own client logs in as the console user over SASL_SSL (one
    kafka-broker-api-versions run, which connects to every broker), and the tool's complaint."""
    args = [
        "--bootstrap-server",
        config.SECURE_BOOTSTRAP_SERVERS,
        "--command-config",
        str(tls.write_client_properties()),
    ]
    try:
        done = tools.run_tool("kafka-broker-api-versions", args, timeout=TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return set(), f"kafka-broker-api-versions did not finish in {TOOL_TIMEOUT_S:.0f} s"
    complaint = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
    return parse_reached(done.stdout), tls.redact(complaint[0])


def store_credential() -> None:
    """Upsert the console's SCRAM credential (kafka-configs over the PLAINTEXT listener)."""
    args = ["--alter", "--entity-type", "users", "--entity-name", config.SASL_USERNAME]
    args += ["--add-config", tls.scram_config_arg()]  # a dev-only tool: a password argument
    try:
        done = tools.run_tool("kafka-configs", args, timeout=TOOL_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise DevstackError(f"kafka-configs did not finish in {TOOL_TIMEOUT_S:.0f} s") from None
    if done.returncode != 0:
        output = tls.redact(f"{done.stdout}\n{done.stderr}".strip())
        raise DevstackError(f"kafka-configs could not store the SCRAM credential:\n{output}")


def ensure_ready(
    node_ids: Iterable[int],
    timeout: float = config.SECURE_READY_TIMEOUT_S,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Wait until every node's SASL_SSL listener handshakes and the console user logs in on
    each; store the credential first when the login fails."""
    need = set(node_ids)
    deadline = time.monotonic() + timeout
    wait_tls(sorted(need), deadline)
    reached, complaint = scram_logins()
    if need <= reached:
        return
    if progress:
        progress(
            f"  storing the SCRAM credential of {config.SASL_USERNAME}: kafka-configs --alter "
            f"--entity-type users --entity-name {config.SASL_USERNAME} "
            f"--add-config '{config.SASL_MECHANISM}=[password=***]'"
        )
    store_credential()
    while True:
        # The credential reaches each broker through the metadata log: a moment.
        reached, complaint = scram_logins()
        if need <= reached:
            return
        if time.monotonic() > deadline:
            raise DevstackError(
                f"The console user {config.SASL_USERNAME!r} cannot log in ({config.SASL_MECHANISM})"
                f" on brokers {sorted(need - reached)} of {config.SECURE_BOOTSTRAP_SERVERS}: "
                f"{complaint}"
            )
        time.sleep(1.0)
