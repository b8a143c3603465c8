"""A real console (daphne, own SQLite file) and headless Debian Chromium driven by Playwright."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.live_server import ADMIN, start_console, start_sampler, stop_process
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
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(scope="session")
def live_console(tmp_path_factory, stack):
    """The console served by daphne on a free port, with its own database and admin user."""
    console = start_console(tmp_path_factory.mktemp("e2e"))
    yield console.base
    console.stop()


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
