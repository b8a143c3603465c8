"""When a lag alert fires, repeats, keeps quiet and recovers (alerts.conditions), and what each
channel says (alerts.messages). Pure: no database, no network."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from alerts import conditions, messages
from alerts.conditions import FIRING, REPEAT, RESOLVED, Rule, State

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def rule(**changes) -> Rule:
    base = {
        "id": 7,
        "cluster": "local",
        "group_pattern": "billing-*",
        "statuses": frozenset({"ERR", "STOP"}),
        "lag_seconds_over": None,
        "retention_risk": False,
        "repeat_interval_s": 600,
    }
    return Rule(**{**base, **changes})


OK = {"status": "OK", "max_lag_seconds": 1.0, "retention_risk": "none"}
ERR = {"status": "ERR", "max_lag_seconds": 90.0, "retention_risk": "none", "total_lag": 5}


def run(r: Rule, passes: list[dict], start: datetime = T0, every: float = 60):
    """Passes of {group: evaluation}; returns the notifications of each pass."""
    states: dict[str, State] = {}
    told = []
    for i, evaluations in enumerate(passes):
        changed, notes = conditions.evaluate(
            r, states, evaluations, start + timedelta(seconds=i * every)
        )
        for group, state in changed.items():
            if state is None:
                states.pop(group, None)
            else:
                states[group] = state
        told.append([(n.group_id, n.kind) for n in notes])
    return told, states


def test_fires_once_repeats_at_its_interval_and_recovers_once():
    g = "billing-1"
    told, states = run(rule(), [{g: ERR}] * 12 + [{g: OK}, {g: OK}])
    assert told[0] == [(g, FIRING)]
    assert told[1:10] == [[]] * 9  # 60 s passes: nothing until 600 s passed
    assert told[10] == [(g, REPEAT)]
    assert told[12] == [(g, RESOLVED)] and told[13] == []
    assert states == {}


def test_no_repeat_with_interval_zero_and_other_groups_are_not_watched():
    told, _ = run(rule(repeat_interval_s=0), [{"billing-1": ERR, "orders": ERR}] * 30)
    assert told[0] == [("billing-1", FIRING)] and all(t == [] for t in told[1:])


def test_a_silence_keeps_it_quiet_and_a_rule_still_holding_is_told_when_it_ends():
    quiet = rule(silences=((T0, T0 + timedelta(seconds=150)),))
    told, _ = run(quiet, [{"billing-1": ERR}] * 5)
    assert told[:3] == [[], [], []] and told[3] == [("billing-1", FIRING)]
    # Held and let go inside the silence: nobody was told, so no recovery either.
    told, states = run(quiet, [{"billing-1": ERR}, {"billing-1": OK}, {"billing-1": OK}])
    assert told == [[], [], []] and states == {}


def test_a_group_gone_resolves_and_a_group_never_told_is_forgotten_silently():
    told, states = run(rule(), [{"billing-1": ERR}, {}])
    assert told == [[("billing-1", FIRING)], [("billing-1", RESOLVED)]] and states == {}
    note = conditions.step(rule(), "billing-1", State(True, True, T0, T0, "x"), None, T0)[1]
    assert note is not None and note.reason == "the group no longer exists"


def test_an_edited_pattern_resolves_the_groups_it_no_longer_matches():
    states = {"billing-1": State(True, True, T0, T0, "status ERR")}
    changed, notes = conditions.evaluate(
        rule(group_pattern="orders-*"), states, {"billing-1": ERR}, T0
    )
    assert changed == {"billing-1": None} and [n.kind for n in notes] == [RESOLVED]


@pytest.mark.parametrize(
    "r,evaluation,reason",
    [
        (rule(), ERR, "status ERR"),
        (rule(), OK, None),
        (rule(statuses=frozenset(), lag_seconds_over=60), ERR, "lag 90 s behind, over 60 s"),
        (rule(statuses=frozenset(), lag_seconds_over=90), ERR, None),  # over, not at
        (rule(statuses=frozenset(), lag_seconds_over=60), {"status": "ERR"}, None),  # unknown
        (rule(statuses=frozenset(), retention_risk=True),
         {**OK, "retention_risk": "near", "retention_reason": "t-0: unread records ..."},
         "t-0: unread records ..."),
        (rule(statuses=frozenset(), retention_risk=True), {**OK, "retention_risk": "lost"},
         "retention risk lost"),
        (rule(lag_seconds_over=3600), {**ERR, "max_lag_seconds": 7300.0},
         "status ERR; lag 2.0 h behind, over 60 m"),
    ],
)  # fmt: skip
def test_why_a_rule_holds(r, evaluation, reason):
    assert conditions.breach(r, evaluation) == reason


def test_the_pattern_is_a_glob_over_whole_group_ids():
    r = rule(group_pattern="billing-?")
    assert r.matches_group("billing-1") and not r.matches_group("billing-12")
    assert not r.matches_group("x-billing-1") and rule(group_pattern="*").matches_group("")


ALERT = {
    "id": 3, "kind": "firing", "rule_id": 7, "rule_name": "billing stopped",
    "cluster": "local", "group_id": "billing-1", "reason": "status ERR",
    "snapshot": {"status": "ERR", "total_lag": 5, "max_lag_seconds": 90.4,
                 "retention_risk": "none"},
    "at": "2026-11-25T12:00:00+00:00", "url": "https://console.example.com/clusters/local/groups/billing-1",
}  # fmt: skip


def test_each_channel_says_what_fired_where_and_why():
    head = "[FIRING] billing stopped: group billing-1 on local"
    assert messages.body("webhook", ALERT) == {"alert": ALERT}
    slack = messages.body("slack", ALERT)["text"]
    assert slack.startswith(f"*{head}*\nstatus ERR (status ERR, total_lag 5, lag seconds 90)")
    assert slack.endswith(f"<{ALERT['url']}|Open the group>")
    teams = messages.body("teams", ALERT)
    assert teams["@type"] == "MessageCard" and teams["title"] == head == teams["summary"]
    assert teams["themeColor"] == "D13438" and teams["text"].startswith("status ERR")
    assert teams["potentialAction"][0]["targets"][0]["uri"] == ALERT["url"]
    resolved = messages.body("teams", {**ALERT, "kind": "resolved", "url": None})
    assert resolved["themeColor"] == "2EB886" and "potentialAction" not in resolved
    assert resolved["title"].startswith("[RESOLVED]")
    subject, text = messages.email(ALERT)
    assert subject == head and ALERT["url"] in text and "rule 7" in text
