"""A real console (daphne, own SQLite file) and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.stack import ROOT

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Flags that keep Chromium quiet on a machine with no outside network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ADMIN = ("e2e-admin", "e2e-password-123")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_console(tmp_path_factory, stack):
    """The console served by daphne on a free port, with its own database and admin user."""
    db = tmp_path_factory.mktemp("e2e") / "console.sqlite3"
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "CONSOLE_ADMIN_USERNAME": ADMIN[0],
        "CONSOLE_ADMIN_PASSWORD": ADMIN[1],
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port}",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "ensureadmin"], cwd=ROOT, env=env, check=True, capture_output=True)
    log = (db.parent / "daphne.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "console.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"console did not start; see {log.name}") from None
            time.sleep(0.3)
    yield base
    server.terminate()
    server.wait(timeout=20)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: bin/setup installs Debian's chromium"
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield instance
        instance.close()


@pytest.fixture
def page(browser, live_console):
    context = browser.new_context(base_url=live_console, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def login(page, username: str = ADMIN[0], password: str = ADMIN[1]) -> None:
    page.goto("/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=current-user]")


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
