"""The SSO backend's decisions, without the protocol (which mozilla-django-oidc does and the
browser test drives against the dev provider): who a provider's user is, and its roles."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import SuspiciousOperation

from accounts.models import SsoIdentity
from accounts.sso import ConsoleOIDCBackend
from console.models import AuditEntry
from console.roles import grant_cluster_role, has_role, role_of

pytestmark = pytest.mark.django_db
User = get_user_model()
ISS = "https://idp.example.test/o"


@pytest.fixture
def backend(settings):
    settings.OIDC_OP_TOKEN_ENDPOINT = f"{ISS}/token/"
    settings.OIDC_OP_USER_ENDPOINT = f"{ISS}/userinfo/"
    settings.OIDC_OP_JWKS_ENDPOINT = f"{ISS}/jwks/"
    settings.OIDC_RP_CLIENT_ID = "console"
    settings.OIDC_RP_CLIENT_SECRET = "s"
    settings.OIDC_RP_SIGN_ALGO = "RS256"
    settings.OIDC_GROUPS_CLAIM = "groups"
    settings.OIDC_GROUP_ROLES = {
        "ops": "operator",
        "readers": "viewer",
        "local-admins": {"local": "admin"},
    }
    return ConsoleOIDCBackend()


def _claims(sub="s-1", name="dana", groups=("ops",)):
    return {"sub": sub, "iss": ISS, "preferred_username": name, "groups": list(groups)}


def _sign_in(backend, claims):
    found = backend.filter_users_by_claims(claims)
    assert len(found) <= 1
    return backend.update_user(found[0], claims) if found else backend.create_user(claims)


def test_first_sign_in_creates_the_user_with_its_mapped_role_and_no_password(backend):
    user = _sign_in(backend, _claims(groups=["readers", "local-admins"]))
    assert user.username == "dana" and not user.has_usable_password()
    assert role_of(user) == "admin" and role_of(user, "local") == "admin"
    assert role_of(user, "local-secure") == "viewer"
    identity = SsoIdentity.objects.get(user=user)
    assert (identity.issuer, identity.subject) == (ISS, "s-1")
    assert identity.groups == ["readers", "local-admins"] and identity.last_sign_in
    entry = AuditEntry.objects.get(action="user.sso_create", outcome="ok")
    assert entry.details["after"] == {"role": "viewer", "cluster_roles": {"local": "admin"}}


def test_the_provider_decides_the_roles_at_every_sign_in(backend):
    user = _sign_in(backend, _claims(groups=["ops"]))
    assert role_of(user) == "operator"
    # An admin's change in the console lasts until the next sign-in.
    grant_cluster_role(user, "local", "admin")
    user = _sign_in(backend, _claims(groups=["readers"]))
    user = User.objects.get(pk=user.pk)
    assert role_of(user) == "viewer" and role_of(user, "local") == "viewer"
    change = AuditEntry.objects.filter(action="user.sso_roles", outcome="ok").latest("at").details
    assert change["before"]["cluster_roles"] == {"local": "admin"}
    assert change["after"] == {"role": "viewer", "cluster_roles": {}}
    # The same groups again change nothing and audit nothing more.
    _sign_in(backend, _claims(groups=["readers"]))
    assert AuditEntry.objects.filter(action="user.sso_roles").count() == 1


def test_a_user_in_no_mapped_group_is_signed_in_with_no_role(backend):
    user = _sign_in(backend, _claims(groups=["marketing"]))
    assert role_of(user) is None and not has_role(user, "viewer", "local")
    user = _sign_in(backend, _claims(groups=["ops"]))
    assert role_of(User.objects.get(pk=user.pk)) == "operator"
    user = _sign_in(backend, _claims(groups=[]))
    assert role_of(User.objects.get(pk=user.pk)) is None


def test_users_are_found_by_subject_never_by_name_or_email(backend):
    local = User.objects.create_user("dana", email="dana@example.test", password="x" * 12)
    with pytest.raises(SuspiciousOperation, match="taken"):
        _sign_in(backend, {**_claims(), "email": "dana@example.test"})
    local.refresh_from_db()
    assert local.check_password("x" * 12) and not SsoIdentity.objects.exists()
    refused = AuditEntry.objects.get(action="user.sso_sign_in")
    assert refused.outcome == "refused" and refused.details["reason"] == "username_taken"
    # Another subject, or the same subject at another issuer, is another person.
    first = _sign_in(backend, _claims(sub="s-9", name="erin"))
    assert not backend.filter_users_by_claims({**_claims(sub="s-9"), "iss": "https://x"})
    assert list(backend.filter_users_by_claims(_claims(sub="s-9", name="renamed"))) == [first]


def test_claims_without_a_subject_or_a_name_are_refused(backend):
    assert backend.verify_claims(_claims())
    assert not backend.verify_claims({**_claims(), "sub": ""})
    assert not backend.verify_claims({"sub": "s-1", "groups": ["ops"]})
    assert backend.verify_claims({"sub": "s-1", "email": "a@b.test"})
