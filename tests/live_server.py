"""A real console process (daphne on a free port, its own database) for tests that need the
web server itself: the browser tests, and the resilience tests that watch it stay alive.

The database is of the kind DATABASE_URL names: with a PostgreSQL URL (the full test command
sets the dev stack's), each console gets a database of its own on that server, created from a
migrated template; otherwise a SQLite file in the console's work dir."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.stack import ROOT

ADMIN = ("e2e-admin", "e2e-password-123")


# A database migrated once per test run, with the admin user, copied for each console:
# migrate and ensureadmin cost about 8 s of CPU per console on a small machine.
_template_db: Path | None = None
_template_pg: str | None = None
_consoles = itertools.count(1)
# Every database the live consoles of this process make, dropped at its next run; an xdist
# worker's own (`gw0`, ...), so that workers running side by side never drop each other's.
PG_PREFIX = f"console_live_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_"


_TOKENS_SCRIPT = """
import io, json, sys
import django
django.setup()
from django.core.management import call_command
tokens = {}
for username, role in json.loads(sys.argv[1]).items():
    out = io.StringIO()
    call_command("apitoken", username, role=role, stdout=out)
    tokens[username] = out.getvalue().strip()
print(json.dumps(tokens))
"""


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://"))


def _migrate(env: dict[str, str], url: str) -> None:
    template_env = {**env, "DATABASE_URL": url}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=template_env, check=True)
    subprocess.run(
        [*manage, "ensureadmin"], cwd=ROOT, env=template_env, check=True, capture_output=True
    )


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _pg_admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(_with_database(url, "postgres"), autocommit=True)


def _fresh_database(workdir: Path, env: dict[str, str]) -> str:
    """The DATABASE_URL of a new, migrated database with the admin user."""
    global _template_db, _template_pg
    server = env.get("DATABASE_URL", "")
    if is_postgres(server):
        if _template_pg is None:
            template = f"{PG_PREFIX}template"
            with _pg_admin(server) as admin:
                stale = admin.execute(
                    "SELECT datname FROM pg_database WHERE starts_with(datname, %s)", (PG_PREFIX,)
                ).fetchall()
                for (name,) in stale:
                    admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{template}"')
            _migrate(env, _with_database(server, template))
            _template_pg = template
        name = f"{PG_PREFIX}{os.getpid()}_{next(_consoles)}"
        with _pg_admin(server) as admin:
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template_pg}"')
        return _with_database(server, name)
    if _template_db is None:
        template = Path(tempfile.mkdtemp(prefix="console-db-")) / "template.sqlite3"
        _migrate(env, f"sqlite:///{template}")
        _template_db = template
    db = workdir / "console.sqlite3"
    shutil.copyfile(_template_db, db)
    return f"sqlite:///{db}"


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
        return self.tokens({username: role})[username]

    def tokens(self, roles: dict[str, str]) -> dict[str, str]:
        """API tokens of several users ({username: role}), made by `manage.py apitoken` in one
        process (each process costs seconds of Django start-up)."""
        out = subprocess.run(
            [sys.executable, "-c", _TOKENS_SCRIPT, json.dumps(roles)],
            cwd=ROOT,
            env={**self.env, "DJANGO_SETTINGS_MODULE": "project.settings"},
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    def count_rows(self, table: str) -> int:
        """Rows in one of this console's tables, read from its database directly."""
        url = self.env["DATABASE_URL"]
        if is_postgres(url):
            import psycopg

            with psycopg.connect(url) as db:
                row = db.execute(f"SELECT count(*) FROM {table}").fetchone()
        else:
            with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
                row = db.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert row is not None
        return int(row[0])

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start_console(
    workdir: Path, database_url: str | None = None, extra_env: dict[str, str] | None = None
) -> LiveConsole:
    """A fresh database (migrated, with the admin user), daphne on it, ready on /healthz.
    With `database_url`, on that database instead (a second web process of one console).
    `extra_env` is added to its environment (e.g. another cluster registry, KAFKA_CLUSTERS)."""
    port = _free_port()
    env = {
        **os.environ,
        "CONSOLE_ADMIN_USERNAME": ADMIN[0],
        "CONSOLE_ADMIN_PASSWORD": ADMIN[1],
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port}",
        # Consoles of one test run share the dev stack's Redis, where the write limit counts
        # per user id: ids repeat across their databases. The limit has its own unit tests.
        "WRITE_RATE_LIMIT": "100000/min",
        **(extra_env or {}),
    }
    env["DATABASE_URL"] = database_url or _fresh_database(workdir, env)
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


def process_env(workdir: Path, extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a console's other processes (a sampler, a worker) without its web
    server: this run's, with `extra_env`, on a fresh database of their own."""
    env = {**os.environ, **(extra_env or {})}
    env["DATABASE_URL"] = _fresh_database(workdir, env)
    return env


def start_sampler(
    env: dict[str, str], log_path: Path, interval: float = 1.0, cluster: str | None = "local"
) -> subprocess.Popen:
    """The lag sampler (`manage.py lagsampler`) of one cluster (`cluster=None`: of every
    cluster in its registry), in its own process group."""
    only = [] if cluster is None else ["--cluster", cluster]
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "lagsampler", *only]
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


def password_sign_in(
    base: str, username: str, password: str, path: str = "/login/", form: str = "/login/"
) -> Any:
    """A password sign-in at `path` with a plain HTTP client, the CSRF token taken from the
    sign-in form at `form` (Django admin's, `/admin/login/`, is there even when the console's
    page has no password form). The answer (not followed), its `.session` the client's."""
    import requests

    session = requests.Session()
    page = session.get(f"{base}{form}", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, f"no CSRF token on {form}"
    answer = session.post(
        f"{base}{path}",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
        headers={"Referer": f"{base}{path}"},
        allow_redirects=False,
        timeout=10,
    )
    answer.session = session  # type: ignore[attr-defined]
    return answer
