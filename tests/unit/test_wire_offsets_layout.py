"""ListOffsets' grouping of partitions by leader (console.kafka.wire): the sampler asks for
the same partitions with the same leader map every pass, so the grouping is kept, and made
again whenever the map or the partitions differ. No Kafka: the leaders' answers are scripted."""

from __future__ import annotations

import pytest

from console.clusters import ClusterSecurity
from console.kafka import protocol
from console.kafka.wire import WireClient

A, B = ("127.0.0.1", 1), ("127.0.0.1", 2)


class _Meta:
    """What `list_offsets` reads of a Metadata answer."""

    def __init__(self, leaders):
        self._leaders, self.topic_errors = leaders, {}
        self.topics = {}

    def leader_addresses(self):
        return self._leaders


@pytest.fixture
def wire(monkeypatch):
    client = WireClient("127.0.0.1:1", ClusterSecurity())
    client.asked, client.errors, client.metadata_calls = [], {}, []

    def ask_leaders(by_leader, timestamp, deadline, committed):
        client.asked.append(by_leader)
        return {
            (t, p): (client.errors.pop((t, p), 0), -1, 100 + p)
            for parts in by_leader.values()
            for t, ps in parts.items()
            for p in ps
        }

    def metadata(topics, timeout):
        client.metadata_calls.append(topics)
        return _Meta(client.fresh_leaders)

    monkeypatch.setattr(client, "_ask_leaders", ask_leaders)
    monkeypatch.setattr(client, "metadata", metadata)
    return client


def test_the_same_partitions_and_leader_map_reuse_the_grouping(wire):
    leaders = {("t", 0): A, ("t", 1): B, ("u", 0): A}
    first = wire.list_offsets(list(leaders), protocol.LATEST, 5, leaders)
    second = wire.list_offsets(reversed(list(leaders)), protocol.LATEST, 5, leaders)
    assert (
        first == second == {("t", 0): (0, -1, 100), ("t", 1): (0, -1, 101), ("u", 0): (0, -1, 100)}
    )
    assert wire.asked[0] is wire.asked[1]
    assert {
        a: {t: sorted(ps) for t, ps in parts.items()} for a, parts in wire.asked[0].items()
    } == {
        A: {"t": [0], "u": [0]},
        B: {"t": [1]},
    }
    assert wire.metadata_calls == []


def test_a_new_leader_map_or_other_partitions_are_grouped_again(wire):
    leaders = {("t", 0): A, ("t", 1): B}
    wire.list_offsets(list(leaders), protocol.LATEST, 5, leaders)
    moved = {("t", 0): B, ("t", 1): B}  # a new snapshot: a new map
    wire.list_offsets(list(moved), protocol.LATEST, 5, moved)
    assert wire.asked[1] is not wire.asked[0] and list(wire.asked[1]) == [B]
    wire.list_offsets([("t", 0)], protocol.LATEST, 5, moved)  # fewer partitions
    assert {t: ps for t, ps in wire.asked[2][B].items()} == {"t": [0]}
    wire.list_offsets(list(moved), protocol.EARLIEST, 5, moved)  # its own grouping per kind
    wire.list_offsets(list(moved), protocol.LATEST, 5, moved)
    assert wire.asked[4] is not wire.asked[1]  # the LATEST grouping was replaced above
    assert wire.asked[4] == wire.asked[1]


def test_a_leader_that_moved_since_the_map_is_looked_up_and_asked_again(wire):
    stale = {("t", 0): A, ("t", 1): A}
    wire.fresh_leaders = {("t", 0): A, ("t", 1): B}
    wire.errors[("t", 1)] = next(iter(protocol.LEADER_MOVED_ERRORS))
    answers = wire.list_offsets(list(stale), protocol.LATEST, 5, stale)
    assert answers[("t", 1)] == (0, -1, 101)
    assert wire.metadata_calls == [["t"]]
    assert wire.asked[1] == {B: {"t": [1]}}
