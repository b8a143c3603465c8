"""Shared fixtures: personas for every role, and API clients that act as them."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from console.roles import grant_role
from tests.stack import status


def _client_for(django_user_model, username: str, role: str | None) -> APIClient:
    user = django_user_model.objects.create_user(username=username, password="pw-" + username)
    if role:
        grant_role(user, role)
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    client.user = user
    return client


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def viewer_client(db, django_user_model) -> APIClient:
    return _client_for(django_user_model, "vera-viewer", "viewer")


@pytest.fixture
def operator_client(db, django_user_model) -> APIClient:
    return _client_for(django_user_model, "otto-operator", "operator")


@pytest.fixture
def admin_client_api(db, django_user_model) -> APIClient:
    return _client_for(django_user_model, "ada-admin", "admin")


@pytest.fixture
def norole_client(db, django_user_model) -> APIClient:
    return _client_for(django_user_model, "nobody", None)


def assert_error(response, status: int, code: str | None = None) -> dict:
    """The API's one error shape, with the expected status and code; returns the error."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["message"], str) and error["message"], error
    assert "Traceback" not in error["message"]
    if code:
        assert error["code"] == code, error
    return error


@pytest.fixture(scope="session")
def stack():
    """The running dev stack; the test command starts it (`manage.py devstack up`)."""
    info = status()
    down = [b["id"] for b in info["brokers"] if not b["running"]]
    assert not down, f"brokers {down} are not running: run `python manage.py devstack up` first"
    return info


@pytest.fixture(scope="session")
def demo_topics(stack):
    """The demo topics (my-failsafe-topic: 13 partitions, RF 3, and the others)."""
    from console import kafka
    from console.demo.traffic import DEMO_TOPICS, ensure_topics

    ensure_topics(stack["bootstrap_servers"])
    # A committed offset makes Kafka create __consumer_offsets, so internal topics exist.
    kafka.commit_offsets(stack["bootstrap_servers"], "it-bootstrap", {("truck-gps", 0): 0})
    return {name: (partitions, rf) for name, partitions, rf, _ in DEMO_TOPICS}
