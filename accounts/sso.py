"""Single sign-on with OpenID Connect, on mozilla-django-oidc's authorization-code flow.

The library does the protocol (state, nonce, PKCE, the ID token's signature against the
provider's keys, the userinfo call); this backend decides who the user is and what it may do:

- A user is found by the provider's subject (`SsoIdentity`), never by e-mail or username, and
  created on its first sign-in with the provider's `preferred_username` (a name a local user
  already holds is refused, not shared).
- Roles come from the groups claim through CONSOLE_OIDC_GROUP_ROLES at every sign-in: the
  provider is the source of truth for its users, so a change there applies at the next
  sign-in, and a user in no mapped group has no role.
- A disabled user stays disabled (the library refuses inactive users).
Every sign-in that creates a user or changes its roles is audited.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.utils import timezone
from mozilla_django_oidc.auth import OIDCAuthenticationBackend

from accounts.models import SsoIdentity
from accounts.sso_roles import groups_claim, roles_for_groups
from console import audit
from console.roles import grant_cluster_role, grant_role, remove_roles

log = logging.getLogger(__name__)


def _roles_now(user: Any) -> dict[str, Any]:
    from accounts.users import user_row

    row = user_row(user)
    return {"role": row["role"], "cluster_roles": row["cluster_roles"]}


def apply_claims(user: Any, claims: dict[str, Any]) -> dict[str, Any]:
    """Set `user`'s roles from the groups in `claims`; returns {before, after}."""
    groups = groups_claim(claims, settings.OIDC_GROUPS_CLAIM)
    mapped = roles_for_groups(groups, settings.OIDC_GROUP_ROLES)
    before = _roles_now(user)
    remove_roles(user)
    if mapped.everywhere:
        grant_role(user, mapped.everywhere)
    for cluster, role in mapped.clusters.items():
        grant_cluster_role(user, cluster, role)
    return {"groups": groups, "before": before, "after": _roles_now(user)}


class ConsoleOIDCBackend(OIDCAuthenticationBackend):
    def get_userinfo(self, access_token: str, id_token: str, payload: dict) -> dict:
        claims = dict(super().get_userinfo(access_token, id_token, payload))
        # The userinfo answer must be about the ID token's subject (OIDC Core 5.3.2).
        if str(claims.get("sub")) != str(payload.get("sub")):
            raise SuspiciousOperation("userinfo subject differs from the ID token's")
        claims["iss"] = payload.get("iss", "")
        return claims

    def verify_claims(self, claims: dict) -> bool:
        return bool(claims.get("sub")) and bool(self._username(claims))

    def filter_users_by_claims(self, claims: dict) -> Any:
        return self.UserModel.objects.filter(
            sso_identity__issuer=claims.get("iss", ""), sso_identity__subject=claims["sub"]
        )

    @staticmethod
    def _username(claims: dict) -> str:
        name = claims.get("preferred_username") or claims.get("email") or ""
        return str(name).strip()[:150]

    def create_user(self, claims: dict) -> Any:
        username = self._username(claims)
        if self.UserModel.objects.filter(username__iexact=username).exists():
            # A local user (or another subject) holds the name: refuse rather than merge.
            log.warning("SSO sign-in refused: the username %r is taken", username)
            audit.record(
                actor=username,
                action="user.sso_sign_in",
                outcome="refused",
                target=f"user:{username}",
                details={"reason": "username_taken", "subject": claims["sub"]},
            )
            raise SuspiciousOperation(f"the username {username!r} is taken")
        with transaction.atomic():
            user = self.UserModel.objects.create_user(username, email=claims.get("email") or "")
            user.set_unusable_password()
            user.save(update_fields=["password"])
            SsoIdentity.objects.create(
                user=user, issuer=claims.get("iss", ""), subject=claims["sub"]
            )
            self._sync(user, claims, "user.sso_create")
        return user

    @transaction.atomic
    def update_user(self, user: Any, claims: dict) -> Any:
        self._sync(user, claims, "user.sso_roles")
        return user

    @staticmethod
    def _sync(user: Any, claims: dict, action: str) -> None:
        """Roles from the claims, the groups remembered; audited when it made the user or
        changed its roles."""
        change = apply_claims(user, claims)
        SsoIdentity.objects.filter(user=user).update(
            groups=change["groups"], last_sign_in=timezone.now()
        )
        if action == "user.sso_create" or change["before"] != change["after"]:
            audit.record(
                actor=user, action=action, outcome="ok", target=f"user:{user.pk}", details=change
            )
