"""The package rules of docs/architecture.md, checked on the import statements themselves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("project", "console", *settings.CONSOLE_APPS)


def _imports(path: Path) -> set[str]:
    """Module names imported anywhere in a file (also inside functions); `from a import b`
    counts as `a` and as `a.b` (b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _files(*packages: str) -> list[Path]:
    return sorted(p for pkg in packages for p in (ROOT / pkg).rglob("*.py"))


def _offenders(files: list[Path], forbidden: str) -> list[str]:
    return [
        str(f.relative_to(ROOT))
        for f in files
        if any(m == forbidden or m.startswith(forbidden + ".") for m in _imports(f))
    ]


def test_the_product_never_imports_the_dev_tooling():
    assert _offenders(_files(*PRODUCT), "devtools") == []


@pytest.mark.parametrize("package", [*PRODUCT, "devtools"])
def test_only_console_kafka_imports_confluent_kafka(package):
    files = [f for f in _files(package) if "console/kafka/" not in f.as_posix()]
    assert _offenders(files, "confluent_kafka") == []


@pytest.mark.parametrize("other", [*settings.CONSOLE_APPS, "project"])
def test_the_core_imports_no_app_and_not_the_project(other):
    """`console` is the library the apps build on; the project package wires them together."""
    assert _offenders(_files("console"), other) == []


@pytest.mark.parametrize("app", settings.CONSOLE_APPS)
def test_no_app_imports_the_project(app):
    assert _offenders(_files(app), "project") == []


def test_groups_does_not_import_topics():
    assert _offenders(_files("groups"), "topics") == []


@pytest.mark.parametrize(
    "package, other", [("groups/resets", "groups.lag"), ("groups/lag", "groups.resets")]
)
def test_the_offset_resets_and_the_lag_sampler_do_not_import_each_other(package, other):
    """Two subsystems of one app: what both need is in groups.partitions, at the app level."""
    assert _offenders(_files(package), other) == []


def test_the_spark_platform_never_imports_maintenance():
    """Predictive maintenance builds on the Spark job platform and registers its job types
    with it (maintenance/apps.py); the platform knows nothing of it, not even lazily."""
    assert _offenders(_files("sparkjobs"), "maintenance") == []


@pytest.mark.parametrize("app", [a for a in settings.CONSOLE_APPS if a != "alerts"])
def test_no_app_knows_the_alerts(app):
    """Alerts listen to the sampler's passes through the core (console/lag_hooks.py): the
    sampler, and every other app, knows nothing of them."""
    assert _offenders(_files(app), "alerts") == []


@pytest.mark.parametrize("other", [a for a in settings.CONSOLE_APPS if a != "alerts"])
def test_the_alerts_need_only_the_core(other):
    """They read the evaluations handed to them, not the lag sampler's code."""
    assert _offenders(_files("alerts"), other) == []


def test_the_product_does_not_use_the_dev_helpers():
    files = [f for f in _files(*PRODUCT) if "console/kafka/" not in f.as_posix()]
    assert _offenders(files, "console.kafka.dev") == []
    assert "from console.kafka import dev" not in "".join(f.read_text() for f in files)


def test_the_rules_can_fail():
    """The checker sees an import inside a function, so a lazy import cannot slip through,
    and a module imported by name from its package."""
    assert "devtools.devstack.config" in _imports(ROOT / "tests/unit/test_layering_sample.txt")
    assert "groups.lag" in _imports(ROOT / "tests/unit/test_layering_sample.txt")
