"""Group coordinators are remembered between calls (no FindCoordinator per sampler pass), and a
group whose remembered coordinator moved or went away is looked up again in the same call."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from console.clusters import ClusterSecurity
from console.kafka import protocol, wire
from console.kafka.connection import WireUnreachable
from console.kafka.wire import NO_ANSWER, WireClient

NOT_COORDINATOR = 16
A, B = protocol.Coordinator(1, "a", 1), protocol.Coordinator(2, "b", 2)


class FakeCluster:
    """Where each group's coordinator is now, and which brokers answer."""

    def __init__(self, where: dict[str, protocol.Coordinator]) -> None:
        self.where = dict(where)
        self.down: set[tuple[str, int]] = set()
        self.lookups: list[list[str]] = []

    def find(self, groups: list[str]) -> dict[str, protocol.Coordinator | int]:
        self.lookups.append(list(groups))
        return {g: self.where[g] for g in groups}

    def answer(self, address: tuple[str, int], groups: list[str]) -> dict[str, str | int]:
        if address in self.down:
            raise WireUnreachable(f"{address} is down")
        return {
            g: f"{g}@{address[0]}" if self.where[g].address == address else NOT_COORDINATOR
            for g in groups
        }


@pytest.fixture
def cluster(monkeypatch: pytest.MonkeyPatch) -> tuple[WireClient, FakeCluster]:
    fake = FakeCluster({"g1": A, "g2": B, "g3": A})
    client = WireClient("x:1", ClusterSecurity())
    # A "payload" here is the request's own arguments; parsing hands them to the fake.
    monkeypatch.setattr(client, "first_answer", lambda build, timeout: build(0))
    monkeypatch.setattr(protocol, "find_coordinators_request", lambda groups, cid: groups)
    monkeypatch.setattr(protocol, "parse_find_coordinators", fake.find)

    class Pool:
        def exchange(self, address: tuple[str, int], build: Callable, timeout: float):  # noqa: ANN202
            return fake.answer(address, build(0))

    monkeypatch.setattr(client, "pool", Pool())
    monkeypatch.setattr(wire.time, "sleep", lambda s: None)
    return client, fake


def ask(client: WireClient, groups: list[str], located: dict[str, int] | None = None) -> dict:
    return client._per_coordinator(
        groups, lambda batch: lambda cid: batch, lambda answer: answer, 5.0, 4, located
    )


def test_coordinators_are_looked_up_once_and_then_remembered(cluster) -> None:
    client, fake = cluster
    assert ask(client, ["g1", "g2"]) == {"g1": "g1@a", "g2": "g2@b"}
    located: dict[str, int] = {}
    assert ask(client, ["g1", "g2", "g3"], located) == {"g1": "g1@a", "g2": "g2@b", "g3": "g3@a"}
    assert fake.lookups == [["g1", "g2"], ["g3"]]  # only the group never seen before
    assert located == {"g1": 1, "g2": 2, "g3": 1}


def test_a_group_whose_coordinator_moved_is_looked_up_again_in_the_same_call(cluster) -> None:
    client, fake = cluster
    ask(client, ["g1", "g2", "g3"])
    fake.where["g1"] = B  # its offsets partition's leader moved
    located: dict[str, int] = {}
    assert ask(client, ["g1", "g2", "g3"], located)["g1"] == "g1@b"
    assert fake.lookups[-1] == ["g1"]
    assert located["g1"] == 2
    assert ask(client, ["g1"]) == {"g1": "g1@b"}
    assert fake.lookups[-1] == ["g1"]  # the new coordinator is remembered: no lookup


def test_the_groups_of_a_coordinator_gone_away_are_looked_up_again(cluster) -> None:
    client, fake = cluster
    ask(client, ["g1", "g2", "g3"])
    fake.down.add(A.address)
    fake.where.update(g1=B, g3=B)
    assert ask(client, ["g1", "g2", "g3"]) == {"g1": "g1@b", "g2": "g2@b", "g3": "g3@b"}
    assert sorted(fake.lookups[-1]) == ["g1", "g3"]


def test_a_group_still_failing_after_every_attempt_keeps_its_error_and_is_forgotten(
    cluster,
) -> None:
    client, fake = cluster
    fake.down.update({A.address, B.address})
    assert ask(client, ["g1", "g2"]) == {"g1": NO_ANSWER, "g2": NO_ANSWER}
    assert len(fake.lookups) == 4  # every attempt looked them up afresh
    assert client._coordinators == {}
