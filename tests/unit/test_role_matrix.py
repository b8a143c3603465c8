"""Every operation of the schema, as every persona, against the table in docs/roles.md.

Requests name a cluster and a reset that do not exist, so an allowed request ends in a 400 or
404 before any Kafka call or change: only the role check is exercised.
"""

from __future__ import annotations

import re

import pytest

from console.roles import ROLES
from tests.stack import ROOT

pytestmark = pytest.mark.django_db

ROW = re.compile(r"^\| (GET|POST|PATCH|PUT|DELETE) \| `([^`]+)` \| (\w+) \|", re.M)


def documented() -> dict[tuple[str, str], str]:
    text = (ROOT / "docs" / "roles.md").read_text()
    return {(m[1].lower(), "/api/v1" + m[2]): m[3] for m in ROW.finditer(text)}


def test_every_schema_operation_is_in_the_docs_table(viewer_client):
    schema = viewer_client.get("/api/v1/schema/?format=json").json()
    operations = {(method, path) for path, ops in schema["paths"].items() for method in ops}
    assert operations == set(documented())
    # "none": any signed-in user (GET /me).
    assert set(documented().values()) <= {*ROLES, "none"}


def _url(path: str) -> str:
    return (
        path.replace("{cluster}", "no-such-cluster")
        .replace("{topic}", "t")
        .replace("{broker}", "1")
        .replace("{group}", "g")
        .replace("{reset_id}", "999999")
        .replace("{job_id}", "999999")
        .replace("{reassignment_id}", "999999")
        .replace("{rule_id}", "999999")
        .replace("{schedule_id}", "999999")
        .replace("{model_id}", "999999")
        .replace("{equipment_id}", "eq-none")
        .replace("{user}", "alice")
        .replace("{user_id}", "999999")
        .replace("{token_id}", "999999")
        .replace("{approval_id}", "999999")
    )


PERSONAS = ["anon_client", "norole_client", "viewer_client", "operator_client", "admin_client_api"]


@pytest.fixture
def no_cluster(settings, no_kafka):
    # GET /clusters asks every registered cluster: with none registered (and Kafka unplugged)
    # no request here reaches Kafka.
    settings.KAFKA_CLUSTERS = {}


@pytest.mark.parametrize("persona", PERSONAS, ids=["anon", "norole", "viewer", "operator", "admin"])
@pytest.mark.parametrize("operation", sorted(documented()), ids=lambda op: f"{op[0]} {op[1]}")
def test_role_matrix(request, no_cluster, operation, persona):
    method, path = operation
    least = documented()[operation]
    client = request.getfixturevalue(persona)
    response = client.generic(method.upper(), _url(path), b"{}", "application/json")
    held = {"viewer_client": "viewer", "operator_client": "operator"}.get(persona)
    held = "admin" if persona == "admin_client_api" else held
    if persona == "anon_client":
        expected = {401}
    elif least == "none":
        expected = {200}
    elif held is None or ROLES.index(held) < ROLES.index(least):
        expected = {403}
    else:
        expected = {200, 400, 404}
    assert response.status_code in expected, (persona, method, path, response.content[:200])
    if response.status_code != 200:
        assert set(response.json()) == {"error"}
