"""A real console (daphne, own SQLite file) and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.live_server import ADMIN, start_console, start_sampler, stop_process
from tests.spark_helpers import TEST_SPARK_CONF
from tests.stack import ROOT, wait_for

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
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def live_console_server(tmp_path_factory, stack):
    """The console served by daphne on a free port, with its own database and admin user."""
    console = start_console(tmp_path_factory.mktemp("e2e"))
    yield console
    console.stop()


@pytest.fixture(scope="session")
def live_console(live_console_server) -> str:
    """The base URL of the e2e console."""
    return live_console_server.base


def procfile_command(name: str) -> list[str]:
    """A Procfile line as arguments (its program made absolute)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            cmd = shlex.split(line.split(":", 1)[1])
            return [str(ROOT / cmd[0]), *cmd[1:]]
    raise AssertionError(f"Procfile has no {name} line")


@pytest.fixture(scope="module")
def spark_worker(live_console_server, tmp_path_factory):
    """The Procfile's Celery worker for the e2e console (its env: same database and broker),
    running Spark jobs with SPARK_MASTER=local[2]. Before it stops, every job still active is
    cancelled and awaited: spark-submit runs in a process group of its own, which stopping the
    worker would leave behind."""
    workdir = tmp_path_factory.mktemp("e2e-spark")
    env = {
        **live_console_server.env,
        "SPARK_MASTER": "local[2]",
        "SPARK_WORK_DIR": str(workdir / "work"),
        "SPARK_OUTPUT_DIR": str(workdir / "output"),
        "SPARK_CONF": TEST_SPARK_CONF,
    }
    log_path = workdir / "worker.log"
    worker = subprocess.Popen(
        procfile_command("worker"),
        cwd=ROOT,
        env=env,
        stdout=log_path.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    yield worker
    token = live_console_server.token("e2e-spark-reaper", "operator")

    def call(method: str, path: str) -> object:
        request = urllib.request.Request(
            f"{live_console_server.base}/api/v1/{path}",
            method=method,
            headers={"Authorization": f"Token {token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError:
            return None

    def active() -> list[dict]:
        jobs = call("GET", "spark/jobs?limit=1000") or []
        return [j for j in jobs if j["state"] in ("queued", "submitted", "running")]

    try:
        for job in active():
            call("POST", f"spark/jobs/{job['id']}/cancel")
        wait_for(lambda: not active(), timeout=60, what="every e2e Spark job to end", every=1)
    finally:
        stop_process(worker)


@pytest.fixture(scope="package", autouse=True)
def lag_sampler(tmp_path_factory, stack):
    """The lag sampler, as `bin/run` starts it: pages get lag and metadata by push. Ends with
    the browser tests, so the live-lag integration tests start their own."""
    workdir = tmp_path_factory.mktemp("e2e-sampler")
    sampler = start_sampler(dict(os.environ), workdir / "sampler.log", interval=1.0)
    yield sampler
    stop_process(sampler)


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
