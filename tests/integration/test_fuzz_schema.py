"""Schemathesis against the running console and the real dev stack, from the generated schema.

Reads as a viewer on every GET; the offset-reset planner as an operator, dry runs only (the
body's `dry_run` is forced true, so nothing changes). The cluster is always `local`, so the
generated topics, groups and parameters reach Kafka. Any 5xx, or an answer the schema does
not describe, fails. Bounded: 40 examples per read and 80 for the reset planner
(derandomized: the same examples every run; about a minute here).
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.live_server import start_console
from tests.stack import ROOT

pytestmark = [pytest.mark.integration]

RAW = json.loads((ROOT / "frontend" / "src" / "api" / "openapi.json").read_text())
schema = schemathesis.openapi.from_dict(RAW)
# Schema-valid inputs only: the cluster is pinned to `local` after generation, which would turn
# a deliberately invalid cluster name valid; invalid inputs have hand-written tests
# (tests/unit/test_request_bodies.py, test_kafka_bound_values.py, test_query_and_path_values.py,
# test_reset_request_bounds.py).
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE])
EXAMPLES = 40
# What must hold for every generated request: no 5xx, and the answer (status, content type,
# body) is one the schema describes. A schema-valid request may still be refused with a
# documented 400 (cross-field rules the schema cannot express), so "positive data accepted"
# is not among them.
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]


@pytest.fixture(scope="module")
def console(tmp_path_factory, stack):
    # The generated topic names never exist: each would be asked for again for the whole
    # grace (1.5 s) before its 404, which is the topic tests' business, not the fuzzer's.
    live = start_console(
        tmp_path_factory.mktemp("fuzz"), extra_env={"KAFKA_TOPIC_GRACE_SECONDS": "0.1"}
    )
    yield live
    live.stop()


@pytest.fixture(scope="module")
def tokens(console):
    users = console.tokens({f"fuzz-{role}": role for role in ("viewer", "operator")})
    return {role: users[f"fuzz-{role}"] for role in ("viewer", "operator")}


def _pin_cluster(case) -> None:
    if case.path_parameters and "cluster" in case.path_parameters:
        case.path_parameters["cluster"] = "local"


@schema.include(method="GET").parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_reads_as_viewer(case, console, tokens):
    _pin_cluster(case)
    case.call_and_validate(
        base_url=console.base,
        headers={"Authorization": f"Token {tokens['viewer']}"},
        checks=CHECKS,
    )


@schema.include(method="POST", path_regex=r"/offset-resets$").parametrize()
@settings(
    max_examples=EXAMPLES * 2,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_reset_previews_as_operator(case, console, tokens):
    _pin_cluster(case)
    if isinstance(case.body, dict):
        case.body["dry_run"] = True  # never an execution
    case.call_and_validate(
        base_url=console.base,
        headers={"Authorization": f"Token {tokens['operator']}"},
        checks=CHECKS,
    )
