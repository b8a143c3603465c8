"""Fixtures for the unit tier only."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType

import pytest

from sparkjobs.job_types import JOBS_DIR as PLATFORM_JOBS_DIR
from tests.stack import ROOT


def manage_check(env: Mapping[str, str]) -> subprocess.CompletedProcess:
    """`manage.py check` in a fresh process with exactly `env`: settings are read at start-up,
    so a setting that must stop the console is tested by starting one."""
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check"],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def module_from_file(path: Path) -> ModuleType:
    """A job script loaded from its file (the scripts are not a package), named after it; the
    siblings it imports (as the driver does: its directory is on its path) load the same way."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


@pytest.fixture
def driver_script(monkeypatch) -> Callable[[Path], ModuleType]:
    """Loads a job script as the Spark driver runs it: its own directory and sparkjobs/jobs
    (common.py and job_errors.py, which spark-submit ships with --py-files) importable."""

    def load(path: Path) -> ModuleType:
        monkeypatch.syspath_prepend(str(PLATFORM_JOBS_DIR))
        monkeypatch.syspath_prepend(str(path.parent))
        return module_from_file(path)

    return load


@pytest.fixture
def no_kafka(monkeypatch):
    """Kafka unplugged: a request that gets as far as asking Kafka (a client, or the metadata
    snapshot) fails loudly instead of waiting for a timeout. For tests of input refused before
    any Kafka call."""
    from console import kafka
    from console.metadata import cache

    def unplugged(*args, **kwargs):
        raise AssertionError("bad input reached Kafka")

    monkeypatch.setattr(kafka, "for_cluster", unplugged)
    monkeypatch.setattr(cache, "snapshot", unplugged)
