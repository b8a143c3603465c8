"""One permission class for every API view: reading needs `read_role`, changing `write_role`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.permissions import SAFE_METHODS, BasePermission

if TYPE_CHECKING:
    from rest_framework.request import Request

from console.roles import has_role


class RolePermission(BasePermission):
    message = "Your role does not allow this action."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.user is None or not request.user.is_authenticated:
            return False
        if request.method in SAFE_METHODS:
            needed = getattr(view, "read_role", "viewer")
        else:
            needed = getattr(view, "write_role", "admin")
        if not has_role(request.user, needed):
            self.message = f"This action needs the {needed} role."
            return False
        return True
