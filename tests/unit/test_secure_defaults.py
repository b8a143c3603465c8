"""Secure defaults: no start without a secret key, CSP, schema behind the viewer role, the
first admin can use /admin/, sign-in attempts rate-limited."""

from __future__ import annotations

import os
import subprocess

import pytest
from django.core.management import call_command

from tests.conftest import assert_error
from tests.unit.conftest import manage_check

pytestmark = pytest.mark.django_db


def _check(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "SECRET_KEY_FILE")}
    return manage_check({**clean, "DEV_SECRET_KEY_FILE": "/nonexistent/secret", **env})


def test_without_debug_and_secret_key_the_console_refuses_to_start():
    run = _check(DEBUG="false")
    assert run.returncode != 0
    assert "SECRET_KEY is not set" in run.stderr


def test_a_given_secret_key_or_debug_starts():
    assert _check(DEBUG="false", SECRET_KEY="k" * 50).returncode == 0
    assert _check(DEBUG="true").returncode == 0


@pytest.mark.parametrize("path", ["/api/v1/me", "/healthz", "/login/"])
def test_content_security_policy_forbids_inline_scripts(viewer_client, path):
    policy = viewer_client.get(path)["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy.split("style-src")[0]


def test_schema_and_docs_need_the_viewer_role(anon_client, norole_client, viewer_client):
    assert_error(anon_client.get("/api/v1/schema/"), 401)
    assert_error(norole_client.get("/api/v1/schema/"), 403)
    assert viewer_client.get("/api/v1/schema/").status_code == 200
    docs = viewer_client.get("/api/v1/docs/")
    assert docs.status_code == 200
    assert b"<script>" not in docs.content  # the split view: no inline script


def test_the_first_admin_can_use_django_admin(client, monkeypatch):
    monkeypatch.setenv("CONSOLE_ADMIN_USERNAME", "root-admin")
    monkeypatch.setenv("CONSOLE_ADMIN_PASSWORD", "a-long-password-123")
    call_command("ensureadmin")
    assert client.login(username="root-admin", password="a-long-password-123")
    assert client.get("/admin/auth/user/").status_code == 200


def test_sign_in_attempts_are_rate_limited(client, django_user_model):
    django_user_model.objects.create_user(username="mallory-target", password="right-password-1")
    for _ in range(10):
        response = client.post("/login/", {"username": "mallory-target", "password": "wrong"})
        assert response.status_code == 200  # the form again
    blocked = client.post("/login/", {"username": "mallory-target", "password": "right-password-1"})
    assert blocked.status_code == 429
    other = client.post("/login/", {"username": "someone-else", "password": "wrong"})
    assert other.status_code == 200  # only that user name from that address


def test_every_operation_documents_its_error_answers(viewer_client):
    schema = viewer_client.get("/api/v1/schema/?format=json").json()
    assert "Error" in schema["components"]["schemas"]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            documented = set(operation["responses"])
            assert {"401", "403"} <= documented, (method, path)
            if "{cluster}" in path:
                assert {"404", "502", "504"} <= documented, (method, path)
            if "requestBody" in operation:
                assert {"400", "413", "415"} <= documented, (method, path)
