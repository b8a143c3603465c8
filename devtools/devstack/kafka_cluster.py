"""The three-node KRaft cluster: configs, storage format, start, readiness, stop."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devtools.devstack import config, procs, tls
from devtools.devstack.errors import DevstackError

if TYPE_CHECKING:
    from console.kafka import ClusterDescription

JVM_FLAGS = [
    # The flags of Kafka's own kafka-run-class.sh, plus a clean exit on OOM.
    "-XX:+UseG1GC",
    "-XX:MaxGCPauseMillis=20",
    "-XX:InitiatingHeapOccupancyPercent=35",
    "-XX:+ExplicitGCInvokesConcurrent",
    "-XX:MaxInlineLevel=15",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djava.awt.headless=true",
]


def java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise DevstackError("Java is not on PATH; install a JDK 17+ (Debian: openjdk-17-jdk).")
    return found


# --- per-node paths -------------------------------------------------------------------------
def data_dir(node_id: int) -> Path:
    return config.node_dir(node_id) / "data"


def logs_dir(node_id: int) -> Path:
    return config.node_dir(node_id) / "logs"


def pid_file(node_id: int) -> Path:
    return config.node_dir(node_id) / "kafka.pid"


def out_file(node_id: int) -> Path:
    return config.node_dir(node_id) / "server.out"


def props_file(node_id: int) -> Path:
    return config.node_dir(node_id) / "server.properties"


def markers(node_id: int) -> list[str]:
    """Command-line fragments that identify our JVM for this node of this state dir."""
    return ["kafka.Kafka", f"-Ddevstack.node={config.node_dir(node_id)}"]


def running_pid(node_id: int) -> int | None:
    return procs.running_pid(pid_file(node_id), markers(node_id))


def node_status(node_id: int) -> dict[str, Any]:
    pid = running_pid(node_id)
    return {
        "id": node_id,
        "port": config.broker_port(node_id),
        "secure_port": config.secure_port(node_id),
        "pid": pid,
        "running": pid is not None,
    }


# --- cluster id and storage -----------------------------------------------------------------
def new_cluster_id() -> str:
    """A Kafka-style id: 16 random bytes, URL-safe base64 without padding (22 chars)."""
    while True:
        cid = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not cid.startswith("-"):  # Kafka avoids these too: they read as CLI flags
            return cid


def _formatted_cluster_id(node_id: int) -> str | None:
    meta = data_dir(node_id) / "meta.properties"
    if not meta.is_file():
        return None
    for line in meta.read_text().splitlines():
        if line.startswith("cluster.id="):
            return line.split("=", 1)[1].strip()
    return None


def cluster_id() -> str:
    """The stack's cluster id, created once and kept in the state dir."""
    path = config.state_dir() / "cluster.id"
    if path.is_file():
        return path.read_text().strip()
    # A lost id file must not split the cluster: reuse the id a formatted node already has.
    existing = [c for n in config.BROKER_IDS if (c := _formatted_cluster_id(n))]
    cid = existing[0] if existing else new_cluster_id()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cid + "\n")
    return cid


def write_node_files(node_id: int) -> None:
    for d in (data_dir(node_id), logs_dir(node_id)):
        d.mkdir(parents=True, exist_ok=True)
    props = config.node_properties(node_id, data_dir(node_id), tls.listener_properties())
    # It holds the keystore password: readable by us only.
    props_file(node_id).touch(mode=0o600)
    props_file(node_id).chmod(0o600)
    props_file(node_id).write_text(props)
    (config.node_dir(node_id) / "log4j2.properties").write_text(
        config.server_log4j2(logs_dir(node_id))
    )


def _classpath(libs: Path) -> str:
    return str(libs / "*")  # the JVM expands the wildcard itself


def format_command(node_id: int, libs: Path, cid: str) -> list[str]:
    """kafka-storage format for one node. `--add-scram` puts the console's SCRAM credential into
    the bootstrap metadata, so a fresh cluster has it before any client connects."""
    return [
        java(),
        *config.TOOL_HEAP,
        f"-Dlog4j2.configurationFile={tools_log4j2_file()}",
        "-cp",
        _classpath(libs),
        "kafka.tools.StorageTool",
        "format",
        "-t",
        cid,
        "-c",
        str(props_file(node_id)),
        "--add-scram",
        tls.scram_format_arg(),
        "--ignore-formatted",
    ]


