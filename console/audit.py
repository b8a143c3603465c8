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


class audited:  # noqa: N801 (used as a context manager, reads like a statement)
    """Record one audit entry for the block: ok, refused (bad input/conflict) or failed.

    Inside the block, `action`, `outcome` and `details` may be refined (e.g. the action once
    the request is validated, per-partition results) before the entry is written.
    """

    def __init__(
        self,
        actor: Any,
        action: str,
        *,
        cluster: str = "",
        target: str = "",
        request: Any = None,
    ):
        self.actor = actor
        self.action = action
        self.cluster = cluster
        self.target = target
        self.request = request if isinstance(request, dict) else {}
        self.details: dict[str, Any] = {}
        self.outcome: str | None = None

    def __enter__(self) -> audited:
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        from console.errors import ConsoleError

        if exc is None:
            outcome = self.outcome or AuditEntry.Outcome.OK
        elif isinstance(exc, ConsoleError) or getattr(exc, "status_code", 500) < 500:
            # Bad input, conflicts and permission problems: refused, nothing changed.
            outcome = AuditEntry.Outcome.REFUSED
            self.details.setdefault("error", getattr(exc, "message", None) or str(exc))
        else:
            outcome = AuditEntry.Outcome.FAILED
            self.details.setdefault("error", getattr(exc, "message", None) or str(exc))
        record(
            actor=self.actor,
            action=self.action,
            outcome=outcome,
            cluster=self.cluster,
            target=self.target,
            request=self.request,
            details=self.details,
        )
