"""Roles: viewer < operator < admin, each including the ones before it.

A role is membership of the Django group of the same name; superusers are admins. Keeping
roles as groups means Django's admin site can manage them with no extra model.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group

ROLES: tuple[str, ...] = ("viewer", "operator", "admin")


def role_of(user: Any) -> str | None:
    """The highest role of a user (Django user, anonymous or None)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return "admin"
    names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    for role in reversed(ROLES):
        if role in names:
            return role
    return None


def has_role(user: Any, role: str) -> bool:
    held = role_of(user)
    return held is not None and ROLES.index(held) >= ROLES.index(role)


def grant_role(user: Any, role: str) -> None:
    """Give `user` exactly `role` (replacing any other role it had)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    user.groups.remove(*Group.objects.filter(name__in=ROLES))
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)
