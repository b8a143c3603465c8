"""A real console (daphne, own SQLite file) and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.live_server import ADMIN, LiveConsole, start_console, start_sampler, stop_process
from tests.spark_helpers import TEST_SPARK_CONF
from tests.stack import ROOT, procfile_command, wait_for

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
    token = ""

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

    # Whatever fails here, the worker is stopped: one left running would take the next test
    # run's jobs from the shared queue and never run them.
    try:
        token = live_console_server.token("e2e-spark-reaper", "operator")
        for job in active():
            call("POST", f"spark/jobs/{job['id']}/cancel")
        wait_for(lambda: not active(), timeout=60, what="every e2e Spark job to end", every=1)
    finally:
        stop_process(worker)


@pytest.fixture(scope="package", autouse=True)
def lag_sampler(tmp_path_factory, live_console_server):
    """The lag sampler, as `bin/run` starts it: pages get lag and metadata by push. Ends with
    the browser tests, so the live-lag integration tests start their own. It shares the
    console's database, where its alert rules are (the bare environment's is not migrated)."""
    workdir = tmp_path_factory.mktemp("e2e-sampler")
    sampler = start_sampler(live_console_server.env, workdir / "sampler.log", interval=1.0)
    yield sampler
    stop_process(sampler)


# Per module, not per session: Playwright's sync API runs an event loop in the main thread
# while it is open, and Django refuses database calls under one; in the parallel run a worker
# may take an integration module (database tests) after a browser module.
@pytest.fixture(scope="module")
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


def api_call(
    console: LiveConsole, token: str, method: str, path: str, body: dict | None = None
) -> tuple[int, object]:
    """A call to the e2e console's REST API with an API token: (status, its JSON answer, None
    for an empty one, or the text of an error answer)."""
    request = urllib.request.Request(
        f"{console.base}/api/v1/{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def api_create_topic(
    console: LiveConsole, token: str, topic: str, configs: dict[str, str]
) -> tuple[int, object]:
    """A topic of one partition, replication factor 1, created through the console's API
    (audited as the token's user): (status, answer) as `api_call` gives them."""
    body = {"name": topic, "partitions": 1, "replication_factor": 1, "configs": configs}
    return api_call(console, token, "POST", "clusters/local/topics", body)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
