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

    `details` may be filled inside the block (e.g. per-partition results) before it ends.
    """

    def __init__(
        self,
        actor: Any,
        action: str,
        *,
        cluster: str = "",
        target: str = "",
        request: dict[str, Any] | None = None,
    ):
        self.entry_args = {
            "actor": actor,
            "action": action,
            "cluster": cluster,
            "target": target,
            "request": request or {},
        }
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
        record(outcome=outcome, details=self.details, **self.entry_args)
