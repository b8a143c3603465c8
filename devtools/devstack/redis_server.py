"""Our own throw-away Redis (no persistence) on 127.0.0.1:16379, from the system's redis-server."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from devtools.devstack import config, procs
from devtools.devstack.errors import DevstackError

INSTALL_HINT = (
    "redis-server is not installed; install it (Debian/Ubuntu: sudo apt-get install -y "
    "redis-server) and run the command again."
)


def pid_file() -> Path:
    return config.redis_dir() / "redis.pid"


def out_file() -> Path:
    return config.redis_dir() / "redis.out"


def markers() -> list[str]:
    # redis-server rewrites its argv to "redis-server 127.0.0.1:16379" soon after start.
    return ["redis-server", str(config.REDIS_PORT)]


def running_pid() -> int | None:
    return procs.running_pid(pid_file(), markers())


def status() -> dict[str, Any]:
    pid = running_pid()
    return {"pid": pid, "running": pid is not None}


def redis_server_binary(log=print) -> str:
    """Path of redis-server, installing Debian's package when we are root and it is missing."""
    found = shutil.which("redis-server")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise DevstackError(INSTALL_HINT)
    log("redis-server is missing; installing Debian's redis-server package (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "redis-server"]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-10:])
            raise DevstackError(f"`{' '.join(cmd)}` failed:\n{tail}\n{INSTALL_HINT}")
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None
    )
    if not found:
        raise DevstackError(INSTALL_HINT)
    return found


def ping(timeout: float = 1.0) -> bool:
    import redis  # the client library; only needed once a server may be up

    try:
        client = redis.Redis(
            host=config.HOST,
            port=config.REDIS_PORT,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


def ensure_running(log=print, timeout: float = 20.0) -> int | None:
    """Start Redis unless ours is running; wait for PING. Returns its pid."""
    pid = running_pid()
    if pid is not None and ping():
        return pid
    if pid is None and procs.port_open(config.HOST, config.REDIS_PORT):
        raise DevstackError(
            f"Port {config.REDIS_PORT} is taken by a process that is not the dev stack's Redis "
            f"in {config.state_dir()}; stop it and retry."
        )
    if pid is None:
        binary = redis_server_binary(log)
        config.redis_dir().mkdir(parents=True, exist_ok=True)
        cmd = [
            binary,
            "--bind",
            config.HOST,
            "--port",
            str(config.REDIS_PORT),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(config.redis_dir()),
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
        ]
        proc = procs.spawn(cmd, out_file(), pid_file(), config.redis_dir())
        pid = proc.pid
        log(f"Started Redis on {config.HOST}:{config.REDIS_PORT} (pid {pid})")
    deadline = time.monotonic() + timeout
    while not ping():
        if not procs.is_alive(pid) or time.monotonic() > deadline:
            raise DevstackError(
                f"Redis did not answer PING on {config.HOST}:{config.REDIS_PORT}.\n"
                + procs.tail(out_file(), 20)
            )
        time.sleep(0.1)
    return pid


def stop(timeout: float = 10.0) -> list[int]:
    return procs.stop_many([(pid_file(), markers())], timeout=timeout)
