"""SCRAM users from the console, on the dev stack's SASL_SSL listener: a user created in the
console signs in with a real client, a rotated password replaces the old one, the list equals
kafka-configs.sh --describe, and after the delete the user is refused. The password appears in
no answer and no audit entry."""

from __future__ import annotations

import dataclasses
import json
import re
import uuid

import pytest

from console.audit import AuditEntry
from console.clusters import Secret, get_cluster
from console.kafka import KafkaAdapterError
from console.kafka.client import ClusterClient
from tests.stack import kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/api/v1/clusters/local-secure/scram-users"


def _signs_in(user: str, password: str) -> bool:
    """Whether `user` can describe the cluster on the SASL_SSL listener: the console's own
    client, with this user's credentials instead of the console's."""
    cfg = get_cluster("local-secure")
    as_user = dataclasses.replace(
        cfg,
        name=f"as-{user}",
        security=dataclasses.replace(
            cfg.security, sasl_username=user, sasl_password=Secret(inline=password)
        ),
    )
    client = ClusterClient(as_user, timeout=6)
    try:
        return bool(client.describe_cluster().brokers)
    except KafkaAdapterError:  # refused: authentication failed
        return False
    finally:
        client.close()


def _settles(check, what: str) -> None:
    """Kafka applies a credential change on each broker from the metadata log, a moment after
    the controller answered it: what another broker says is checked until it agrees."""
    wait_for(lambda: check() or None, timeout=15, what=what, every=0.3)


def _cli_credentials(user: str) -> dict[str, int]:
    out = kafka_tool("kafka-configs", "--describe", "--entity-type", "users", "--entity-name", user)
    assert out.returncode == 0, out.stdout + out.stderr
    return {m: int(n) for m, n in re.findall(r"(SCRAM-SHA-\d+)=iterations=(\d+)", out.stdout)}


def test_a_user_made_in_the_console_signs_in_and_is_refused_after_its_delete(admin_client_api):
    user, password = f"scram-{uuid.uuid4().hex[:8]}", f"pw {uuid.uuid4().hex}"
    url = f"{URL}/{user}"
    made = admin_client_api.put(
        url, {"mechanism": "SCRAM-SHA-512", "password": password, "iterations": 8192}, format="json"
    )
    assert made.status_code == 200, made.content
    assert made.json() == {
        "user": user,
        "credentials": [{"mechanism": "SCRAM-SHA-512", "iterations": 8192}],
    }
    _settles(lambda: _cli_credentials(user) == {"SCRAM-SHA-512": 8192}, "kafka-configs to list it")
    listed = admin_client_api.get(URL).json()
    assert {"user": user, "credentials": [{"mechanism": "SCRAM-SHA-512", "iterations": 8192}]} in (
        listed
    )
    _settles(lambda: _signs_in(user, password), "the new user to sign in")

    # Rotated: the new password signs in, the old one no longer does.
    rotated = f"new {uuid.uuid4().hex}"
    again = admin_client_api.put(
        url, {"mechanism": "SCRAM-SHA-512", "password": rotated}, format="json"
    )
    assert again.status_code == 200, again.content
    assert again.json()["credentials"] == [{"mechanism": "SCRAM-SHA-512", "iterations": 4096}]
    _settles(
        lambda: _signs_in(user, rotated) and not _signs_in(user, password),
        "the rotated password to replace the old one",
    )

    gone = admin_client_api.delete(f"{url}?mechanism=SCRAM-SHA-512")
    assert gone.status_code == 200, gone.content
    assert gone.json() == {"user": user, "credentials": []}
    _settles(lambda: _cli_credentials(user) == {}, "kafka-configs to list none")
    _settles(lambda: not _signs_in(user, rotated), "the deleted user to be refused")
    missing = admin_client_api.delete(f"{url}?mechanism=SCRAM-SHA-512")
    assert missing.status_code == 404, missing.content

    entries = AuditEntry.objects.filter(target=user).order_by("id")
    assert [(e.action, e.outcome) for e in entries] == [
        ("scram.upsert", "ok"),
        ("scram.upsert", "ok"),
        ("scram.delete", "ok"),
        ("scram.delete", "refused"),
    ]
    stored = json.dumps([[e.request, e.details] for e in entries])
    for secret in (password, rotated):
        assert secret not in stored and secret not in made.content.decode()


@pytest.mark.parametrize(
    "body, field",
    [
        pytest.param({"mechanism": "SCRAM-SHA-1", "password": "x"}, "mechanism", id="mechanism"),
        pytest.param(
            {"mechanism": "SCRAM-SHA-256", "password": "x", "iterations": 4095},
            "iterations",
            id="too-few-iterations",
        ),
        pytest.param(
            {"mechanism": "SCRAM-SHA-256", "password": "x", "iterations": 16385},
            "iterations",
            id="too-many-iterations",
        ),
        pytest.param({"mechanism": "SCRAM-SHA-256", "password": ""}, "password", id="no-password"),
    ],
)
def test_a_credential_kafka_would_refuse_is_a_400_naming_the_field(admin_client_api, body, field):
    user = f"scram-bad-{uuid.uuid4().hex[:8]}"
    answer = admin_client_api.put(f"{URL}/{user}", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["details"]["field"] == field
    assert _cli_credentials(user) == {}
