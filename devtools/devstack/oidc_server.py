"""The dev stack's OpenID Connect provider (devtools/oidc_provider) on 127.0.0.1:18090: a
Python process of its own, with its state (SQLite, signing key) in the state dir."""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from devtools.devstack import config, procs
from devtools.devstack.errors import DevstackError

READY_TIMEOUT_S = 30.0


def pid_file() -> Path:
    return config.oidc_dir() / "provider.pid"


def out_file() -> Path:
    return config.oidc_dir() / "provider.out"


def markers() -> list[str]:
    return ["devtools.oidc_provider", str(config.OIDC_PORT)]


def running_pid() -> int | None:
    return procs.running_pid(pid_file(), markers())


def status() -> dict[str, Any]:
    pid = running_pid()
    return {"pid": pid, "running": pid is not None, "url": config.OIDC_URL}


def ready() -> bool:
    url = f"{config.OIDC_URL}/o/.well-known/openid-configuration"
    try:
        with urllib.request.urlopen(url, timeout=1) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):
        return False


def ensure_running(log=print) -> int:
    """Start the provider unless it runs; wait until it serves its discovery document."""
    pid = running_pid()
    if pid is None:
        if procs.port_open(config.HOST, config.OIDC_PORT):
            raise DevstackError(
                f"Port {config.OIDC_PORT} is taken by a process that is not the dev stack's "
                "OIDC provider; stop it and retry."
            )
        state = config.oidc_dir()
        cmd = [sys.executable, "-m", "devtools.oidc_provider", str(state), str(config.OIDC_PORT)]
        root = Path(__file__).resolve().parents[2]
        pid = procs.spawn(cmd, out_file(), pid_file(), root).pid
        log(f"Started the dev OIDC provider on {config.OIDC_URL} (pid {pid})")
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not ready():
        if not procs.is_alive(pid) or time.monotonic() > deadline:
            raise DevstackError(
                f"The dev OIDC provider did not answer on {config.OIDC_URL}.\n"
                + procs.tail(out_file(), 20)
            )
        time.sleep(0.2)
    return pid


def stop(timeout: float = 10.0) -> list[int]:
    return procs.stop_many([(pid_file(), markers())], timeout=timeout)
