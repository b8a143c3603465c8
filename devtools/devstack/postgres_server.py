"""Our own throw-away PostgreSQL on 127.0.0.1:15432, from Debian's postgresql package.

For the tests and for trying the console on PostgreSQL: trust authentication on the loopback
address only, and no fsync (a crash may lose the data, which nobody keeps). The server refuses
to run as root, so as root it runs as Debian's `postgres` user (`setpriv`, which execs: the
pid we record is the server's own).
"""

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
    "PostgreSQL's server is not installed; install it (Debian/Ubuntu: sudo apt-get install -y "
    "postgresql) and run the command again."
)
SERVER_USER = "postgres"  # Debian's package creates it


def data_dir() -> Path:
    return config.postgres_dir() / "data"


def socket_dir() -> Path:
    return config.postgres_dir() / "socket"


def pid_file() -> Path:
    return config.postgres_dir() / "server.pid"


def out_file() -> Path:
    return config.postgres_dir() / "server.out"


def markers() -> list[str]:
    return ["postgres", str(data_dir())]


def running_pid() -> int | None:
    return procs.running_pid(pid_file(), markers())


def status() -> dict[str, Any]:
    pid = running_pid()
    return {"pid": pid, "running": pid is not None, "url": config.POSTGRES_URL}


def _bin_dirs() -> list[Path]:
    found = [d for d in Path("/usr/lib/postgresql").glob("*/bin") if (d / "initdb").is_file()]
    return sorted(found, key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0)


def bin_dir(log=print) -> Path:
    """The newest installed server's bin dir, installing Debian's package when we are root."""
    found = _bin_dirs()
    if found:
        return found[-1]
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise DevstackError(INSTALL_HINT)
    log("PostgreSQL is missing; installing Debian's postgresql package (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "postgresql"]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-10:])
            raise DevstackError(f"`{' '.join(cmd)}` failed:\n{tail}\n{INSTALL_HINT}")
    found = _bin_dirs()
    if not found:
        raise DevstackError(INSTALL_HINT)
    return found[-1]


def _as_server_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["setpriv", f"--reuid={SERVER_USER}", f"--regid={SERVER_USER}", "--init-groups", *cmd]


def _owned_dir(path: Path) -> None:
    """A directory the server's user owns, mode 0700 (initdb and the server insist)."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(path, SERVER_USER, SERVER_USER)
    path.chmod(0o700)


def _initdb(bins: Path, log=print) -> None:
    config.postgres_dir().mkdir(parents=True, exist_ok=True)
    config.postgres_dir().chmod(0o755)  # the server's user enters it to reach data/
    _owned_dir(data_dir())
    _owned_dir(socket_dir())
    cmd = [str(bins / "initdb"), "-D", str(data_dir()), "-U", config.POSTGRES_USER]
    cmd += ["--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"]
    proc = subprocess.run(_as_server_user(cmd), capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise DevstackError(f"initdb failed:\n{tail}")
    log(f"Created a PostgreSQL cluster in {data_dir()}")


def _ready(bins: Path) -> bool:
    cmd = [str(bins / "pg_isready"), "-q", "-h", config.HOST, "-p", str(config.POSTGRES_PORT)]
    return subprocess.run(cmd).returncode == 0


def _ensure_database(bins: Path) -> None:
    """The console's database, created once (initdb makes only `postgres`)."""
    psql = [str(bins / "psql"), "-h", config.HOST, "-p", str(config.POSTGRES_PORT)]
    psql += ["-U", config.POSTGRES_USER, "-d", "postgres", "-tAq", "-v", "ON_ERROR_STOP=1"]
    exists = subprocess.run(
        [*psql, "-c", f"SELECT 1 FROM pg_database WHERE datname = '{config.POSTGRES_DB}'"],
        capture_output=True,
        text=True,
    )
    if exists.returncode != 0:
        raise DevstackError(f"PostgreSQL did not answer psql: {exists.stderr.strip()}")
    if exists.stdout.strip() != "1":
        subprocess.run(
            [*psql, "-c", f'CREATE DATABASE "{config.POSTGRES_DB}"'],
            check=True,
            capture_output=True,
        )


def ensure_running(log=print, timeout: float = 30.0) -> int | None:
    """Start PostgreSQL unless ours is running; wait until it accepts connections."""
    bins = bin_dir(log)
    pid = running_pid()
    if pid is None and procs.port_open(config.HOST, config.POSTGRES_PORT):
        raise DevstackError(
            f"Port {config.POSTGRES_PORT} is taken by a process that is not the dev stack's "
            f"PostgreSQL in {config.postgres_dir()}; stop it and retry."
        )
    if pid is None:
        if not (data_dir() / "PG_VERSION").is_file():
            _initdb(bins, log)
        (data_dir() / "postmaster.pid").unlink(missing_ok=True)  # left by a killed server
        cmd = [str(bins / "postgres"), "-D", str(data_dir())]
        cmd += ["-h", config.HOST, "-p", str(config.POSTGRES_PORT), "-k", str(socket_dir())]
        # Throw-away data: no waiting on the disk. Connections: web servers, workers,
        # samplers and the tests' own, with room to spare.
        for setting in ("fsync=off", "synchronous_commit=off", "full_page_writes=off"):
            cmd += ["-c", setting]
        cmd += ["-c", "max_connections=300"]
        proc = procs.spawn(_as_server_user(cmd), out_file(), pid_file(), config.postgres_dir())
        pid = proc.pid
        log(f"Started PostgreSQL on {config.HOST}:{config.POSTGRES_PORT} (pid {pid})")
    deadline = time.monotonic() + timeout
    while not _ready(bins):
        if not procs.is_alive(pid) or time.monotonic() > deadline:
            raise DevstackError(
                f"PostgreSQL did not accept connections on {config.HOST}:{config.POSTGRES_PORT}."
                f"\n{procs.tail(out_file(), 20)}"
            )
        time.sleep(0.1)
    _ensure_database(bins)
    return pid


def stop(timeout: float = 20.0) -> list[int]:
    """Fast shutdown (SIGINT: open sessions are ended, not waited for)."""
    pid = running_pid()
    if pid is None:
        return []
    try:
        os.kill(pid, 2)
    except ProcessLookupError:
        return []
    if procs.wait_gone([pid], timeout):
        return procs.stop_many([(pid_file(), markers())], timeout=5, kill=True)
    pid_file().unlink(missing_ok=True)
    return [pid]
