"""The audit log as CSV, written row by row (an export of 100,000 entries is never held)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator

from console.models import AuditEntry

COLUMNS = ("id", "at", "actor", "action", "cluster", "target", "outcome", "request", "details")
# A cell a spreadsheet would run as a formula starts with one of these (CSV injection).
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def rows(entries: Iterable[AuditEntry]) -> Iterator[str]:
    """The header, then one line per entry; `request` and `details` as compact JSON."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[object]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([_cell(v) for v in values])
        return buffer.getvalue()

    yield line(COLUMNS)
    for entry in entries.iterator(chunk_size=2000) if hasattr(entries, "iterator") else entries:
        yield line(
            (
                entry.id,
                entry.at.isoformat(),
                entry.actor,
                entry.action,
                entry.cluster,
                entry.target,
                entry.outcome,
                json.dumps(entry.request, separators=(",", ":"), ensure_ascii=False),
                json.dumps(entry.details, separators=(",", ":"), ensure_ascii=False),
            )
        )
