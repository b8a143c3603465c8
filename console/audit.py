"""Writing the audit log: one helper, so every change is recorded the same way."""

from __future__ import annotations

from typing import Any

from console.models import AuditEntry


def record(
    *,
    actor: Any,
    action: str,
    outcome: str,
    cluster: str = "",
    target: str = "",
    request: dict[str, Any] | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    name = getattr(actor, "username", None) or str(actor or "anonymous")
    return AuditEntry.objects.create(
        actor=name,
        action=action,
        cluster=cluster,
        target=target,
        request=request or {},
        outcome=outcome,
        details=details or {},
    )
