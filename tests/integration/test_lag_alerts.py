"""Lag alerts end to end: a running console, its lag sampler (1 s passes) and the Procfile's
Celery worker; a rule made over the API; a real HTTP receiver in this process. A group whose
oldest unread record gets older than the rule's threshold is alerted once, and recovered once;
a rule whose receiver is down is tried again with growing pauses and recorded as failed, while
the sampler's passes go on as before."""

from __future__ import annotations

import json
import statistics
import subprocess
import threading
import time
import urllib.request
import uuid
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from console.kafka import dev
from tests.live_server import start_console, start_sampler, stop_process
from tests.stack import (
    cluster_client,
    commit_and_wait,
    procfile_command,
    produce_written_at,
    wait_for,
)

pytestmark = [pytest.mark.integration]

INTERVAL = 1.0


class Receiver(BaseHTTPRequestHandler):
    got: list[tuple[float, dict]] = []

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Receiver.got.append((time.time(), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def stack_redis(stack, settings):
    settings.REDIS_URL = stack["redis_url"]  # where the sampler stores its passes


@pytest.fixture(scope="module")
def console(tmp_path_factory, stack):
    workdir = tmp_path_factory.mktemp("alerts")
    live = start_console(workdir)
    env = {**live.env, "ALERT_RETRY_BASE_SECONDS": "0.5", "ALERT_DELIVERY_ATTEMPTS": "5"}
    worker = subprocess.Popen(
        procfile_command("worker"),
        env=env,
        stdout=(workdir / "worker.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    sampler = start_sampler(live.env, workdir / "sampler.log", INTERVAL)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield live, f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    stop_process(sampler)
    stop_process(worker)
    live.stop()


def _call(live, token: str, method: str, path: str, body: Any = None) -> Any:
    request = urllib.request.Request(
        f"{live.base}/api/v1/{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _pass_seconds() -> float | None:
    """The last pass's duration, as the sampler stored it."""
    from groups.lag import store

    meta = store.read_meta("local")
    return meta.get("duration_s") if meta else None


def _at(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def test_a_rule_fires_once_on_the_transition_and_once_on_recovery(console, stack_redis):
    live, hook = console
    token = live.token("alerts-operator", "operator")
    client = cluster_client()
    topic = f"alerts-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-g"
    dev.create_topics(client, [(topic, 1, 3, {})])
    produce_written_at(client, topic, 10, int(time.time() * 1000) - 300_000)  # 5 minutes old
    commit_and_wait(client, group, {(topic, 0): 10})  # caught up: nothing to alert
    rule = _call(live, token, "POST", "alerts/rules", {
        "name": "too far behind", "cluster": "local", "group_pattern": group,
        "lag_seconds_over": 120, "channel": "webhook", "target": hook, "repeat_interval_s": 0,
    })  # fmt: skip
    wait_for(lambda: _seen_ok(live, token, group), 30, "the sampler to see the group caught up")
    time.sleep(3 * INTERVAL)
    assert [b for _, b in Receiver.got if b["alert"]["group_id"] == group] == []

    moved = time.time()
    commit_and_wait(client, group, {(topic, 0): 0})  # 5-minute-old records unread: over 120 s

    def alerted(kind: str) -> list[tuple[float, dict]]:
        return [
            (t, b)
            for t, b in Receiver.got
            if b["alert"]["group_id"] == group and b["alert"]["kind"] == kind
        ]

    wait_for(lambda: alerted("firing"), timeout=30, what="the firing webhook")
    ((arrived, body),) = alerted("firing")
    alert = body["alert"]
    assert alert["rule_id"] == rule["id"] and alert["cluster"] == "local"
    assert alert["reason"].startswith("lag ") and "over 2 m" in alert["reason"]
    assert alert["snapshot"]["total_lag"] == 10
    events = _call(live, token, "GET", f"alerts/events?rule={rule['id']}")
    sent = next(e for e in events if e["kind"] == "firing")
    after_pass = arrived - _at(sent["at"])
    print(f"\ncommit -> webhook {arrived - moved:.2f} s; pass -> webhook {after_pass:.2f} s")
    assert sent["state"] == "delivered" and sent["attempts"][0]["answer"] == "HTTP 200"

    commit_and_wait(client, group, {(topic, 0): 10})
    wait_for(lambda: alerted("resolved"), timeout=30, what="the resolved webhook")
    time.sleep(3 * INTERVAL)
    assert len(alerted("firing")) == 1 and len(alerted("resolved")) == 1  # once each


def _seen_ok(live, token: str, group: str) -> bool:
    rows = _call(live, token, "GET", "clusters/local/groups")
    return any(r["group_id"] == group and r["status"] == "OK" for r in rows)


def test_a_dead_receiver_is_retried_with_backoff_and_never_slows_the_sampler(console, stack_redis):
    live, _ = console
    token = live.token("alerts-operator", "operator")
    client = cluster_client()
    topic = f"alerts-dead-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-g"
    dev.create_topics(client, [(topic, 1, 3, {})])
    produce_written_at(client, topic, 5, int(time.time() * 1000) - 300_000)
    before = []
    for _ in range(5):
        before.append(_pass_seconds())
        time.sleep(INTERVAL)
    rule = _call(live, token, "POST", "alerts/rules", {
        "name": "dead receiver", "cluster": "local", "group_pattern": group,
        "lag_seconds_over": 120, "channel": "slack", "target": "http://127.0.0.1:9/hook",
    })  # fmt: skip
    commit_and_wait(client, group, {(topic, 0): 0})

    def failed() -> dict | None:
        events = _call(live, token, "GET", f"alerts/events?rule={rule['id']}")
        return next((e for e in events if e["state"] == "failed"), None)

    during = []
    deadline = time.monotonic() + 90
    while (event := failed()) is None and time.monotonic() < deadline:
        during.append(_pass_seconds())
        time.sleep(INTERVAL)
    assert event is not None, "the alert was never marked failed"
    attempts = event["attempts"]
    assert len(attempts) == 5 and not any(a["ok"] for a in attempts)
    assert all("refused" in a["answer"].lower() for a in attempts), attempts
    stamps = [_at(a["at"]) for a in attempts]
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    assert gaps[-1] >= gaps[0], gaps  # the pauses grow (0.5, 1, 2, 4 s)
    known_before = [s for s in before if s is not None]
    known_during = [s for s in during if s is not None]
    print(
        f"\npass seconds before: median {statistics.median(known_before):.3f}; while retrying: "
        f"median {statistics.median(known_during):.3f} (n={len(known_during)})"
    )
    assert known_during, "the sampler kept passing while the alert was retried"
