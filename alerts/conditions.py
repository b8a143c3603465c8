"""When a lag alert fires, repeats and recovers. Pure: rules, states and evaluations in,
new states and the notifications to send out.

A rule matches groups of one cluster by a glob pattern (`*` every group) and holds when any
of its conditions does: the group's lag status is one of `statuses`, its oldest unread record
is older than `lag_seconds_over`, or (with `retention_risk`) retention deleted or may soon
delete records it has not read. Per (rule, group) a state remembers whether the rule holds
(`firing`), since when, and whether and when people were told:

- it starts holding: `firing`, told at once (one pass after the transition at the latest);
- it keeps holding: told again every `repeat_interval_s` (0: never again);
- it stops holding, or the group is gone: `resolved`, told only if the firing was told;
- inside a silence window nothing is told; a rule still holding when the window ends is told
  then, as `firing`.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple

ALERT_STATUSES = ("WARN", "ERR", "STOP", "STALL")
FIRING, REPEAT, RESOLVED = "firing", "repeat", "resolved"


@dataclass(frozen=True)
class Rule:
    id: int
    cluster: str
    group_pattern: str
    statuses: frozenset[str]
    lag_seconds_over: float | None
    retention_risk: bool
    repeat_interval_s: int
    silences: tuple[tuple[datetime, datetime], ...] = ()

    def matches_group(self, group_id: str) -> bool:
        return fnmatch.fnmatchcase(group_id, self.group_pattern)

    def silenced(self, now: datetime) -> bool:
        return any(start <= now < end for start, end in self.silences)


@dataclass(frozen=True)
class State:
    firing: bool
    notified: bool  # people were told of this firing
    since: datetime | None  # when it started holding
    last_sent_at: datetime | None
    reason: str


class Notification(NamedTuple):
    rule_id: int
    group_id: str
    kind: str  # FIRING, REPEAT or RESOLVED
    reason: str
    snapshot: dict[str, Any]  # the group's figures then (status, lag, lag seconds, risk)


def _seconds(value: float) -> str:
    s = int(round(value))
    return f"{s} s" if s < 120 else f"{s // 60} m" if s < 7200 else f"{s / 3600:.1f} h"


def breach(rule: Rule, evaluation: Mapping[str, Any]) -> str | None:
    """Why the rule holds for this group evaluation (a sentence), or None when it does not."""
    why = []
    status = evaluation.get("status")
    if status in rule.statuses:
        why.append(f"status {status}")
    seconds = evaluation.get("max_lag_seconds")
    if rule.lag_seconds_over is not None and seconds is not None:
        if seconds > rule.lag_seconds_over:
            why.append(f"lag {_seconds(seconds)} behind, over {_seconds(rule.lag_seconds_over)}")
    risk = evaluation.get("retention_risk")
    if rule.retention_risk and risk in ("near", "lost"):
        why.append(evaluation.get("retention_reason") or f"retention risk {risk}")
    return "; ".join(why) or None


def snapshot(evaluation: Mapping[str, Any] | None) -> dict[str, Any]:
    if not evaluation:
        return {}
    keys = ("status", "state", "total_lag", "max_lag_seconds", "retention_risk")
    return {key: evaluation.get(key) for key in keys}


def step(
    rule: Rule,
    group_id: str,
    state: State | None,
    evaluation: Mapping[str, Any] | None,
    now: datetime,
) -> tuple[State | None, Notification | None]:
    """One group's new state under one rule after a pass (None: nothing to remember), and
    what to tell. `evaluation` None: the group is gone from the cluster."""
    reason = breach(rule, evaluation) if evaluation is not None else None
    quiet = rule.silenced(now)
    if reason is None:
        if state is None or not state.firing:
            return None, None
        gone = "the group no longer exists" if evaluation is None else "back to normal"
        told = Notification(rule.id, group_id, RESOLVED, gone, snapshot(evaluation))
        return None, (told if state.notified else None)
    if state is None or not state.firing:
        state = State(True, False, now, None, reason)
    else:
        state = replace(state, reason=reason)
    if quiet:
        return state, None
    if not state.notified:
        kind = FIRING
    elif (
        rule.repeat_interval_s > 0
        and state.last_sent_at is not None
        and ((now - state.last_sent_at).total_seconds() >= rule.repeat_interval_s)
    ):
        kind = REPEAT
    else:
        return state, None
    told = Notification(rule.id, group_id, kind, reason, snapshot(evaluation))
    return replace(state, notified=True, last_sent_at=now), told


def evaluate(
    rule: Rule,
    states: Mapping[str, State],
    evaluations: Mapping[str, Mapping[str, Any]],
    now: datetime,
) -> tuple[dict[str, State | None], list[Notification]]:
    """Every group the rule concerns after a pass: the groups whose state changed (None:
    forget it) and the notifications, groups in name order."""
    groups: Iterable[str] = sorted({g for g in evaluations if rule.matches_group(g)} | set(states))
    changed: dict[str, State | None] = {}
    told: list[Notification] = []
    for group in groups:
        before = states.get(group)
        # A group the pattern no longer matches (the rule was edited) counts as gone.
        evaluation = evaluations.get(group) if rule.matches_group(group) else None
        after, note = step(rule, group, before, evaluation, now)
        if after != before:
            changed[group] = after
        if note is not None:
            told.append(note)
    return changed, told
