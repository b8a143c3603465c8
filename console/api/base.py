"""The base every API view derives from: role checks come from `RolePermission`."""

from __future__ import annotations

from rest_framework.views import APIView

from console.clusters import ClusterConfig, get_cluster


class ConsoleAPIView(APIView):
    # Role needed for GET/HEAD/OPTIONS and for everything else; see console.roles.
    read_role = "viewer"
    write_role = "admin"

    def cluster(self) -> ClusterConfig:
        return get_cluster(self.kwargs["cluster"])
