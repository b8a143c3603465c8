"""The lag samplers spread the clusters' leases: two sampler processes over two clusters hold
one each, and when one is killed the other takes its cluster over within a lease.

The clusters are copies of the dev stack's two listeners (`local`, PLAINTEXT, and
`local-secure`, SASL_SSL) under names of their own, so that no other sampler of the test run
serves them."""

from __future__ import annotations

import json
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from groups.lag import store as lag_store
from tests.live_server import process_env, start_sampler, stop_process
from tests.stack import wait_for

pytestmark = [pytest.mark.integration]

INTERVAL = 1.0


@pytest.fixture(scope="module")
def spread_env(tmp_path_factory, stack) -> Any:
    """The samplers' environment: a registry of only two fresh clusters (no web server needed)."""
    from django.conf import settings

    tag = uuid.uuid4().hex[:8]
    entries = {e["name"]: e for e in settings.DEFAULT_KAFKA_CLUSTERS}
    registry = [
        {**entries["local"], "name": f"spread-{tag}"},
        {**entries["local-secure"], "name": f"spread-secure-{tag}"},
    ]
    workdir = tmp_path_factory.mktemp("sampler-spread")
    # An inherited KAFKA_CLUSTERS_FILE would win over KAFKA_CLUSTERS: emptied.
    extra = {"KAFKA_CLUSTERS": json.dumps(registry), "KAFKA_CLUSTERS_FILE": ""}
    return process_env(workdir, extra), [e["name"] for e in registry], workdir


def _holders(clusters: list[str]) -> list[int | None]:
    """The pid of each cluster's lease holder (None: nobody holds it)."""
    owners = [lag_store.lease_holder(c) for c in clusters]
    return [int(o.split(":")[1]) if o else None for o in owners]


def _last_pass(cluster: str) -> float:
    """When the cluster's last pass on record ended (0: none on record yet)."""
    meta = lag_store.read_meta(cluster)
    return 0.0 if meta is None else float(meta["ts"])


def _in_loop(log: Path) -> bool:
    """Whether the sampler logging to `log` has asked for its leases (it is in its loop)."""
    text = log.read_text() if log.exists() else ""
    return "standing by" in text or "sampling (lease" in text


def test_two_samplers_hold_one_cluster_each_and_one_takes_over_the_other(spread_env):
    env, clusters, workdir = spread_env
    a_log, b_log = workdir / "sampler-a.log", workdir / "sampler-b.log"
    processes: list[subprocess.Popen] = []
    try:
        # A alone: it serves both clusters, nobody else does, so it takes both.
        a = start_sampler(env, a_log, INTERVAL, cluster=None)
        processes.append(a)
        wait_for(
            lambda: _holders(clusters) == [a.pid, a.pid], 60, "sampler A to hold both", every=0.1
        )

        # B: once it is in its loop, A gives one lease up and B takes it.
        b = start_sampler(env, b_log, INTERVAL, cluster=None)
        processes.append(b)
        wait_for(lambda: _in_loop(b_log), 60, "sampler B in its loop", every=0.1)
        joined = time.monotonic()
        wait_for(
            lambda: set(_holders(clusters)) == {a.pid, b.pid},
            15,
            "one lease for each sampler",
            every=0.1,
        )
        settled = time.monotonic() - joined
        # A gives one up at the end of its pass (up to 2 s on a loaded machine, whatever the
        # interval), B takes it at its next ask (every half interval).
        assert settled <= 5 * INTERVAL + 1.0, settled
        settled_holders = _holders(clusters)
        deadline = time.monotonic() + 3 * INTERVAL
        while time.monotonic() < deadline:  # and so it stays: nobody takes a second one
            assert _holders(clusters) == settled_holders
            time.sleep(0.1)
        assert a_log.read_text().count("giving up the lease of") == 1
        assert "giving up the lease of" not in b_log.read_text()

        # B dies without releasing its lease: A takes it once it expires (1.5 intervals; B's
        # registry entry expired before that, after 1 interval, so A no longer counts B).
        stop_process(b, signal.SIGKILL)
        died = time.monotonic()
        wait_for(
            lambda: _holders(clusters) == [a.pid, a.pid],
            10,
            "sampler A to hold both again",
            every=0.1,
        )
        took = time.monotonic() - died
        assert took <= 2 * INTERVAL + 1.0, took

        # And A samples both. A cluster may have no pass on record yet: A can give a lease up
        # before its first pass of that cluster ends (the SASL_SSL one connects slowly on a
        # loaded machine), and B can be killed before its own first pass ends.
        first = {c: _last_pass(c) for c in clusters}
        for cluster in clusters:
            wait_for(
                lambda c=cluster: _last_pass(c) > first[c],
                20,
                f"a pass of {cluster} after the takeover",
                every=0.1,
            )
        assert _holders(clusters) == [a.pid, a.pid]
    finally:
        for process in processes:
            stop_process(process)
