"""Roles: viewer < operator < admin, each including the ones before it, on every cluster or
on one.

A user's role on every cluster is membership of the Django group of the same name
(superusers are admins everywhere). A `ClusterRole` gives a user a role on one cluster, which
replaces the all-clusters role there, higher or lower: operator on `staging`, viewer on
`prod`. A check names the cluster it touches; a check that names none (the job list, the
audit log, the clusters list) asks for the highest role the user holds anywhere, and what such
a view shows is then limited to the clusters the user may see (`ClusterScope`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Group

from console.role_names import ROLES

_CACHE = "_console_roles"  # on the user object: one request's reads


def _rank(role: str | None) -> int:
    return -1 if role is None else ROLES.index(role)


def _roles(user: Any) -> tuple[str | None, dict[str, str]]:
    """(the all-clusters role, {cluster: role}), read once per user object."""
    cached = getattr(user, _CACHE, None)
    if cached is not None:
        return cached
    from console.models import ClusterRole

    if user.is_superuser:
        found: tuple[str | None, dict[str, str]] = ("admin", {})
    else:
        names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        everywhere = next((r for r in reversed(ROLES) if r in names), None)
        per_cluster = dict(ClusterRole.objects.filter(user=user).values_list("cluster", "role"))
        found = (everywhere, per_cluster)
    setattr(user, _CACHE, found)
    return found


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def role_of(user: Any, cluster: str | None = None) -> str | None:
    """The user's role on `cluster`; without one, the highest role it holds anywhere."""
    if not _signed_in(user):
        return None
    everywhere, per_cluster = _roles(user)
    if cluster is not None:
        return per_cluster.get(cluster, everywhere)
    return max([everywhere, *per_cluster.values()], key=_rank)


def has_role(user: Any, role: str, cluster: str | None = None) -> bool:
    return _rank(role_of(user, cluster)) >= _rank(role)


@dataclass(frozen=True)
class ClusterScope:
    """The clusters on which a user holds a role: every cluster but `excluded`, or only
    `included`."""

    everywhere: bool
    included: frozenset[str] = field(default_factory=frozenset)
    excluded: frozenset[str] = field(default_factory=frozenset)

    def allows(self, cluster: str) -> bool:
        if self.everywhere:
            return cluster not in self.excluded
        return cluster in self.included


def scope_of(user: Any, role: str) -> ClusterScope:
    """The clusters on which `user` holds `role` or more."""
    if not _signed_in(user):
        return ClusterScope(everywhere=False)
    everywhere, per_cluster = _roles(user)
    if _rank(everywhere) >= _rank(role):
        low = frozenset(c for c, r in per_cluster.items() if _rank(r) < _rank(role))
        return ClusterScope(everywhere=True, excluded=low)
    high = frozenset(c for c, r in per_cluster.items() if _rank(r) >= _rank(role))
    return ClusterScope(everywhere=False, included=high)


def scoped(queryset: Any, scope: ClusterScope, field_name: str = "cluster") -> Any:
    """`queryset` limited to rows whose cluster the scope allows."""
    if scope.everywhere:
        return queryset.exclude(**{f"{field_name}__in": scope.excluded})
    return queryset.filter(**{f"{field_name}__in": scope.included})


def _forget(user: Any) -> None:
    if hasattr(user, _CACHE):
        delattr(user, _CACHE)


def grant_role(user: Any, role: str) -> None:
    """Give `user` exactly `role` on every cluster (replacing any other role it had there)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    user.groups.remove(*Group.objects.filter(name__in=ROLES))
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)
    _forget(user)


def remove_roles(user: Any) -> None:
    """Take every role `user` holds away, on every cluster and on single ones."""
    from console.models import ClusterRole

    user.groups.remove(*Group.objects.filter(name__in=ROLES))
    ClusterRole.objects.filter(user=user).delete()
    _forget(user)


def grant_cluster_role(user: Any, cluster: str, role: str | None) -> None:
    """Give `user` exactly `role` on `cluster`; None: back to its all-clusters role there."""
    from console.models import ClusterRole

    if role is None:
        ClusterRole.objects.filter(user=user, cluster=cluster).delete()
    elif role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    else:
        ClusterRole.objects.update_or_create(user=user, cluster=cluster, defaults={"role": role})
    _forget(user)
