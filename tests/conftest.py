"""Shared fixtures: personas for every role, and API clients that act as them."""

from __future__ import annotations

import os

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from console.roles import grant_role
from tests.stack import cluster_client, status, wait_for


@pytest.hookimpl(tryfirst=True)  # before pytest-django's own (tryfirst too, registered first)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules that restart brokers run first, while the dev stack holds few partitions.

    A broker's stop and start grow with the partitions it holds (it loads and closes every
    log: ~5 s for 1,900 of them), and every test adds topics; the failover test (then of 20
    rounds) took twice as long at the end of the run as at its start. A stable sort keeps each
    module's tests, and so its module-scoped fixtures, together and in order; pytest-django's stable
    sort by database use runs after it, so "first" is first within each of its groups. (Across
    them, browser tests moved before database tests broke those: Playwright's sync API leaves
    an event loop in the main thread, and Django refuses database calls under one.)
    """
    items.sort(key=lambda item: item.get_closest_marker("restarts_brokers") is None)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    # Django's default hasher costs ~0.25 s a user by design; the personas need no such cost
    # (consoles started as processes keep the real hashers).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _local_memory_cache(settings) -> None:
    # The console's cache is Redis (shared by its processes); unit tests must not need one.
    # A fresh, empty in-memory cache per test (sign-in failure counts included); tests that
    # want the real one build it from settings.REDIS_URL (tests/unit/test_signin_limit.py).
    from django.core.cache import cache

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "tests",
        }
    }
    cache.clear()


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
    from console import kafka
    from console.kafka import dev

    client = cluster_client()

    def commit_once() -> bool:
        # The first commit on a new cluster makes Kafka create __consumer_offsets; until its
        # partitions have leaders the group coordinator is not available. Tests that commit
        # offsets (and expect internal topics) start after this.
        try:
            dev.create_topics(client, [("it-bootstrap", 1, 3, {})])
            errors = client.commit_offsets("it-bootstrap", {("it-bootstrap", 0): 0})
        except kafka.KafkaAdapterError:
            return False
        return not any(errors.values())

    wait_for(commit_once, timeout=90, what="the first offset commit (__consumer_offsets)")
    # The Redis of this run: REDIS_URL when set (what the settings and the consoles started
    # here use too), else the dev stack's.
    return {**info, "redis_url": os.environ.get("REDIS_URL", info["redis_url"])}


@pytest.fixture(scope="session")
def demo_topics(stack):
    """The demo topics (my-failsafe-topic: 13 partitions, RF 3, and the others)."""
    from console.clusters import get_cluster
    from devtools.demo.traffic import DEMO_TOPICS, ensure_topics

    ensure_topics(get_cluster("local"))
    return {name: (partitions, rf) for name, partitions, rf, _ in DEMO_TOPICS}
