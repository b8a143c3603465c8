"""A stored rule as the pure `conditions.Rule`, and the checks a rule's fields pass before it
is saved (the API's serializer calls them: each problem names its field)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from alerts import conditions
from alerts.models import AlertRule
from console.api.limits import iso_millis
from console.errors import BadInput

MAX_SILENCES = 50
MAX_EMAILS = 20
_EMAIL = re.compile(r"^[^@\s,]+@[^@\s,]+\.[^@\s,]+$")
EXAMPLE = "2026-12-24T18:00:00+01:00"


def _moment(text: str, field: str) -> datetime:
    millis = iso_millis(text, field, zone_required=True, example=EXAMPLE)
    return datetime.fromtimestamp(millis / 1000, UTC)


def parse_silences(value: Any, field: str = "silences") -> list[tuple[datetime, datetime]]:
    if not isinstance(value, list):
        raise BadInput(field, f"{field}: give a list of {{starts_at, ends_at}} windows.")
    if len(value) > MAX_SILENCES:
        raise BadInput(field, f"{field}: at most {MAX_SILENCES} windows.")
    out = []
    for i, window in enumerate(value):
        where = f"{field}.{i}"
        if not isinstance(window, dict) or set(window) != {"starts_at", "ends_at"}:
            raise BadInput(where, f"{where}: give exactly starts_at and ends_at.")
        start = _moment(window["starts_at"], f"{where}.starts_at")
        end = _moment(window["ends_at"], f"{where}.ends_at")
        if end <= start:
            raise BadInput(f"{where}.ends_at", f"{where}.ends_at: must be after starts_at.")
        out.append((start, end))
    return out


def check_target(channel: str, target: str) -> str:
    """The target normalised for its channel (emails: `a@x, b@y`); BadInput naming `target`."""
    target = target.strip()
    if channel == "email":
        addresses = [a.strip() for a in target.split(",") if a.strip()]
        if not addresses or len(addresses) > MAX_EMAILS:
            raise BadInput("target", f"target: give 1 to {MAX_EMAILS} addresses, comma-separated.")
        wrong = [a for a in addresses if not _EMAIL.match(a)]
        if wrong:
            raise BadInput("target", f"target: {wrong[0]!r} is not an email address.")
        return ", ".join(addresses)
    parts = urlsplit(target)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadInput("target", "target: give the receiver's http:// or https:// URL.")
    if parts.username or parts.password:
        raise BadInput("target", "target: no user or password in the URL.")
    return target


def shown_target(channel: str, target: str) -> str:
    """What the API shows of a target: a Slack or Teams URL is a secret (who has it may post),
    so only its scheme and host are shown; email addresses are shown whole."""
    if channel == "email":
        return target
    parts = urlsplit(target)
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}/…"


def as_rule(model: AlertRule) -> conditions.Rule:
    silences = tuple(
        (_moment(w["starts_at"], "silences"), _moment(w["ends_at"], "silences"))
        for w in model.silences
    )
    return conditions.Rule(
        id=model.pk,
        cluster=model.cluster,
        group_pattern=model.group_pattern,
        statuses=frozenset(model.statuses),
        lag_seconds_over=model.lag_seconds_over,
        retention_risk=model.retention_risk,
        repeat_interval_s=model.repeat_interval_s,
        silences=silences,
    )
