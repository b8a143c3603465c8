"""A real console process (daphne on a free port, its own SQLite file) for tests that need the
web server itself: the browser tests, and the resilience tests that watch it stay alive."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.stack import ROOT

ADMIN = ("e2e-admin", "e2e-password-123")


# A database migrated once per test run, with the admin user, copied for each console:
# migrate and ensureadmin cost about 8 s of CPU per console on a small machine.
_template_db: Path | None = None


def _fresh_database(db: Path, env: dict[str, str]) -> None:
    global _template_db
    if _template_db is None:
        template = Path(tempfile.mkdtemp(prefix="console-db-")) / "template.sqlite3"
        template_env = {**env, "DATABASE_URL": f"sqlite:///{template}"}
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run(
            [*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=template_env, check=True
        )
        subprocess.run(
            [*manage, "ensureadmin"], cwd=ROOT, env=template_env, check=True, capture_output=True
        )
        _template_db = template
    shutil.copyfile(_template_db, db)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveConsole:
    base: str
    process: subprocess.Popen
    env: dict[str, str]
    log_path: Path

    def token(self, username: str, role: str) -> str:
        """An API token of a user with `role`, created in this console's database."""
        out = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "apitoken", username, "--role", role],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip()

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_console(workdir: Path) -> LiveConsole:
    """A fresh database (migrated, with the admin user), daphne on it, ready on /healthz."""
    db = workdir / "console.sqlite3"
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "CONSOLE_ADMIN_USERNAME": ADMIN[0],
        "CONSOLE_ADMIN_PASSWORD": ADMIN[1],
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port}",
        # Consoles of one test run share the dev stack's Redis, where the write limit counts
        # per user id: ids repeat across their databases. The limit has its own unit tests.
        "WRITE_RATE_LIMIT": "100000/min",
    }
    _fresh_database(db, env)
    log_path = workdir / "daphne.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "project.serve", "-b", "127.0.0.1", "-p", str(port)]
        + ["project.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log_path.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2)
            return LiveConsole(base, server, env, log_path)
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"console did not start; see {log_path}") from None
            time.sleep(0.3)


def start_sampler(
    env: dict[str, str], log_path: Path, interval: float = 1.0, cluster: str = "local"
) -> subprocess.Popen:
    """The lag sampler (`manage.py lagsampler`) of one cluster, in its own process group."""
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "lagsampler", "--cluster", cluster]
        + ["--interval", str(interval)],
        cwd=ROOT,
        env=env,
        stdout=log_path.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_process(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Signal a process started in its own session (and its children); wait for it."""
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
