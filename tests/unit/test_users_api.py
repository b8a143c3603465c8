"""The users API: local users with roles on every cluster and on single ones, enable and
disable, and named API tokens with an expiry (shown once, stored hashed, revocable)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from console.models import ApiToken, AuditEntry

pytestmark = pytest.mark.django_db
PASSWORD = "a long enough passphrase"


def _with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _make(admin, **body):
    answer = admin.post("/api/v1/users", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_user_made_with_roles_per_cluster_signs_in_with_them(admin_client_api):
    made = _make(
        admin_client_api,
        username="sam",
        password=PASSWORD,
        role="viewer",
        cluster_roles={"local": "operator"},
    )
    assert made["role"] == "viewer" and made["cluster_roles"] == {"local": "operator"}
    assert made["has_password"] and made["is_active"] and made["tokens"] == 0
    client = APIClient()
    assert client.login(username="sam", password=PASSWORD)
    me = client.get("/api/v1/me").json()
    assert me["cluster_roles"] == {"local": "operator", "local-secure": "viewer"}
    # The password is in no answer and no audit entry.
    entry = AuditEntry.objects.get(action="user.create")
    assert PASSWORD not in json.dumps([entry.request, entry.details])
    assert "password" not in made


def test_a_user_without_a_password_uses_tokens_only(admin_client_api):
    made = _make(admin_client_api, username="robot", cluster_roles={"local": "viewer"})
    assert not made["has_password"] and made["role"] is None
    assert not APIClient().login(username="robot", password="")


@pytest.mark.parametrize(
    "body, field, status",
    [
        ({"username": "x", "cluster_roles": {"nowhere": "viewer"}}, "cluster_roles.nowhere", 400),
        ({"username": "x", "password": "short"}, "password", 400),
        ({"username": "x y"}, "username", 400),
        ({"username": "x", "role": "root"}, "role", 400),
        ({"username": "x", "cluster_roles": {"local": "owner"}}, "cluster_roles.local", 400),
    ],
)  # fmt: skip
def test_a_user_that_cannot_be_made_is_a_400_naming_the_field(
    admin_client_api, body, field, status
):
    answer = admin_client_api.post("/api/v1/users", body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["details"]["field"].startswith(field)
    assert not AuditEntry.objects.filter(action="user.create", outcome="ok").exists()


def test_roles_change_and_a_disabled_user_is_refused(admin_client_api):
    made = _make(admin_client_api, username="ops", role="operator")
    url = f"/api/v1/users/{made['id']}"
    key = admin_client_api.post(f"{url}/tokens", {"name": "ci"}, format="json").json()["key"]
    assert _with_key(key).get("/api/v1/me").json()["role"] == "operator"
    changed = admin_client_api.patch(
        url, {"role": None, "cluster_roles": {"local": "admin"}}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["role"] is None and changed.json()["cluster_roles"] == {"local": "admin"}
    assert _with_key(key).get("/api/v1/me").json()["cluster_roles"] == {"local": "admin"}
    back = admin_client_api.patch(url, {"cluster_roles": {"local": None}}, format="json")
    assert back.json()["cluster_roles"] == {}
    entry = AuditEntry.objects.filter(action="user.update").latest("id")
    assert entry.details["before"]["cluster_roles"] == {"local": "admin"}
    assert entry.details["after"]["cluster_roles"] == {}

    assert admin_client_api.patch(url, {"is_active": False}, format="json").status_code == 200
    assert _with_key(key).get("/api/v1/me").status_code == 401
    assert admin_client_api.patch(url, {"is_active": True}, format="json").status_code == 200
    # Active, but no role left: /me says so, everything else is refused.
    assert _with_key(key).get("/api/v1/me").json()["role"] is None
    assert _with_key(key).get("/api/v1/clusters").status_code == 403


def test_the_last_admin_cannot_be_removed_or_disable_itself(admin_client_api):
    me = admin_client_api.user
    url = f"/api/v1/users/{me.pk}"
    assert admin_client_api.patch(url, {"is_active": False}, format="json").status_code == 400
    lost = admin_client_api.patch(url, {"role": "operator"}, format="json")
    assert lost.status_code == 409 and lost.json()["error"]["code"] == "last_admin"
    me.refresh_from_db()
    assert me.groups.filter(name="admin").exists()  # nothing changed
    # With a second admin, the first may step down.
    _make(admin_client_api, username="second", password=PASSWORD, role="admin")
    assert admin_client_api.patch(url, {"role": "operator"}, format="json").status_code == 200


def test_a_token_is_shown_once_stored_hashed_expires_and_is_revocable(
    admin_client_api, viewer_client
):
    user = viewer_client.user
    url = f"/api/v1/users/{user.pk}/tokens"
    made = admin_client_api.post(url, {"name": "dashboards", "expires_in_days": 7}, format="json")
    assert made.status_code == 201, made.content
    key = made.json()["key"]
    assert made.json()["prefix"] == key[:8] and len(key) >= 40
    stored = ApiToken.objects.get(pk=made.json()["id"])
    assert key not in (stored.key_hash, stored.prefix + "x") and stored.key_hash != key
    listed = admin_client_api.get(url).json()
    assert [t["name"] for t in listed] == ["dashboards"] and "key" not in listed[0]
    assert key not in json.dumps(list(AuditEntry.objects.values("request", "details")), default=str)

    assert _with_key(key).get("/api/v1/me").json()["username"] == user.username
    assert admin_client_api.get(url).json()[0]["last_used_at"] is not None
    again = admin_client_api.post(url, {"name": "dashboards"}, format="json")
    assert again.status_code == 400 and again.json()["error"]["details"]["field"] == "name"

    ApiToken.objects.filter(pk=stored.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = _with_key(key).get("/api/v1/me")
    assert expired.status_code == 401 and "expired" in expired.json()["error"]["message"]
    assert admin_client_api.get(url).json()[0]["expired"] is True

    fresh = admin_client_api.post(url, {"name": "fresh"}, format="json").json()
    assert _with_key(fresh["key"]).get("/api/v1/me").status_code == 200
    gone = admin_client_api.delete(f"{url}/{fresh['id']}")
    assert gone.status_code == 204
    assert _with_key(fresh["key"]).get("/api/v1/me").status_code == 401
    assert admin_client_api.delete(f"{url}/{fresh['id']}").status_code == 404
    # The single key of manage.py apitoken still signs in (the viewer client uses one).
    assert viewer_client.get("/api/v1/me").status_code == 200


def test_only_admins_manage_users(viewer_client, operator_client):
    for client in (viewer_client, operator_client):
        assert client.get("/api/v1/users").status_code == 403
        assert client.post("/api/v1/users", {"username": "x"}, format="json").status_code == 403
