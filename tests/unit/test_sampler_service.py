"""The sampler process's scheduling without Kafka or Redis: metadata changes reach pages
while a lag pass is stuck (a broker that went down holds group reads for their timeout),
and only the lease holder pushes them."""

from __future__ import annotations

import threading
import time

import pytest

from console import metadata_push
from console.clusters import ClusterConfig
from console.kafka.types import Broker, ClusterDescription, PartitionMeta, TopicMeta
from console.metadata import ClusterSnapshot, cache
from groups.lag import store as lag_store
from groups.lag.sampler import ClusterSampler, PassResult
from groups.lag.service import SamplerService

CFG = ClusterConfig("local", "127.0.0.1:1")


def _snapshot(brokers: tuple[int, ...]) -> ClusterSnapshot:
    leader = brokers[0]
    return ClusterSnapshot(
        time.monotonic(),
        ClusterDescription("cid", 1, [Broker(b, f"b{b}", 9092, None) for b in brokers]),
        {"t": TopicMeta("t", False, [PartitionMeta(0, leader, [1, 2, 3], list(brokers))])},
        asked_at=time.time(),
    )


class _Cluster:
    """The brokers the next snapshot shows, and what was pushed."""

    def __init__(self) -> None:
        self.brokers: tuple[int, ...] = (1, 2, 3)
        self.pushed: list[dict] = []
        self.pass_started = threading.Event()
        self.release_pass = threading.Event()


@pytest.fixture
def cluster(monkeypatch) -> _Cluster:
    state = _Cluster()
    monkeypatch.setattr(cache, "snapshot", lambda cfg, max_age=0: _snapshot(state.brokers))
    monkeypatch.setattr(
        metadata_push, "publish_metadata", lambda name, msg, asked_at=0.0: state.pushed.append(msg)
    )

    def stuck_pass(self: ClusterSampler) -> PassResult:
        state.pass_started.set()
        state.release_pass.wait(30)
        return PassResult(True, time.time(), 0.0)

    monkeypatch.setattr(ClusterSampler, "run_pass", stuck_pass)
    monkeypatch.setattr(ClusterSampler, "restore", lambda self: None)
    monkeypatch.setattr(lag_store, "release_lease", lambda cluster, owner: None)
    # The samplers' registry (lease spreading, tests/unit/test_sampler_spread.py): no Redis.
    monkeypatch.setattr(lag_store, "publish_sampler", lambda *args: None)
    monkeypatch.setattr(lag_store, "live_samplers", lambda: {})
    monkeypatch.setattr(lag_store, "remove_sampler", lambda owner: None)
    yield state
    state.release_pass.set()


def _run(service: SamplerService) -> threading.Thread:
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    return thread


def _wait(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_a_broker_leaving_is_pushed_while_the_lag_pass_is_stuck(cluster, monkeypatch):
    monkeypatch.setattr(lag_store, "hold_lease", lambda cluster, owner, ttl: True)
    service = SamplerService([CFG], interval_s=0.1, window=3, retention_risk=0.1)
    thread = _run(service)
    try:
        assert cluster.pass_started.wait(5)
        time.sleep(0.3)  # a few ticks: the baseline, then nothing changed
        assert cluster.pushed == []
        cluster.brokers = (1, 2)
        assert _wait(lambda: cluster.pushed), "no metadata pushed while the pass was stuck"
        assert not cluster.release_pass.is_set()
        message = cluster.pushed[0]
        assert [b["id"] for b in message["brokers"]] == [1, 2]
        assert message["changes"] == [{"topic": "t", "partition": 0, "leader": 1, "isr": [1, 2]}]
    finally:
        service.stop()
        cluster.release_pass.set()
        thread.join(5)


def test_a_standby_sampler_pushes_nothing(cluster, monkeypatch):
    monkeypatch.setattr(lag_store, "hold_lease", lambda cluster, owner, ttl: False)
    service = SamplerService([CFG], interval_s=0.05, window=3, retention_risk=0.1)
    thread = _run(service)
    try:
        time.sleep(0.2)
        cluster.brokers = (1, 2)
        time.sleep(0.3)
        assert cluster.pushed == []
        assert not cluster.pass_started.is_set()
    finally:
        service.stop()
        thread.join(5)


def test_the_watcher_pushes_each_change_once_and_keeps_its_baseline_when_kafka_fails(
    monkeypatch,
):
    from console import kafka

    pushed: list[dict] = []
    monkeypatch.setattr(
        metadata_push, "publish_metadata", lambda name, msg, asked_at=0.0: pushed.append(msg)
    )
    answers: list[object] = [
        _snapshot((1, 2, 3)),
        _snapshot((1, 2, 3)),
        kafka.KafkaTimeout("Kafka did not answer.", code="kafka_unavailable"),
        _snapshot((1, 2)),
        _snapshot((1, 2)),
    ]

    def next_snapshot(cfg, max_age=0):
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(cache, "snapshot", next_snapshot)
    watcher = metadata_push.MetadataWatcher(CFG)
    results = [watcher.tick() for _ in range(5)]
    assert [r is not None for r in results] == [False, False, False, True, False]
    assert len(pushed) == 1 and [b["id"] for b in pushed[0]["brokers"]] == [1, 2]
    watcher.forget()
    monkeypatch.setattr(cache, "snapshot", lambda cfg, max_age=0: _snapshot((1,)))
    assert watcher.tick() is None  # after forget(): a baseline, not a change
