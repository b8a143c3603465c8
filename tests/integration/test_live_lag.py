"""Live lag end to end: the real sampler process, the real console (daphne) and a real
WebSocket client, on the dev stack's Kafka and Redis.

One group goes through the phases an operator sees: it falls behind (WARN), catches up
(OK), its consumer stops while the producer keeps writing (ERR/STOP, lag seconds growing
with the wall clock), and an offset reset moves it backwards (REWIND).
"""

from __future__ import annotations

import json
import signal
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import connect

from console.kafka import dev
from groups.lag import store as lag_store
from tests.live_server import LiveConsole, start_console, start_sampler, stop_process
from tests.stack import cluster_client, commit_and_wait, wait_for
from tests.traffic import PARTITIONS, Consumer, Producer

pytestmark = [pytest.mark.integration]

INTERVAL = 1.0  # seconds between samples: the phases below take a minute, not ten


@pytest.fixture(scope="module")
def console(tmp_path_factory, stack) -> Any:
    workdir = tmp_path_factory.mktemp("live-lag")
    live = start_console(workdir)
    sampler = start_sampler(live.env, workdir / "sampler.log", INTERVAL)
    yield live, sampler, workdir
    stop_process(sampler)
    live.stop()


class LagSocket:
    """A WebSocket client on /ws/clusters/local/lag, keeping the messages for one group."""

    def __init__(self, ws: Any, group: str):
        self.ws, self.group = ws, group
        self.ws.send(json.dumps({"subscribe": {"groups": [group]}}))

    def next_lag(self, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                return None
            if message.get("type") == "lag" and message.get("group_id") == self.group:
                return message
        return None

    def wait_lag(self, accept: Callable[[dict], bool], timeout: float, what: str) -> dict:
        last: dict | None = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.next_lag(deadline - time.monotonic())
            if message is not None:
                last = message
                if accept(message):
                    return message
        raise AssertionError(f"no lag message with {what} in {timeout:.0f} s; last: {last}")


def lag_socket(live: LiveConsole, token: str) -> Any:
    url = live.base.replace("http://", "ws://") + f"/ws/clusters/local/lag?token={token}"
    return connect(url, origin=live.base, open_timeout=10)


def independent_lag(group: str, topic: str) -> int:
    """log end - committed, summed over the partitions, read straight from Kafka."""
    client = cluster_client()
    tps = [(topic, p) for p in range(PARTITIONS)]
    committed = client.committed_offsets({group: tps})[group]
    ends = client.list_offsets(tps, "latest")
    return sum(ends[tp].offset - (committed[tp] or 0) for tp in tps)


def test_a_lagging_group_is_pushed_through_its_phases(console):
    live, _sampler, _ = console
    topic = f"live-lag-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-group"
    client = cluster_client()
    dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
    users = live.tokens({"live-viewer": "viewer", "live-operator": "operator"})
    token, operator = users["live-viewer"], users["live-operator"]

    producer = Producer(topic, rate=40)
    producer.start()
    consumer = Consumer(topic, group)
    consumer.rate = 10  # slower than the producer: lag grows
    consumer.start()
    with lag_socket(live, token) as ws:
        try:
            _phases(live, LagSocket(ws, group), producer, consumer, group, topic, operator)
        finally:
            producer.stopped.set()
            consumer.stopped.set()


def _phases(live, socket, producer, consumer, group, topic, operator) -> None:
    """WARN, caught up, ERR/STOP with lag seconds, exact lag, REWIND: in that order."""
    # 1. Falling behind while committing: WARN.
    socket.wait_lag(lambda m: m["status"] == "WARN", 60, "status WARN")

    # 2. Caught up soon after the consumer runs at full speed.
    consumer.rate = None
    # (The producer keeps writing: "caught up" is OK with records seconds old at most.)
    socket.wait_lag(
        lambda m: m["status"] == "OK" and (m["max_lag_seconds"] or 0) < 2,
        60,
        "OK and caught up",
    )

    # 3. The consumer stops; the producer keeps writing for twice the window (10 samples of
    # 1 s): the window holds only commits from after the stop by then.
    consumer.stopped.set()
    consumer.join(timeout=30)
    stopped_at = time.time()
    while time.time() - stopped_at < 20:  # keep reading: a full queue would stall the socket
        socket.next_lag(1)
    message = socket.wait_lag(
        lambda m: m["status"] in ("ERR", "STOP") and m["state"] == "Empty",
        20,
        "status ERR or STOP after the consumer stopped",
    )
    message = socket.next_lag(5) or message
    seconds = message["max_lag_seconds"]
    waited = time.time() - stopped_at
    assert seconds is not None and abs(seconds - waited) <= 10, (seconds, waited)

    # 4. The producer pauses: the pushed lag equals log end - committed read from Kafka.
    producer.pause()
    expected = independent_lag(group, topic)
    socket.wait_lag(
        lambda m: m["total_lag"] == expected,
        15,
        f"total_lag {expected} (log end - committed, read independently)",
    )
    assert sum(p["lag"] for p in message["partitions"]) == message["total_lag"]

    # 5. An executed reset backwards: REWIND.
    import urllib.request

    body = json.dumps(
        {
            "scope": {"all_topics": True},
            "strategy": {"type": "shift_by", "shift": -5},
            "dry_run": False,
            "reason": "live lag test",
        }
    ).encode()
    request = urllib.request.Request(
        f"{live.base}/api/v1/clusters/local/groups/{group}/offset-resets",
        data=body,
        method="POST",
        headers={"Authorization": f"Token {operator}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
    socket.wait_lag(lambda m: m["status"] == "REWIND", 20, "status REWIND after the reset")


def _get_json(live: LiveConsole, token: str, path: str) -> Any:
    """GET /api/v1{path} with an API token: the JSON answer (an error status raises)."""
    import urllib.request

    request = urllib.request.Request(
        f"{live.base}/api/v1{path}", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_rest_answers_carry_the_evaluation_and_history(console):
    live, _sampler, _ = console
    token = live.token("live-viewer-2", "viewer")

    def evaluated() -> list | None:
        meta = lag_store.read_meta("local")
        if not meta or not meta.get("ok"):
            return None  # no pass yet: the list would be a live read
        return _get_json(live, token, "/clusters/local/groups") or None

    rows = wait_for(evaluated, timeout=30, what="a group evaluated by the sampler")
    row = rows[0]
    assert row["status"] in ("OK", "WARN", "ERR", "STOP", "STALL", "REWIND", "UNKNOWN")
    assert row["retention_risk"] in ("none", "near", "lost")
    group = row["group_id"]
    history_path = f"/clusters/local/groups/{group}/lag-history?window=1h"
    history = wait_for(
        lambda: _get_json(live, token, history_path)["points"] or None,
        timeout=15,
        what=f"history points of {group}",
    )
    assert {"ts", "topic", "lag", "lag_seconds", "write_per_s", "consume_per_s"} <= set(history[0])


def test_metrics_parse_and_equal_the_api(console):
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    live, _sampler, _ = console
    topic = f"metrics-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-idle"
    client = cluster_client()
    dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
    producer = dev.make_producer(client, **{"acks": "all"})
    for i in range(30):
        producer.produce(topic, value=b"x", partition=i % PARTITIONS)
    assert producer.flush(30) == 0
    commit_and_wait(client, group, {(topic, 0): 3, (topic, 1): 11})
    token = live.token("metrics-viewer", "viewer")

    def scrape() -> dict[str, dict]:
        with urllib.request.urlopen(f"{live.base}/metrics", timeout=30) as response:
            text = response.read().decode()
        out: dict[str, dict] = {}
        for family in text_string_to_metric_families(text):  # raises on bad text format
            for sample in family.samples:
                if sample.labels.get("group") == group:
                    key = (sample.labels.get("topic"), sample.labels.get("partition"))
                    out.setdefault(sample.name, {})[key] = sample.value
        return out

    metrics = wait_for(
        lambda: (m := scrape()).get("kafka_consumergroup_group_lag") and m,
        20,
        f"metrics of {group}",
    )
    detail = _get_json(live, token, f"/clusters/local/groups/{group}")
    lags = {(o["topic"], str(o["partition"])): o["lag"] for o in detail["offsets"]}
    assert lags == {(topic, "0"): 12, (topic, "1"): 4}
    assert metrics["kafka_consumergroup_group_lag"] == {k: float(v) for k, v in lags.items()}
    assert metrics["kafka_consumergroup_group_sum_lag"] == {(None, None): detail["total_lag"]}
    assert metrics["kafka_consumergroup_group_max_lag"] == {(None, None): 12.0}
    offsets = metrics["kafka_consumergroup_group_offset"]
    assert offsets == {(topic, "0"): 3.0, (topic, "1"): 11.0}


def test_redis_down_the_api_still_serves_and_everything_resumes(console):
    from devtools.devstack import redis_server

    live, sampler, _ = console
    token = live.token("live-viewer-3", "viewer")
    import urllib.error
    import urllib.request

    def get(path: str) -> tuple[int, Any]:
        request = urllib.request.Request(
            f"{live.base}/api/v1{path}", headers={"Authorization": f"Token {token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    wait_for(lambda: lag_store.read_meta("local"), 15, "a first pass of the sampler")
    redis_server.stop()
    try:
        status, rows = get("/clusters/local/groups")
        assert status == 200 and isinstance(rows, list)  # straight from Kafka
        # Read live, so with this read's time, and no evaluation to add.
        assert all(r["status"] == "UNKNOWN" and r["sampled_at"] is not None for r in rows)
        status, body = get("/clusters/local/groups/any/lag-history")
        assert status == 503 and body["error"]["code"] == "lag_store_unavailable"
        time.sleep(2)
        assert sampler.poll() is None and live.alive()  # nobody died
    finally:
        redis_server.ensure_running(log=lambda *_: None)
    back = time.monotonic()
    wait_for(lambda: lag_store.ping() and lag_store.read_meta("local"), 15, "a pass after Redis")
    assert time.monotonic() - back <= 5 + 1.0

    def served() -> bool:
        latest = lag_store.read_latest("local")
        rows = get("/clusters/local/groups")[1]
        return bool(latest) and all(
            r["status"] == latest[r["group_id"]]["status"] for r in rows if r["group_id"] in latest
        )

    wait_for(served, 10, "evaluations served again")


def test_a_standby_sampler_takes_over_within_two_intervals(console):
    live, sampler, workdir = console
    holder = wait_for(lambda: lag_store.lease_holder("local"), 15, "the lease of cluster local")
    standby_log = workdir / "standby.log"
    standby = start_sampler(live.env, standby_log, INTERVAL)
    try:
        # Killed only once the standby is in its loop: on a loaded machine its start-up alone
        # can take seconds, which are not the takeover's.
        wait_for(lambda: "standing by" in standby_log.read_text(), 60, "the standby to stand by")
        time.sleep(2 * INTERVAL)
        assert lag_store.lease_holder("local") == holder  # the standby does no double work
        stop_process(sampler, signal.SIGKILL)  # dies without releasing its lease
        died = time.monotonic()
        new = wait_for(
            lambda: (h := lag_store.lease_holder("local")) and h != holder and h,
            timeout=10,
            what="the standby to take the lease",
            every=0.1,
        )
        took = time.monotonic() - died
        assert took <= 2 * INTERVAL + 1.0, took
        first = lag_store.read_meta("local")["ts"]
        wait_for(
            lambda: lag_store.read_meta("local")["ts"] > first, 10, "a pass by the new sampler"
        )
        assert new.split(":")[1] == str(standby.pid)
    finally:
        stop_process(standby)


@pytest.mark.django_db
def test_a_standby_restores_the_windows_the_active_sampler_stored(stack, settings):
    """Windows go to Redis every few passes; a standby taking over starts from them (its
    first evaluations are not UNKNOWN for want of samples)."""
    import dataclasses

    from console.clusters import get_cluster
    from groups.lag.sampler import WINDOWS_STORED_EVERY, ClusterSampler

    settings.REDIS_URL = stack["redis_url"]
    # Its own cluster name: the store is keyed by it, apart from any sampler running for local.
    cfg = dataclasses.replace(get_cluster("local"), name=f"standby-{uuid.uuid4().hex[:6]}")
    active = ClusterSampler(cfg, interval_s=INTERVAL)
    for _ in range(WINDOWS_STORED_EVERY + 1):  # stores at its first pass and then every N
        assert active.run_pass().ok
    stored = lag_store.read_windows(cfg.name)
    assert stored and set(stored) == set(active.windows.by_group)
    standby = ClusterSampler(cfg, interval_s=INTERVAL)
    standby.restore()
    for group, windows in active.windows.by_group.items():
        assert set(standby.windows.of(group)) == set(windows)
        # The active window as of the last store (not full yet, so a prefix of it now).
        for tp, window in windows.items():
            restored = list(standby.windows.of(group)[tp])
            assert restored and restored == list(window)[: len(restored)]


def test_history_series_are_bounded_and_expire(stack, settings, monkeypatch):
    """Points go to each group's hour list (trimmed to an hour of samples) and, on minute
    passes only, to its day list, and on ten-minute passes to its week list (trimmed to its
    length); the lists carry their TTLs. Groups in several script calls (more than one chunk)
    all get theirs."""
    settings.REDIS_URL = stack["redis_url"]
    monkeypatch.setattr(lag_store, "D7_POINTS", 2)  # a short week, to see it trimmed
    cluster = f"series-{uuid.uuid4().hex[:6]}"
    groups = [f"g{i}" for i in range(lag_store._APPEND_CHUNK + 5)]
    interval = 600.0  # six points make an hour
    keep = lag_store.h1_length(interval)
    for n in range(keep + 3):
        points = {g: [float(n), {"t": [n, None, None, None, "OK"]}] for g in groups}
        lag_store.append_history(
            cluster,
            points,
            minute_points=n % 2 == 0,
            interval_s=interval,
            ten_minute_points=n % 3 == 0,
        )
    for group in (groups[0], groups[-1]):
        hour = lag_store.read_history(cluster, group, "1h")
        assert [p[0] for p in hour] == [float(n) for n in range(3, keep + 3)]
        day = lag_store.read_history(cluster, group, "24h")
        assert [p[0] for p in day] == [float(n) for n in range(0, keep + 3, 2)]
        week = lag_store.read_history(cluster, group, "7d")
        assert [p[0] for p in week] == [3.0, 6.0]  # 0.0 trimmed away
    r = lag_store._client()
    h1_ttl = r.ttl(lag_store.key(cluster, "h1", groups[-1]))
    h24_ttl = r.ttl(lag_store.key(cluster, "h24", groups[-1]))
    d7_ttl = r.ttl(lag_store.key(cluster, "d7", groups[-1]))
    assert 0 < h1_ttl <= lag_store.H1_SECONDS and lag_store.H1_SECONDS < h24_ttl
    assert lag_store.H24_SECONDS < d7_ttl <= lag_store.D7_SECONDS
    r.delete(*[lag_store.key(cluster, k, g) for g in groups for k in ("h1", "h24", "d7")])
