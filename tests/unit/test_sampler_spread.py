"""How the lag samplers spread the clusters' leases (groups.lag.spread), without Redis or
Kafka: the two rules, a model of many samplers following them, and the sampler service on
an in-memory lease store."""

from __future__ import annotations

import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groups.lag import service as service_module
from groups.lag import store as lag_store
from groups.lag.sampler import ClusterSampler, PassResult
from groups.lag.service import SamplerService
from groups.lag.spread import should_release, should_take

# --- the rules ---------------------------------------------------------------------------


def test_a_free_lease_nobody_else_can_take_is_taken():
    assert should_take(0, [])
    assert should_take(5, [])


def test_a_free_lease_goes_to_a_sampler_holding_no_more_than_the_others():
    assert should_take(0, [0, 3])
    assert should_take(1, [1, 2])  # a tie: whoever asks first
    assert not should_take(1, [0])
    assert not should_take(3, [2, 7])


def test_a_lease_is_given_up_only_to_a_sampler_holding_two_fewer():
    assert should_release(2, [0])
    assert should_release(3, [4, 1])
    assert not should_release(2, [1])  # one fewer: giving up would only move the imbalance
    assert not should_release(1, [0])
    assert not should_release(1, [1, 1])
    assert not should_release(9, [])  # nobody else serves the cluster


@given(st.integers(0, 50), st.lists(st.integers(0, 50), max_size=6))
def test_a_sampler_never_gives_up_what_it_would_not_take(mine, others):
    # Given up at `mine`, the lease would be taken back at `mine - 1`: no ping-pong.
    if should_release(mine, others):
        assert not should_take(mine - 1, others)


# --- a model: samplers following the rules settle ------------------------------------------


def _settle(serves: list[set[int]], held: dict[int, int], rng: random.Random) -> int:
    """Rounds of the rules until nothing moves: each sampler gives one lease up at most per
    round, then each free lease is asked for by its servers in random order. `held` maps
    cluster -> holder (changed in place); the rounds it took."""
    clusters = set().union(*serves)
    for rounds in range(1, 10 * len(clusters) + 10):
        counts = [sum(1 for h in held.values() if h == s) for s in range(len(serves))]
        moved = False
        for s in rng.sample(range(len(serves)), len(serves)):
            for c in rng.sample(sorted(held), len(held)):
                others = [counts[o] for o in range(len(serves)) if o != s and c in serves[o]]
                if held[c] == s and should_release(counts[s], others):
                    del held[c]
                    counts[s] -= 1
                    moved = True
                    break  # one a round
        for c in rng.sample(sorted(clusters - set(held)), len(clusters - set(held))):
            servers = [s for s in range(len(serves)) if c in serves[s]]
            for s in rng.sample(servers, len(servers)):
                others = [counts[o] for o in servers if o != s]
                if should_take(counts[s], others):
                    held[c] = s
                    counts[s] += 1
                    moved = True
                    break
        if not moved:
            return rounds
    raise AssertionError(f"still moving: {held}")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 7), min_size=1), min_size=1, max_size=5),
    st.randoms(use_true_random=False),
)
def test_samplers_settle_with_each_holder_at_most_one_above_the_other_servers(serves, rng):
    # Start from the worst case of before: the first sampler holds all it serves.
    held = {c: 0 for c in serves[0]}
    _settle(serves, held, rng)
    counts = [sum(1 for h in held.values() if h == s) for s in range(len(serves))]
    assert set(held) == set().union(*serves)  # every cluster is sampled
    for cluster, holder in held.items():
        assert cluster in serves[holder]
        for other, served in enumerate(serves):
            if other != holder and cluster in served:
                assert counts[holder] <= counts[other] + 1, (serves, held)


@pytest.mark.parametrize(("samplers", "clusters"), [(2, 2), (3, 2), (2, 5), (4, 10)])
def test_samplers_serving_every_cluster_hold_counts_one_apart(samplers, clusters):
    serves = [set(range(clusters)) for _ in range(samplers)]
    held = dict.fromkeys(range(clusters), 0)
    _settle(serves, held, random.Random(7))
    counts = [sum(1 for h in held.values() if h == s) for s in range(samplers)]
    assert max(counts) - min(counts) <= 1 and sum(counts) == clusters


# --- the service on an in-memory store ----------------------------------------------------


