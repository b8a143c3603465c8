"""Helpers for tests that use the real dev stack through its own command."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")
# Commit errors that mean "the group's coordinator is moving": ask again in a moment.
# Answers to a commit that pass when asked again: the coordinator moved or is loading, or (for
# a topic created a moment ago) the coordinator has not had the metadata that names it yet.
_ASK_AGAIN = (
    "NOT_COORDINATOR",
    "COORDINATOR_NOT_AVAILABLE",
    "COORDINATOR_LOAD_IN_PROGRESS",
    "UNKNOWN_TOPIC_OR_PART",
)


def devstack(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "devstack", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=check,
        timeout=300,
    )


def broker(action: str, node: int | str) -> None:
    """`devstack stop-broker N` or `start-broker N` run in this process: the same code as the
    command, without the 2 s of interpreter and Django start-up a subprocess costs (tests
    that restart brokers in a loop)."""
    from devtools.devstack import cli

    assert action in ("stop-broker", "start-broker"), action
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([action, str(node)])
    if code != 0:
        said = out.getvalue() + err.getvalue()
        raise AssertionError(f"devstack {action} {node}: exit {code}\n{said}")


def procfile_command(name: str) -> list[str]:
    """A Procfile line as arguments (its program made absolute): the tests start the
    processes (the Celery worker) exactly as `bin/run` and the deployment do."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            cmd = shlex.split(line.split(":", 1)[1])
            return [str(ROOT / cmd[0]), *cmd[1:]]
    raise AssertionError(f"Procfile has no {name} line")


def kafka_tool(name: str, *args: str) -> subprocess.CompletedProcess:
    """`devstack tool NAME ARGS` run from this process (the same command line, without the 2 s
    of interpreter and Django start-up): Apache Kafka's tool, its output captured."""
    from devtools.devstack import tools

    return tools.run_tool(name, args, timeout=300)


def status() -> dict[str, Any]:
    return json.loads(devstack("status", "--json").stdout)


def wait_for(probe: Callable[[], T | None], timeout: float, what: str, every: float = 1.0) -> T:
    """Poll `probe` until it returns something truthy; fail with `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; last: {last!r}")


def cluster_client(name: str = "local") -> Any:
    """The console's own client of a registered cluster (`local` or `local-secure`)."""
    from console import kafka
    from console.clusters import get_cluster

    return kafka.for_cluster(get_cluster(name))


def filled_topic(client: Any, topic: str, partitions: int, replication: int, records: int) -> None:
    """Creates `topic` and writes `records` records into each of its partitions (values "0",
    "1", ...), every one acknowledged."""
    from console.kafka import dev

    dev.create_topics(client, [(topic, partitions, replication, {})])
    producer = dev.make_producer(client)
    for partition in range(partitions):
        for i in range(records):
            producer.produce(topic, value=str(i), partition=partition)
    assert producer.flush(30) == 0


def produce_written_at(client: Any, topic: str, count: int, written_at_ms: int) -> None:
    """Writes `count` records into partition 0 of `topic` with the given CreateTime (records
    of the past, for retention), every one acknowledged."""
    from console.kafka import dev

    producer = dev.make_producer(client)
    for i in range(count):
        producer.produce(topic, value=f"r{i}".encode(), partition=0, timestamp=written_at_ms)
    assert producer.flush(30) == 0


def commit_and_wait(client: Any, group: str, offsets: dict) -> None:
    """Commit offsets for an idle group and wait until a fresh read returns them.

    Right after a group coordinator moves (brokers restarted by earlier tests, then leaders
    rebalanced), a commit can be answered NOT_COORDINATOR (it is asked again), and one
    acknowledged by the coordinator that was moving away can be lost (KAFKA-20634): one not
    read back within 5 s is committed again. On a topic created a moment before, the
    coordinator (another broker than the partition's leader) may answer UNKNOWN_TOPIC_OR_PART
    until the new metadata reaches it: asked again too.
    """

    def commit() -> dict | None:
        errors = client.commit_offsets(group, offsets)
        failed = {tp: e for tp, e in errors.items() if e}
        if failed and all(e.startswith(_ASK_AGAIN) for e in failed.values()):
            return None  # ask again
        return {"errors": failed}

    def visible() -> bool:
        committed = client.committed_offsets({group: list(offsets)}, stable=True)[group]
        return all(committed.get(tp) == offset for tp, offset in offsets.items())

    deadline = time.monotonic() + 30
    while True:
        errors = wait_for(commit, timeout=30, what=f"a coordinator of {group}", every=0.5)
        assert not errors["errors"], errors["errors"]
        try:
            wait_for(visible, timeout=5, what=f"offsets of {group} to be readable", every=0.3)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def log_ends(client: Any, partitions: list) -> dict:
    """Log end offsets of partitions, waiting until a new topic's leaders answer."""

    errors: dict = {}

    def read() -> dict | None:
        ends = client.list_offsets(partitions, "latest")
        errors.clear()
        errors.update({tp: str(r) for tp, r in ends.items() if isinstance(r, Exception)})
        if errors:
            return None
        return {tp: r.offset for tp, r in ends.items()}

    try:
        return wait_for(read, timeout=30, what=f"leaders of {partitions[:3]}", every=0.3)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; errors: {dict(list(errors.items())[:3])}") from None


def group_after_old_and_recent_records(client: Any, prefix: str) -> tuple[str, str]:
    """A fresh 1-partition topic with ten hour-old records (offsets 0-9) and ten minute-old
    ones (10-19), and a group committed at 15: its lag in time is about a minute, and an
    hour after a reset to an offset below 10. (topic, group)."""
    import uuid

    from console.kafka import dev

    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-g"
    dev.create_topics(client, [(topic, 1, 3, {})])
    now_ms = int(time.time() * 1000)
    produce_written_at(client, topic, 10, now_ms - 3_600_000)
    produce_written_at(client, topic, 10, now_ms - 60_000)
    commit_and_wait(client, group, {(topic, 0): 15})
    return topic, group
