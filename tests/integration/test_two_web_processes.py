"""Two web processes as the production layout runs them behind one address (deploy/): one
database, one Redis, one secret key. A session signed in on one is valid on the other, a
metadata change the sampler pushes reaches sockets on both, and the sign-in failure limit
counts the attempts made on both."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
import requests
from websockets.sync.client import connect

from tests.live_server import (
    ADMIN,
    LiveConsole,
    password_sign_in,
    start_console,
    start_sampler,
    stop_process,
)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def pair(tmp_path_factory, stack) -> Any:
    first = start_console(tmp_path_factory.mktemp("web-a"))
    second = start_console(tmp_path_factory.mktemp("web-b"), database_url=first.env["DATABASE_URL"])
    workdir = tmp_path_factory.mktemp("web-sampler")
    sampler = start_sampler(first.env, workdir / "sampler.log", interval=1.0)
    _wait_until_the_sampler_watches(first)
    yield first, second
    stop_process(sampler)
    first.stop()
    second.stop()


def test_a_session_signed_in_on_one_process_is_valid_on_the_other(pair):
    first, second = pair
    answer = password_sign_in(first.base, *ADMIN)
    assert answer.status_code == 302, answer.text[:300]
    cookie = answer.session.cookies.get("sessionid")  # type: ignore[attr-defined]
    assert cookie
    me = requests.get(f"{second.base}/api/v1/me", cookies={"sessionid": cookie}, timeout=10)
    assert me.status_code == 200 and me.json()["username"] == ADMIN[0]
    # And without it, the other process does not know us.
    assert requests.get(f"{second.base}/api/v1/me", timeout=10).status_code in (401, 403)


def _metadata_socket(live: LiveConsole, token: str) -> Any:
    url = live.base.replace("http://", "ws://") + "/ws/clusters/local/metadata"
    return connect(
        url,
        origin=live.base,
        additional_headers={"Authorization": f"Token {token}"},
        open_timeout=10,
    )


def _wait_for_topic(ws: Any, topic: str, timeout: float = 30.0) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        if message.get("type") == "metadata" and topic in message.get("topics_added", []):
            return message
    raise AssertionError(f"no metadata push naming {topic} within {timeout} s")


def _wait_until_the_sampler_watches(live: LiveConsole) -> None:
    """Until the sampler pushes metadata changes: its first snapshot is a baseline, so a topic
    made before it is never announced. Topics are made until one is pushed (a fixed wait
    would race with the sampler's start on a loaded machine)."""
    from console.kafka import dev
    from tests.stack import cluster_client

    viewer = live.token("two-web-warm-up", "viewer")
    client = cluster_client()
    with _metadata_socket(live, viewer) as socket:
        for _ in range(12):
            topic = f"two-web-warm-up-{uuid.uuid4().hex[:8]}"
            dev.create_topics(client, [(topic, 1, 1, {})])
            try:
                _wait_for_topic(socket, topic, timeout=5.0)
                return
            except AssertionError:
                continue
            finally:
                client.delete_topics([topic])
    raise AssertionError("the sampler pushed no metadata change within a minute")


def test_a_push_reaches_sockets_on_both_processes(pair):
    first, second = pair
    # One database: valid on both. The admin creates and deletes the topic.
    users = first.tokens({"two-web-viewer": "viewer", "two-web-admin": "admin"})
    viewer, admin = users["two-web-viewer"], users["two-web-admin"]
    topic = f"two-web-{uuid.uuid4().hex[:8]}"
    with _metadata_socket(first, viewer) as on_first, _metadata_socket(second, viewer) as on_second:
        created = requests.post(
            f"{second.base}/api/v1/clusters/local/topics",
            json={"name": topic, "partitions": 1, "replication_factor": 1, "configs": {}},
            headers={"Authorization": f"Token {admin}"},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        one, two = _wait_for_topic(on_first, topic), _wait_for_topic(on_second, topic)
    assert one == two  # the same message, fanned out by each process to its own sockets
    requests.delete(
        f"{first.base}/api/v1/clusters/local/topics/{topic}",
        headers={"Authorization": f"Token {admin}"},
        timeout=30,
    )


def test_the_sign_in_limit_counts_failures_on_both_processes(pair):
    first, second = pair
    name = f"intruder-{uuid.uuid4().hex[:8]}"
    answers = [password_sign_in(first.base, name, "wrong").status_code for _ in range(5)]
    answers += [password_sign_in(second.base, name, "wrong").status_code for _ in range(5)]
    assert answers == [200] * 10  # the form again, with its error: counted, not refused
    assert password_sign_in(first.base, name, "wrong").status_code == 429
    assert password_sign_in(second.base, name, "wrong").status_code == 429
