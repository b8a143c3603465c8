"""The test command runs the integration tier in lanes (bin/test): the modules marked
`restarts_brokers` or `whole_cluster` alone first, then the `spark` modules beside the rest.
A module that stops a broker without its marker would stop it under the other lane's tests;
this keeps the markers true as tests are added."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted([*ROOT.glob("tests/integration/test_*.py"), *ROOT.glob("tests/e2e/test_*.py")])


def _markers(path: Path) -> set[str]:
    """The names of the module's `pytestmark` markers (`pytest.mark.<name>`)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            return {v.attr for v in values if isinstance(v, ast.Attribute)}
    return set()


def test_the_tiers_modules_are_found():
    assert len(MODULES) > 40


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_module_that_stops_a_broker_runs_alone(path: Path):
    if "stop-broker" in path.read_text():
        assert "restarts_brokers" in _markers(path), f"{path.name}: mark it restarts_brokers"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_module_is_in_a_tier_and_no_spark_module_runs_alone(path: Path):
    markers = _markers(path)
    assert markers & {"integration", "e2e"}, path.name
    # A Spark module marked to run alone would run in the first phase, beside nothing: allowed,
    # but then it is no longer in the Spark lane, which is what the mark says.
    assert not ({"spark"} <= markers and markers & {"restarts_brokers", "whole_cluster"})


def test_bin_test_runs_the_lanes_by_these_markers():
    text = (ROOT / "bin" / "test").read_text()
    assert 'alone="restarts_brokers or whole_cluster"' in text
    assert '-m "(integration or e2e) and ($alone)"' in text
    assert '-m "(integration or e2e) and spark and not ($alone)"' in text
    assert '-m "(integration or e2e) and not spark and not ($alone)"' in text
