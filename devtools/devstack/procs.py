"""Pid files and signals for the processes the dev stack starts (Linux /proc based).

We only ever signal a pid read from one of our pid files, and only after its command line
shows the marker we started it with, so a recycled pid is never killed by mistake.
"""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


def read_pid(pid_file: Path) -> int | None:
    try:
        return int(pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def write_pid(pid_file: Path, pid: int) -> None:
    pid_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = pid_file.with_suffix(".tmp")
    tmp.write_text(f"{pid}\n")
    tmp.replace(pid_file)


def cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def is_alive(pid: int) -> bool:
    """True for a live process; a zombie (exited, not yet reaped) counts as dead."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    # The state letter follows the parenthesised command name, which may contain spaces.
    return stat[stat.rfind(")") + 2 :][:1] not in ("Z", "X")


def matches(pid: int, markers: Sequence[str]) -> bool:
    """Is pid alive, with every marker somewhere in its command line?"""
    if not is_alive(pid):
        return False
    line = " ".join(cmdline(pid))
    return all(marker in line for marker in markers)


def running_pid(pid_file: Path, markers: Sequence[str]) -> int | None:
    """The pid from pid_file if that process is alive and ours, else None."""
    pid = read_pid(pid_file)
    return pid if pid is not None and matches(pid, markers) else None


def _reap(pid: int) -> None:
    # When we started the process in this same Python process, collect its exit status so it
    # does not linger as a zombie; for anyone else's child this is a harmless no-op.
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def wait_gone(pids: Sequence[int], timeout: float) -> list[int]:
    """Wait until all pids have exited; returns those still alive at the deadline."""
    deadline = time.monotonic() + timeout
    left = list(pids)
    while left and time.monotonic() < deadline:
        for pid in left:
            _reap(pid)
        left = [pid for pid in left if is_alive(pid)]
        if left:
            time.sleep(0.2)
    return left


def stop_many(
    targets: Sequence[tuple[Path, Sequence[str]]], timeout: float, kill: bool = False
) -> list[int]:
    """Signal every live pid-file process at once (SIGTERM, or SIGKILL with kill=True).

    After `timeout` seconds the survivors get SIGKILL. Pid files are removed. Returns the pids
    that were signalled.
    """
    sig = signal.SIGKILL if kill else signal.SIGTERM
    pids = []
    for pid_file, markers in targets:
        pid = running_pid(pid_file, markers)
        if pid is not None:
            try:
                os.kill(pid, sig)
                pids.append(pid)
            except ProcessLookupError:
                pass
    survivors = wait_gone(pids, timeout)
    for pid in survivors:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    wait_gone(survivors, 10)
    for pid_file, _ in targets:
        pid_file.unlink(missing_ok=True)
    return pids


def spawn(cmd: Sequence[str], log_file: Path, pid_file: Path, cwd: Path) -> subprocess.Popen:
    """Start cmd detached in its own session (Ctrl-C on `up` leaves it running), logging to
    log_file, and record its pid."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with open(log_file, "ab") as out:
        proc = subprocess.Popen(
            list(cmd),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            start_new_session=True,
        )
    write_pid(pid_file, proc.pid)
    return proc


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    """Does something accept TCP connections on host:port?"""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


RESERVED_PORTS = Path("/proc/sys/net/ipv4/ip_local_reserved_ports")


def _expand_ports(spec: str) -> set[int]:
    ports: set[int] = set()
    for part in spec.replace("\n", "").split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            ports.update(range(int(lo), int(hi) + 1))
        elif part:
            ports.add(int(part))
    return ports


def reserve_ports(ports: Sequence[int]) -> bool:
    """Keep the kernel from handing out `ports` as ephemeral client ports.

    Listen ports inside the ephemeral range (39092, 39093) can otherwise be taken while the
    node is down: a client retrying 127.0.0.1:39092 may get source port 39092 and connect to
    itself, and the restarted broker then fails with "Address already in use". Needs root;
    the setting is per network namespace and is re-applied by every start. Best effort.
    """
    try:
        spec = RESERVED_PORTS.read_text().strip()
        missing = sorted(set(ports) - _expand_ports(spec))
        if missing:
            # Writing replaces the list, so keep what was there (compact range syntax).
            RESERVED_PORTS.write_text(",".join([spec] * bool(spec) + [str(p) for p in missing]))
        return True
    except (OSError, ValueError):
        return False


def tail(path: Path, lines: int = 40) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            text = f.read().decode(errors="replace")
    except OSError:
        return f"(no {path})"
    return "\n".join(text.splitlines()[-lines:])


@contextmanager
def locked(lock_file: Path) -> Iterator[None]:
    """Serialize up/down/start/stop across processes (two `up`s must not double-start)."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_file, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
