"""The throttles a move sets are exactly those kafka-reassign-partitions.sh --execute sets."""

from __future__ import annotations

from console.kafka import Reassigning
from reassign.plans import Target
from reassign.throttles import (
    FOLLOWER_RATE,
    FOLLOWER_REPLICAS,
    LEADER_RATE,
    LEADER_REPLICAS,
    Move,
    broker_throttles,
    move_map,
    topic_throttles,
)


def _t(topic: str, partition: int, *replicas: int) -> Target:
    return Target(topic, partition, replicas, ("any",) * len(replicas))


def test_the_tools_own_example():
    # t-0 [1,2] -> [2,3], t-1 [2,3] unchanged, --throttle 1000000 on three brokers.
    moves = move_map([_t("t", 0, 2, 3), _t("t", 1, 2, 3)], {("t", 0): [1, 2], ("t", 1): [2, 3]}, {})
    assert moves == {("t", 0): Move((1, 2), (3,)), ("t", 1): Move((2, 3), ())}
    assert topic_throttles(moves) == {
        "t": {LEADER_REPLICAS: "0:1,0:2,1:2,1:3", FOLLOWER_REPLICAS: "0:3"}
    }
    rates = {LEADER_RATE: "1000000", FOLLOWER_RATE: "1000000"}
    assert broker_throttles(moves, 1_000_000) == {1: rates, 2: rates, 3: rates}


def test_lists_sort_as_strings_like_javas_treeset():
    moves = {("t", 10): Move((1,), (2,)), ("t", 2): Move((1,), (3,))}
    assert topic_throttles(moves)["t"] == {
        LEADER_REPLICAS: "10:1,2:1",
        FOLLOWER_REPLICAS: "10:2,2:3",
    }


def test_a_topic_gaining_no_replica_gets_an_empty_follower_list():
    moves = move_map([_t("u", 0, 2, 1)], {("u", 0): [1, 2]}, {})
    assert topic_throttles(moves)["u"][FOLLOWER_REPLICAS] == ""


def test_partitions_moving_elsewhere_in_the_cluster_join_the_map():
    in_flight = {("other", 0): Reassigning([4, 5, 1], adding=[4], removing=[1])}
    moves = move_map([_t("t", 0, 2)], {("t", 0): [1]}, in_flight)
    assert moves[("other", 0)] == Move((5, 1), (4,))
    assert set(topic_throttles(moves)) == {"t", "other"}
    assert set(broker_throttles(moves, 5)) == {1, 2, 4, 5}


def test_a_partition_already_moving_counts_its_original_replicas_as_sources():
    in_flight = {("t", 0): Reassigning([3, 2, 1], adding=[3], removing=[1])}
    moves = move_map([_t("t", 0, 4, 2)], {("t", 0): [3, 2, 1]}, in_flight)
    assert moves[("t", 0)] == Move((2, 1), (4,))
