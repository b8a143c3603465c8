"""Console users as an admin manages them: their role on every cluster and on single ones,
enabled or not, and their API tokens. No HTTP here.

An admin cannot lock everyone out: a change that would leave no active user with the admin
role on every cluster (a superuser, or the `admin` group) is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from console import tokens
from console.clusters import ClusterNotFound, get_cluster
from console.errors import BadInput, Conflict, NotFound
from console.models import ApiToken
from console.roles import ROLES, grant_cluster_role, grant_role

User = get_user_model()


def _global_role(user: Any) -> str | None:
    names = {g.name for g in user.groups.all()}
    return next((r for r in reversed(ROLES) if r in names), None)


def _has_sso_identity(user: Any) -> bool:
    from accounts.models import SsoIdentity

    try:
        return user.sso_identity is not None
    except SsoIdentity.DoesNotExist:
        return False


def user_row(user: Any) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "is_active": user.is_active,
        "is_superuser": user.is_superuser,
        "role": "admin" if user.is_superuser else _global_role(user),
        "cluster_roles": {r.cluster: r.role for r in user.cluster_roles.all()},
        "has_password": user.has_usable_password(),
        "sso": _has_sso_identity(user),
        "last_login": user.last_login,
        "date_joined": user.date_joined,
        "tokens": getattr(user, "token_count", None) or user.api_tokens.count(),
    }


def _users() -> Any:
    return (
        User.objects.select_related("sso_identity")
        .prefetch_related("groups", "cluster_roles")
        .annotate(token_count=Count("api_tokens"))
        .order_by("username")
    )


def list_users() -> list[dict[str, Any]]:
    return [user_row(u) for u in _users()]


def get_user(user_id: int) -> Any:
    user = _users().filter(pk=user_id).first()
    if user is None:
        raise NotFound(f"There is no user {user_id}.", code="user_not_found")
    return user


def _check_clusters(cluster_roles: Mapping[str, str | None]) -> None:
    for cluster in cluster_roles:
        try:
            get_cluster(cluster)
        except ClusterNotFound:
            field = f"cluster_roles.{cluster}"
            raise BadInput(field, f"{field}: there is no cluster named {cluster!r}.") from None


def _admins_left() -> int:
    admins = Q(is_superuser=True) | Q(groups__name="admin")
    return User.objects.filter(admins, is_active=True).distinct().count()


def _set_roles(user: Any, changes: Mapping[str, Any]) -> None:
    if "role" in changes:
        if changes["role"] is None:
            user.groups.remove(*Group.objects.filter(name__in=ROLES))
        else:
            grant_role(user, changes["role"])
    for cluster, role in changes.get("cluster_roles", {}).items():
        grant_cluster_role(user, cluster, role)


def create_user(body: Mapping[str, Any]) -> Any:
    """A local user: with a password (it signs in) or without (tokens only)."""
    _check_clusters(body.get("cluster_roles", {}))
    if User.objects.filter(username=body["username"]).exists():
        raise Conflict(f"A user named {body['username']!r} exists.", code="user_exists")
    with transaction.atomic():
        user = User.objects.create_user(body["username"], password=body.get("password"))
        if not body.get("password"):
            user.set_unusable_password()
            user.save(update_fields=["password"])
        _set_roles(user, body)
    return get_user(user.pk)


def change_user(actor: Any, user: Any, body: Mapping[str, Any]) -> Any:
    """Enable or disable, the role on every cluster (null: none) and on single clusters (a
    null role: back to the all-clusters one there)."""
    _check_clusters(body.get("cluster_roles", {}))
    if body.get("is_active") is False and user.pk == actor.pk:
        raise BadInput("is_active", "is_active: you cannot disable yourself.")
    with transaction.atomic():
        if "is_active" in body:
            user.is_active = body["is_active"]
            user.save(update_fields=["is_active"])
        _set_roles(user, body)
        if _admins_left() == 0:
            raise Conflict(
                "This change would leave no active user with the admin role on every cluster.",
                code="last_admin",
            )
    return get_user(user.pk)


# --- API tokens ------------------------------------------------------------------------------


def token_row(token: ApiToken) -> dict[str, Any]:
    now = timezone.now()
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at,
        "expires_at": token.expires_at,
        "last_used_at": token.last_used_at,
        "expired": token.expires_at is not None and token.expires_at <= now,
    }


def list_tokens(user: Any) -> list[dict[str, Any]]:
    return [token_row(t) for t in user.api_tokens.all()]


def make_token(user: Any, name: str, expires_in_days: int) -> dict[str, Any]:
    """The token with its key: the only answer that ever holds it."""
    if user.api_tokens.filter(name=name).exists():
        raise BadInput("name", f"name: {user.username} has a token named {name!r} already.")
    expires_at = timezone.now() + timedelta(days=expires_in_days)
    token, key = tokens.make_token(user, name, expires_at)
    return token_row(token) | {"key": key}


def revoke_token(user: Any, token_id: int) -> ApiToken:
    token = user.api_tokens.filter(pk=token_id).first()
    if token is None:
        raise NotFound(f"{user.username} has no token {token_id}.", code="token_not_found")
    token.delete()
    return token
