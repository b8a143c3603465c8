"""One permission class for every API view: reading needs `read_role`, changing `write_role`,
on the cluster the path names; a view whose path names none checks each object's cluster
itself (`ConsoleAPIView.require_role`), after this gate asked for the role anywhere."""

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
        cluster = getattr(view, "kwargs", {}).get("cluster")
        if not has_role(request.user, needed, cluster):
            where = f" on cluster {cluster}" if cluster else ""
            self.message = f"This action needs the {needed} role{where}."
            return False
        return True
