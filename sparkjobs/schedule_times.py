"""When a schedule runs (pure): a cron expression in a time zone, or every N minutes.

Cron is the five-field expression of Debian's cron, read by `cronsim` (the parser
healthchecks uses): minute, hour, day of month, month, day of week; `*`, lists, ranges,
steps, month and day names, and Debian's day-of-month / day-of-week rule. It is evaluated in
the schedule's time zone, so `0 3 * * *` in Europe/Paris runs at 03:00 Paris time in summer
and winter; a time that does not exist on a spring-forward day runs at the first minute
after the gap, and a time that happens twice on a fall-back day runs once (as Debian's cron
does). `every_minutes` counts from the moment the schedule was created or last ran, in UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from console.errors import BadInput

MAX_EVERY_MINUTES = 366 * 24 * 60
MAX_CRON_CHARS = 200


@dataclass(frozen=True)
class Timing:
    cron: str | None
    every_minutes: int | None
    timezone: str


def _zone(name: Any) -> ZoneInfo:
    if not isinstance(name, str) or not name or len(name) > 64:
        raise BadInput("timezone", "timezone: give an IANA time zone name, e.g. Europe/Paris.")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadInput(
            "timezone", f"timezone: {name!r} is not an IANA time zone (e.g. Europe/Paris, UTC)."
        ) from None


def check_timing(cron: Any, every_minutes: Any, timezone: Any) -> Timing:
    """The timing, checked: exactly one of `cron` and `every_minutes`; BadInput naming the
    field otherwise."""
    _zone(timezone)
    if (cron is None) == (every_minutes is None):
        raise BadInput(
            "cron", "cron: give either cron (e.g. 0 3 * * *) or every_minutes, not both."
        )
    if cron is not None:
        if not isinstance(cron, str) or len(cron) > MAX_CRON_CHARS:
            raise BadInput("cron", "cron: give a cron expression such as 0 3 * * *.")
        fields = cron.split()
        if len(fields) != 5:
            raise BadInput(
                "cron",
                f"cron: five fields (minute hour day-of-month month day-of-week), "
                f"{len(fields)} given.",
            )
        try:
            CronSim(cron, datetime.now(UTC))
        except CronSimError as exc:
            raise BadInput("cron", f"cron: {exc} in {cron!r}.") from None
        return Timing(" ".join(fields), None, timezone)
    if isinstance(every_minutes, bool) or not isinstance(every_minutes, int):
        raise BadInput("every_minutes", "every_minutes: give a whole number of minutes.")
    if not 1 <= every_minutes <= MAX_EVERY_MINUTES:
        raise BadInput(
            "every_minutes", f"every_minutes: between 1 and {MAX_EVERY_MINUTES} (a year)."
        )
    return Timing(None, every_minutes, timezone)


def next_run(timing: Timing, after: datetime) -> datetime:
    """The first run time strictly after `after` (aware), in UTC."""
    if timing.every_minutes is not None:
        return (after + timedelta(minutes=timing.every_minutes)).astimezone(UTC)
    assert timing.cron is not None
    local = after.astimezone(_zone(timing.timezone))
    # cronsim's first tick is at or after its start: start one second later for "after".
    upcoming: datetime = next(CronSim(timing.cron, local + timedelta(seconds=1)))
    return upcoming.astimezone(UTC)