class _Store:
    """Leases and the samplers' registry as Redis holds them, in memory; a sampler marked
    dead makes no more calls (a killed process)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.leases: dict[str, tuple[str, float]] = {}
        self.samplers: dict[str, dict] = {}
        self.dead: set[str] = set()

    def hold_lease(self, cluster: str, owner: str, ttl_s: float) -> bool:
        with self.lock:
            now = time.monotonic()
            holder = self.leases.get(cluster)
            if owner in self.dead or (holder and holder[0] != owner and holder[1] > now):
                return False
            self.leases[cluster] = (owner, now + ttl_s)
            return True

    def release_lease(self, cluster: str, owner: str) -> None:
        with self.lock:
            if owner not in self.dead and self.leases.get(cluster, ("",))[0] == owner:
                del self.leases[cluster]

    def holder(self, cluster: str) -> str | None:
        with self.lock:
            holder = self.leases.get(cluster)
            return holder[0] if holder and holder[1] > time.monotonic() else None

    def publish_sampler(self, owner: str, clusters: list[str], held: int, ttl_s: float) -> None:
        with self.lock:
            if owner not in self.dead:
                expires = time.monotonic() + ttl_s
                self.samplers[owner] = {"expires": expires, "clusters": clusters, "held": held}

    def live_samplers(self) -> dict[str, dict]:
        with self.lock:
            now = time.monotonic()
            return {o: e for o, e in self.samplers.items() if e["expires"] > now}

    def remove_sampler(self, owner: str) -> None:
        with self.lock:
            if owner not in self.dead:
                self.samplers.pop(owner, None)


class _Watcher:
    def __init__(self, cfg) -> None:
        pass

    def tick(self) -> None:
        pass

    def forget(self) -> None:
        pass


INTERVAL = 0.2
CLUSTERS = ["x", "y"]


@pytest.fixture
def fake(monkeypatch) -> _Store:
    fake = _Store()
    for name in ("hold_lease", "release_lease", "publish_sampler", "live_samplers"):
        monkeypatch.setattr(lag_store, name, getattr(fake, name))
    monkeypatch.setattr(lag_store, "remove_sampler", fake.remove_sampler)
    monkeypatch.setattr(lag_store, "write_windows", lambda *args, **kwargs: None)
    monkeypatch.setattr(service_module, "MetadataWatcher", _Watcher)
    monkeypatch.setattr(ClusterSampler, "restore", lambda self: None)

    def quick_pass(self: ClusterSampler) -> PassResult:
        time.sleep(0.01)
        return PassResult(True, time.time(), 0.01)

    monkeypatch.setattr(ClusterSampler, "run_pass", quick_pass)
    return fake


def _start(fake: _Store) -> tuple[SamplerService, threading.Thread]:
    from console.clusters import ClusterConfig

    cfgs = [ClusterConfig(name, "127.0.0.1:1") for name in CLUSTERS]
    service = SamplerService(cfgs, interval_s=INTERVAL, window=3, retention_risk=0.1)
    thread = threading.Thread(target=service.run, daemon=True)
    thread.start()
    return service, thread


def _wait(condition, timeout: float) -> float:
    """Seconds until `condition()` held; fails after `timeout`."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "timed out"
        time.sleep(0.01)
    return time.monotonic() - started


def test_a_second_sampler_gets_one_lease_and_takes_the_other_when_the_first_dies(fake):
    first, first_thread = _start(fake)
    second: SamplerService | None = None
    second_thread: threading.Thread | None = None
    try:
        _wait(lambda: [fake.holder(c) for c in CLUSTERS] == [first.owner] * 2, 5)
        second, second_thread = _start(fake)
        _wait(lambda: {fake.holder(c) for c in CLUSTERS} == {first.owner, second.owner}, 5)
        settled = [fake.holder(c) for c in CLUSTERS]
        for _ in range(int(3 * INTERVAL / 0.01)):  # and it stays so
            assert [fake.holder(c) for c in CLUSTERS] == settled
            time.sleep(0.01)

        fake.dead.add(first.owner)  # killed: no more calls, nothing released
        first.stop()
        took = _wait(lambda: [fake.holder(c) for c in CLUSTERS] == [second.owner] * 2, 5)
        assert took <= 2 * INTERVAL + 0.5, took
    finally:
        first.stop()
        first_thread.join(5)
        if second and second_thread:
            second.stop()
            second_thread.join(5)


def test_without_the_registry_a_sampler_keeps_sampling_what_it_holds(fake, monkeypatch):
    def unavailable() -> dict:
        raise lag_store.StoreUnavailable("Redis: down")

    service, thread = _start(fake)
    try:
        _wait(lambda: service.active_clusters() == set(CLUSTERS), 5)
        monkeypatch.setattr(lag_store, "live_samplers", unavailable)
        time.sleep(3 * INTERVAL)
        assert service.active_clusters() == set(CLUSTERS)
        assert [fake.holder(c) for c in CLUSTERS] == [service.owner] * 2
    finally:
        service.stop()
        thread.join(5)


def test_a_clean_stop_releases_the_leases_and_leaves_the_registry(fake):
    service, thread = _start(fake)
    _wait(lambda: service.active_clusters() == set(CLUSTERS), 5)
    assert service.owner in fake.live_samplers()
    service.stop()
    thread.join(5)
    assert [fake.holder(c) for c in CLUSTERS] == [None, None]
    assert service.owner not in fake.samplers