def format_storage(node_ids: Iterable[int], libs: Path) -> None:
    """Format unformatted nodes (in parallel: each is a JVM start)."""
    cid = cluster_id()
    todo = [n for n in node_ids if _formatted_cluster_id(n) is None]
    running = {
        n: subprocess.Popen(
            format_command(n, libs, cid),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for n in todo
    }
    for n, proc in running.items():
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise DevstackError(f"Formatting node {n} failed:\n{tls.redact(out.strip())}")


def tools_log4j2_file() -> Path:
    path = config.state_dir() / "tools-log4j2.properties"
    text = config.tools_log4j2()
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path


# --- start / stop ---------------------------------------------------------------------------
def node_command(node_id: int, libs: Path) -> list[str]:
    node = config.node_dir(node_id)
    return [
        java(),
        *config.broker_heap(),
        *JVM_FLAGS,
        f"-Ddevstack.node={node}",
        f"-Dkafka.logs.dir={logs_dir(node_id)}",
        f"-Dlog4j2.configurationFile={node / 'log4j2.properties'}",
        "-cp",
        _classpath(libs),
        "kafka.Kafka",
        str(props_file(node_id)),
    ]


def _check_ports_free(node_id: int) -> None:
    ports = (
        config.broker_port(node_id),
        config.secure_port(node_id),
        config.controller_port(node_id),
    )
    for port in ports:
        if procs.port_open(config.HOST, port):
            raise DevstackError(
                f"Port {port} (node {node_id}) is taken by a process that is not the dev stack "
                f"in {config.state_dir()}; stop it (or its other dev stack) and retry."
            )


# server.out size when each node was last spawned, to read only that run's output.
_spawn_offsets: dict[int, int] = {}
BIND_RETRIES = 3


def _spawn_node(node_id: int, libs: Path) -> subprocess.Popen:
    out = out_file(node_id)
    with open(out, "ab") as f:
        f.write(f"\n==== devstack start {time.strftime('%Y-%m-%d %H:%M:%S')} ====\n".encode())
        _spawn_offsets[node_id] = f.tell()
    cmd = node_command(node_id, libs)
    return procs.spawn(cmd, out, pid_file(node_id), config.node_dir(node_id))


def _died_of_bind_error(node_id: int) -> bool:
    try:
        with open(out_file(node_id), "rb") as f:
            f.seek(_spawn_offsets.get(node_id, 0))
            return b"Address already in use" in f.read()
    except OSError:
        return False


def start_nodes(node_ids: Iterable[int], libs: Path) -> dict[int, subprocess.Popen]:
    """Start the given nodes that are not running; returns the processes started."""
    todo = [n for n in node_ids if running_pid(n) is None]
    all_ports = [
        p
        for n in config.BROKER_IDS
        for p in (config.broker_port(n), config.secure_port(n), config.controller_port(n))
    ]
    procs.reserve_ports(all_ports)
    if todo:
        tls.ensure_material()
    for n in todo:
        _check_ports_free(n)
        write_node_files(n)
    format_storage(todo, libs)
    return {n: _spawn_node(n, libs) for n in todo}


def stop_nodes(node_ids: Iterable[int], kill: bool = False) -> list[int]:
    """Stop nodes (SIGTERM, or SIGKILL with kill=True); returns the pids signalled."""
    targets = [(pid_file(n), markers(n)) for n in node_ids]
    return procs.stop_many(targets, timeout=config.STOP_TIMEOUT_S, kill=kill)


def _failure_report(node_ids: Iterable[int]) -> str:
    parts = []
    for n in node_ids:
        parts.append(f"--- node {n}: tail of {out_file(n)} ---\n{procs.tail(out_file(n))}")
    return "\n".join(parts)


def wait_ready(
    started: Mapping[int, subprocess.Popen],
    need: Iterable[int] = config.BROKER_IDS,
    timeout: float = config.READY_TIMEOUT_S,
    progress: Callable[[str], None] | None = None,
    libs: Path | None = None,
) -> ClusterDescription:
    """Poll until the cluster has a controller and every broker in `need` is registered.

    A broker named in `need` must also answer on its own port, so a SIGKILLed broker that the
    controller has not fenced yet does not count as back. With `libs`, a started node that
    died because its port was briefly taken is started again (up to BIND_RETRIES times).
    """
    from console.kafka.dev import probe  # confluent_kafka loads only when needed

    started = dict(started)
    retries = dict.fromkeys(started, BIND_RETRIES)
    need = sorted(set(need))
    deadline = time.monotonic() + timeout
    last_note = time.monotonic()
    while True:
        for n, proc in list(started.items()):
            if proc.poll() is not None:
                if libs is not None and retries[n] > 0 and _died_of_bind_error(n):
                    retries[n] -= 1
                    if progress:
                        progress(f"  node {n} could not bind its port yet; starting it again")
                    time.sleep(2.0)
                    started[n] = _spawn_node(n, libs)
                    continue
                raise DevstackError(
                    f"Kafka node {n} exited with code {proc.returncode} while starting.\n"
                    + _failure_report([n])
                )
        desc = probe(config.BOOTSTRAP_SERVERS, timeout=3.0)
        if desc is not None and desc.controller_id is not None:
            seen = {b.id for b in desc.brokers}
            own_ok = all(
                n not in started or probe(f"{config.HOST}:{config.broker_port(n)}", 3.0)
                for n in need
            )
            if set(need) <= seen and own_ok:
                return desc
        now = time.monotonic()
        if now >= deadline:
            seen_txt = sorted(b.id for b in desc.brokers) if desc else "none"
            raise DevstackError(
                f"Kafka was not ready after {timeout:.0f} s (brokers seen: {seen_txt}, "
                f"wanted {need}).\n" + _failure_report(config.BROKER_IDS)
            )
        if progress and now - last_note > 15:
            seen_txt = sorted(b.id for b in desc.brokers) if desc else []
            progress(f"  waiting for brokers {need} (registered so far: {seen_txt})")
            last_note = now
        time.sleep(0.3)
