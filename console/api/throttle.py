"""A rate limit on writes per user: reads are never throttled (pages poll), writes are
(one operator queued 200 Spark jobs in 6 s; refused writes each leave an audit entry)."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import UserRateThrottle

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class WriteRateThrottle(UserRateThrottle):
    scope = "writes"

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method not in _WRITES:
            return True
        return super().allow_request(request, view)
