"""Writing the audit log: one helper, so every change is recorded the same way."""

from __future__ import annotations

import json
from typing import Any

from console.models import AuditEntry

TRUNCATED = "…[truncated]"
MAX_STORED_JSON = 16 * 1024  # bytes of a request or details kept per entry


def bounded_text(value: str, limit: int) -> str:
    """`value`, cut to `limit` characters with a visible marker when longer."""
    return value if len(value) <= limit else value[: limit - len(TRUNCATED)] + TRUNCATED


def bounded_json(value: dict[str, Any]) -> dict[str, Any]:
    """`value` when its JSON is small; else a cut preview that says so and how big it was."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size <= MAX_STORED_JSON:
        return value
    return {"_truncated": True, "_bytes": size, "preview": bounded_text(text, 2048)}


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
    # Every field bounded: the database may enforce max_length, and bodies can be large.
    return AuditEntry.objects.create(
        actor=bounded_text(name, 150),
        action=bounded_text(action, 64),
        cluster=bounded_text(cluster, 64),
        target=bounded_text(target, 512),
        request=bounded_json(request or {}),
        outcome=outcome,
        details=bounded_json(details or {}),
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
