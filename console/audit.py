"""Writing the audit log: one helper, so every change is recorded the same way."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction

from console.models import AuditEntry

TRUNCATED = "…[truncated]"
MAX_STORED_JSON = 16 * 1024  # bytes of a request or details kept per entry
# A refused or failed call changed nothing: its request is kept to this much (a flood of
# refused writes stored 15 KB each).
MAX_REFUSED_JSON = 2 * 1024
PREVIEW_CHARS = 2048  # of a cut request or details, kept as text
_MAX_DEPTH = 64  # deeper than any body the parser lets through


def storable_text(value: str) -> str:
    """`value` as every database can store it: NUL (PostgreSQL refuses it in text and jsonb)
    and lone surrogates (no UTF-8 for them) written as visible escapes."""
    if value.isascii() and "\x00" not in value:
        return value
    return value.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def storable_json(value: Any, depth: int = 0) -> Any:
    """`value` as JSON any database stores: text made storable, keys as text, tuples and sets
    as lists, anything else (dates, errors) as its text."""
    if depth > _MAX_DEPTH:
        return TRUNCATED
    if isinstance(value, str):
        return storable_text(value)
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)  # jsonb has no NaN or Infinity
    if isinstance(value, dict):
        return {storable_text(str(k)): storable_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [storable_json(v, depth + 1) for v in value]
    return storable_text(str(value))


def bounded_text(value: str, limit: int) -> str:
    """`value`, storable and cut to `limit` characters with a visible marker when longer."""
    value = storable_text(value)
    return value if len(value) <= limit else value[: limit - len(TRUNCATED)] + TRUNCATED


def bounded_json(value: dict[str, Any], limit: int = MAX_STORED_JSON) -> dict[str, Any]:
    """`value` when its JSON is small; else a cut preview that says so and how big it was."""
    value = storable_json(value)
    text = json.dumps(value, ensure_ascii=False)
    size = len(text.encode("utf-8"))
    if size <= limit:
        return value
    preview = bounded_text(text, min(PREVIEW_CHARS, limit // 2))
    return {"_truncated": True, "_bytes": size, "preview": preview}


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
    # Every field bounded (to the model's max_length, with a visible marker) and storable: the
    # database may enforce max_length, and bodies can be large or hold NUL characters.
    return AuditEntry.objects.create(
        actor=bounded_text(name, _max_length("actor")),
        action=bounded_text(action, _max_length("action")),
        cluster=bounded_text(cluster, _max_length("cluster")),
        target=bounded_text(target, _max_length("target")),
        request=bounded_json(
            request or {}, MAX_STORED_JSON if outcome == "ok" else MAX_REFUSED_JSON
        ),
        outcome=outcome,
        details=bounded_json(details or {}),
    )


T = TypeVar("T")


def _max_length(field: str) -> int:
    return int(getattr(AuditEntry._meta.get_field(field), "max_length", 0) or 0)


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
        self._recorded = False

    def commit(self, write: Callable[[], T]) -> T:
        """Run `write` (changes to the database only, e.g. saving a job that is queued on
        commit) and record the "ok" entry in one transaction: both or neither, never a
        change without its entry. Slow checks (Kafka calls) belong before it, so the write
        lock is held only for the writes."""
        with transaction.atomic():
            result = write()
            self._record(None)
        self._recorded = True
        return result

    def __enter__(self) -> audited:
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if not self._recorded:
            self._record(exc)

    def _record(self, exc: BaseException | None) -> None:
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
