import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from console.roles import has_role, role_of
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db


def test_unauthenticated_api_call_is_401(anon_client):
    response = anon_client.get("/api/v1/me")
    error = assert_error(response, 401)
    assert response["WWW-Authenticate"].startswith("Token")
    assert "credentials" in error["message"].lower()


def test_bad_token_is_401(anon_client):
    anon_client.credentials(HTTP_AUTHORIZATION="Token nope")
    assert_error(anon_client.get("/api/v1/clusters"), 401)


def test_user_without_role_is_403_everywhere_but_me(norole_client):
    error = assert_error(norole_client.get("/api/v1/clusters"), 403)
    assert "viewer" in error["message"]
    # /me tells such a user that it holds no role (the SPA says so instead of failing).
    me = norole_client.get("/api/v1/me")
    assert me.status_code == 200 and me.json()["role"] is None
    assert me.json()["cluster_roles"] == {}


def test_me_reports_role(viewer_client, admin_client_api):
    assert viewer_client.get("/api/v1/me").json() == {
        "username": "vera-viewer",
        "role": "viewer",
        "cluster_roles": {"local": "viewer", "local-secure": "viewer"},
    }
    assert admin_client_api.get("/api/v1/me").json()["role"] == "admin"


def test_roles_include_the_ones_before(viewer_client, operator_client):
    assert has_role(operator_client.user, "viewer")
    assert not has_role(viewer_client.user, "operator")
    assert role_of(None) is None


def test_audit_needs_operator(viewer_client, operator_client):
    assert_error(viewer_client.get("/api/v1/audit"), 403)
    assert operator_client.get("/api/v1/audit").status_code == 200


def test_audit_since_must_be_a_datetime(operator_client):
    error = assert_error(operator_client.get("/api/v1/audit?since=yesterday"), 400, "invalid")
    assert error["details"]["field"] == "since"


def test_apitoken_command_creates_user_with_role(capsys, django_user_model):
    call_command("apitoken", "robot", "--role", "operator")
    key = capsys.readouterr().out.strip()
    token = Token.objects.get(key=key)
    assert token.user.username == "robot"
    assert role_of(token.user) == "operator"
    assert not token.user.has_usable_password()
    # Running it again changes the role and keeps the token.
    call_command("apitoken", "robot", "--role", "viewer")
    assert capsys.readouterr().out.strip() == key
    assert role_of(django_user_model.objects.get(username="robot")) == "viewer"


def test_unknown_api_path_is_json_404(viewer_client):
    assert_error(viewer_client.get("/api/v1/nope"), 404, "not_found")


def test_spa_requires_login(client):
    response = client.get("/clusters/local")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_schema_describes_cluster_endpoints(viewer_client):
    response = viewer_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    text = response.content.decode()
    paths = ["/api/v1/clusters", "/api/v1/clusters/{cluster}", "/api/v1/clusters/{cluster}/brokers"]
    assert [path for path in paths if path not in text] == []
