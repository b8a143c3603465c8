"""`commit_verified`: an offset reset's commit read back, and committed again where Kafka
acknowledged a commit it then lost (a group coordinator moving at that moment)."""

from __future__ import annotations

from groups.partitions import TopicPartition
from groups.resets.workflow import ACTIVE_SINCE, LOST, commit_verified

A, B, C = (TopicPartition("t", p) for p in range(3))


class Group:
    """Committed offsets as a coordinator shows them; `lose` names commits (by call number,
    from 1) whose partitions it acknowledges but does not keep."""

    def __init__(self, shown: dict, lose: dict[int, set] | None = None, errors: dict | None = None):
        self.shown = dict(shown)
        self.lose = lose or {}
        self.errors = errors or {}
        self.commits: list[dict] = []
        self.reads: list[list] = []

    def commit(self, offsets: dict) -> dict:
        self.commits.append(dict(offsets))
        lost = self.lose.get(len(self.commits), set())
        for tp, offset in offsets.items():
            if tp not in lost and tp not in self.errors:
                self.shown[tp] = offset
        return {tp: self.errors.get(tp) for tp in offsets}

    def read(self, tps: list) -> dict:
        self.reads.append(list(tps))
        return {tp: self.shown.get(tp) for tp in tps}


def test_a_commit_shown_at_once_is_committed_once():
    group = Group({A: 5, B: 6})
    errors = commit_verified(group.commit, group.read, lambda: True, {A: 0, B: 1})
    assert errors == {A: None, B: None}
    assert group.commits == [{A: 0, B: 1}]
    assert group.reads == [[A, B]]


def test_an_acknowledged_but_lost_partition_is_committed_again_alone():
    group = Group({A: 5, B: 6}, lose={1: {B}})
    errors = commit_verified(group.commit, group.read, lambda: True, {A: 0, B: 1})
    assert errors == {A: None, B: None}
    assert group.commits == [{A: 0, B: 1}, {B: 1}]
    assert group.shown == {A: 0, B: 1}


def test_a_commit_lost_every_time_is_named_after_the_rounds():
    group = Group({A: 5}, lose={n: {A} for n in range(1, 10)})
    errors = commit_verified(group.commit, group.read, lambda: True, {A: 0}, rounds=2)
    assert len(group.commits) == 3  # the first and two more
    assert errors[A] == LOST.format(now=5)


def test_nothing_is_committed_again_once_a_consumer_joined():
    group = Group({A: 5}, lose={1: {A}})
    errors = commit_verified(group.commit, group.read, lambda: False, {A: 0})
    assert group.commits == [{A: 0}]
    assert errors[A] == ACTIVE_SINCE


def test_a_refused_partition_keeps_its_error_and_is_not_read_back():
    group = Group({A: 5, C: 7}, errors={C: "UNKNOWN_TOPIC_OR_PART: gone"})
    errors = commit_verified(group.commit, group.read, lambda: True, {A: 0, C: 1})
    assert errors == {A: None, C: "UNKNOWN_TOPIC_OR_PART: gone"}
    assert group.reads == [[A]]


def test_an_unreadable_group_leaves_the_commits_answer():
    group = Group({A: 5}, lose={1: {A}})
    errors = commit_verified(group.commit, lambda tps: None, lambda: True, {A: 0})
    assert errors == {A: None}
    assert group.commits == [{A: 0}]
