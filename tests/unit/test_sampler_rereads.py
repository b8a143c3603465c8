"""What the sampler reads again each pass and what it keeps: record timestamps that could not
be read are asked again only every few passes, partition sizes are read whole every few
passes and at once for a partition not seen before."""

from __future__ import annotations

from console.kafka.types import LogDir, ReplicaSize
from groups.lag import partition_sizes
from groups.lag.partition_sizes import PartitionSizes
from groups.lag.timestamps import RETRY_UNREAD_EVERY, RecordTimestamps

A, B = ("t", 0), ("t", 1)


class TimestampsClient:
    def __init__(self, answers: dict) -> None:
        self.answers = answers
        self.asked: list[list] = []

    def record_timestamps_at(self, positions):
        positions = list(positions)
        self.asked.append(positions)
        return {p: self.answers.get(p) for p in positions}


def test_a_position_without_a_timestamp_is_asked_again_only_every_few_passes():
    client = TimestampsClient({(A, 5): 1_000})
    timestamps = RecordTimestamps()
    wanted = {(A, 5), (B, 7)}  # B's record at 7 gives nothing (deleted, a marker, a timeout)
    assert timestamps.refresh(client, wanted) == 2
    assert timestamps.of(A, 5, None) == 1_000 and timestamps.of(B, 7, None) is None
    for _ in range(RETRY_UNREAD_EVERY - 1):
        assert timestamps.refresh(client, wanted) == 0
    assert len(client.asked) == 1
    client.answers[(B, 7)] = 2_000  # it can be read now: asked again, and kept
    assert timestamps.refresh(client, wanted) == 1
    assert client.asked[-1] == [(B, 7)]
    assert timestamps.of(B, 7, None) == 2_000
    assert timestamps.unread == {}


def test_a_new_position_is_read_at_once_and_a_position_left_is_forgotten():
    client = TimestampsClient({})
    timestamps = RecordTimestamps()
    timestamps.refresh(client, {(A, 5)})  # unreadable
    client.answers[(A, 6)] = 3_000
    assert timestamps.refresh(client, {(A, 6)}) == 1  # the group moved on: a new position
    assert timestamps.of(A, 6, None) == 3_000
    assert timestamps.unread == {}  # (A, 5) is no longer wanted: forgotten
    client.answers[(A, 5)] = 4_000
    assert timestamps.refresh(client, {(A, 5), (A, 6)}) == 1  # back at 5: read at once
    assert timestamps.of(A, 5, None) == 4_000


class SizesClient:
    def __init__(self, sizes: dict) -> None:
        self.sizes = sizes
        self.asked: list[set] = []

    def describe_log_dirs(self, partitions):
        self.asked.append(set(partitions))
        replicas = [
            ReplicaSize(topic, partition, self.sizes[(topic, partition)], 0, False)
            for topic, partition in partitions
        ]
        return {1: [LogDir("/data", 0, None, None, replicas)]}


def test_sizes_are_read_whole_every_few_passes_and_new_partitions_at_once():
    client = SizesClient({A: 100, B: 200})
    sizes = PartitionSizes()
    assert sizes.refresh(client, [A], passes=0) == 1
    client.sizes[A] = 150
    for passes in range(1, partition_sizes.EVERY):
        sizes.refresh(client, [A], passes=passes)
    assert sizes.of(A) == 100  # kept between the whole reads
    assert sizes.refresh(client, [A, B], passes=partition_sizes.EVERY + 1) == 1  # B is new
    assert client.asked[-1] == {B} and sizes.of(B) == 200
    assert sizes.refresh(client, [A, B], passes=2 * partition_sizes.EVERY) == 2
    assert sizes.of(A) == 150
    sizes.refresh(client, [B], passes=2 * partition_sizes.EVERY + 1)
    assert sizes.of(A) is None  # no longer asked: forgotten
