"""Spark jobs end to end: a real console (daphne, its own SQLite), the Procfile's Celery
worker, real Spark (local[2]) reading the dev stack's Kafka. Every result is checked against
the same records read independently with confluent-kafka (or Parquet read with pyarrow).

One console and one worker serve the module; the three good jobs are submitted together at
the start so they run while the other tests set up.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import signal
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.spark_helpers import (
    PARTITIONS,
    RECORDS,
    read_records,
    seed_topics,
    start_spark_console,
)
from tests.stack import cluster_client, log_ends, wait_for

pytestmark = pytest.mark.integration

# Every end a job can have: a job lost or cancelled ends the wait at once, and the assertion
# on its state says so with its error, instead of a timeout.
ENDED = {"succeeded", "failed", "lost", "cancelled"}


@pytest.fixture(scope="module")
def data(stack) -> dict[str, Any]:
    """A topic with known records: some null keys, some exact duplicates, sequence numbers."""
    return seed_topics()


@pytest.fixture(scope="module")
def console(stack, tmp_path_factory, data) -> Any:
    workdir = tmp_path_factory.mktemp("spark-console")
    c = start_spark_console(
        workdir,
        stack["redis_url"],
        11,
        "local[2]",
        # Short, so that the killed worker's job is found lost soon; not so short that a
        # running job's heartbeat, late on a busy machine, is taken for a dead worker (6 s once
        # lost a running replay that way, with two Spark applications on two cores).
        SPARK_HEARTBEAT_TIMEOUT="15",
        SPARK_REAPER_INTERVAL="1",
    )
    # The three good jobs run while the other tests go on.
    c.started = {
        "export": c.submit("topic-export", {"topic": data["source"], "start_offset": {"0": 3}}),
        "profile": c.submit("topic-profile", {"topic": data["source"], "sequence_field": "seq"}),
        "replay": c.submit(
            "topic-replay", {"topic": data["source"], "target_topic": data["target"]}
        ),
    }
    yield c
    c.stop()


# Each case is a body, built from the seeded topics (`data`), and the field its 400 names.
BAD_INPUTS = [
    pytest.param(
        lambda data: {"job_type": "topic-shred", "cluster": "local", "params": {"topic": "t"}},
        "job_type",
        id="unknown-job-type",
    ),
    pytest.param(
        lambda data: {"job_type": "topic-export", "cluster": "nowhere", "params": {"topic": "t"}},
        "cluster",
        id="unknown-cluster",
    ),
    pytest.param(
        lambda data: {
            "job_type": "topic-export",
            "cluster": "local",
            "params": {"topic": "no-such-topic"},
        },
        "params.topic",
        id="unknown-topic",
    ),
    pytest.param(
        lambda data: {
            "job_type": "topic-export",
            "cluster": "local",
            "params": {"topic": data["source"], "x": 1},
        },
        "params.x",
        id="unknown-param",
    ),
    pytest.param(
        lambda data: {
            "job_type": "topic-export",
            "cluster": "local",
            "params": {"topic": data["source"], "start_offset": 9, "end_offset": 2},
        },
        "params.end_offset",
        id="end-before-start",
    ),
    pytest.param(
        lambda data: {
            "job_type": "topic-replay",
            "cluster": "local",
            "params": {"topic": data["source"], "target_topic": data["source"]},
        },
        "params.target_topic",
        id="replay-onto-itself",
    ),
]


@pytest.mark.parametrize("body, field", BAD_INPUTS)
def test_bad_inputs_are_400_naming_the_field_and_queue_nothing(console, data, body, field):
    before = console.job_count()
    status, answer = console.call("POST", "spark/jobs", body(data))
    assert status == 400, answer
    assert answer["error"]["details"]["field"] == field, answer
    assert answer["error"]["message"].startswith(field)
    assert console.job_count() == before


def test_a_viewer_may_read_but_not_submit_or_cancel(console, data):
    before = console.job_count()
    body = {"job_type": "topic-export", "cluster": "local", "params": {"topic": data["source"]}}
    status, answer = console.call("POST", "spark/jobs", body, role="viewer")
    assert status == 403 and set(answer) == {"error"}
    job_id = console.started["export"]["id"]
    assert console.call("POST", f"spark/jobs/{job_id}/cancel", role="viewer")[0] == 403
    assert console.call("GET", f"spark/jobs/{job_id}", role="viewer")[0] == 200
    status, types = console.call("GET", "spark/job-types", role="viewer")
    assert status == 200
    assert {"topic-export", "topic-profile", "topic-replay"} <= {t["name"] for t in types}
    assert console.job_count() == before


def test_export_writes_exactly_the_range_as_parquet(console, data):
    job = console.wait(console.started["export"]["id"], ENDED, timeout=180)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    assert job["progress"] == 1.0 and job["spark_app_id"].startswith("local-")
    result = job["result"]
    per = RECORDS // PARTITIONS
    assert result["ranges"] == {"0": [3, per], "1": [0, per]}
    assert result["partitions"] == {"0": per - 3, "1": per}
    assert result["rows"] == 2 * per - 3
    expected = read_records(data["source"], {0: (3, per), 1: (0, per)})
    table = pq.read_table(result["output_path"])
    written = sorted((r["partition"], r["offset"], r["key"], r["value"]) for r in table.to_pylist())
    assert written == expected
    files = list(Path(result["output_path"]).rglob("*.parquet"))
    assert result["files"] == len(files) and result["bytes"] == sum(f.stat().st_size for f in files)
    assert all(f.parent.name.startswith("date=") for f in files)

    # The download: the same records as one gzipped JSON-lines file, through the API, for a
    # viewer; in partition then offset order, keys and values back to their bytes.
    download = result["download"]
    assert download == {
        "path": "_download/export.jsonl.gz",
        "bytes": download["bytes"],
        "records": result["rows"],
        "format": "jsonl.gz",
    }
    assert result["download_skipped"] is None
    on_disk = Path(result["output_path"]) / download["path"]
    assert on_disk.stat().st_size == download["bytes"]
    status, headers, body = console.download(f"spark/jobs/{job['id']}/download", role="viewer")
    assert status == 200, body[:300]
    assert len(body) == download["bytes"] == int(headers["Content-Length"])
    assert headers["Content-Type"] == "application/gzip"
    assert f'filename="{data["source"]}-{job["id"]}.jsonl.gz"' in headers["Content-Disposition"]
    lines = [json.loads(line) for line in gzip.decompress(body).decode("utf-8").splitlines()]

    def as_bytes(text: str | None, encoding: str | None) -> bytes | None:
        if text is None:
            return None
        return base64.b64decode(text) if encoding == "base64" else text.encode("utf-8")

    downloaded = [
        (
            r["partition"],
            r["offset"],
            as_bytes(r["key"], r["key_encoding"]),
            as_bytes(r["value"], r["value_encoding"]),
        )
        for r in lines
    ]
    assert downloaded == expected
    assert all(r["timestamp"].endswith("Z") and "T" in r["timestamp"] for r in lines)
    assert {r["timestamp_type"] for r in lines} <= {"CreateTime", "LogAppendTime"}
    assert all(isinstance(r["headers"], list) for r in lines)
    # A job that is not an export has none.
    profile = console.started["profile"]["id"]
    status, _, body = console.download(f"spark/jobs/{profile}/download", role="viewer")
    assert status == 404 and json.loads(body)["error"]["code"] == "no_download"


def test_profile_counts_match_an_independent_count(console, data):
    job = console.wait(console.started["profile"]["id"], ENDED, timeout=240)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    per = RECORDS // PARTITIONS
    records = read_records(data["source"], {p: (0, per) for p in range(PARTITIONS)})
    summary = job["result"]["summary"]
    assert summary["records"] == len(records)
    assert summary["null_keys"] == sum(1 for r in records if r[2] is None)
    assert summary["distinct_keys"] == len({r[2] for r in records if r[2] is not None})
    copies = Counter((r[2], r[3]) for r in records)
    assert summary["duplicate_records"] == sum(n - 1 for n in copies.values()) > 0
    gaps = missing = backwards = 0
    by_partition: dict[int, list[int]] = defaultdict(list)
    for partition, _, _, value in records:
        by_partition[partition].append(json.loads(value)["seq"])
    for seqs in by_partition.values():
        for before, after in zip(seqs, seqs[1:], strict=False):
            gaps += after - before > 1
            missing += max(after - before - 1, 0)
            backwards += after < before
    assert (gaps, backwards) != (0, 0)
    assert summary["sequence_gaps"] == gaps
    assert summary["sequence_missing"] == missing
    assert summary["sequence_out_of_order"] == backwards
    rows = job["result"]["tables"]["partitions"]["rows"]
    assert {r[0]: r[1] for r in rows} == {p: len(v) for p, v in by_partition.items()}


def test_profile_top_keys_match_an_independent_count(console, data):
    """top_keys: the keys with most records, each with its records, bytes (key + value),
    share and partitions as a plain count over the same records says."""
    job = console.wait(console.started["profile"]["id"], ENDED, timeout=240)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    per = RECORDS // PARTITIONS
    records = read_records(data["source"], {p: (0, per) for p in range(PARTITIONS)})
    expected: dict[str | None, dict[str, Any]] = defaultdict(
        lambda: {"records": 0, "bytes": 0, "partitions": set()}
    )
    for partition, _, key, value in records:
        entry = expected[None if key is None else key.decode("utf-8", "replace")]
        entry["records"] += 1
        entry["bytes"] += len(key or b"") + len(value or b"")
        entry["partitions"].add(partition)
    table = job["result"]["tables"]["top_keys"]
    assert table["columns"] == ["key", "records", "bytes", "share", "partitions"]
    rows = table["rows"]
    # The 20 largest counts, largest first (which of equal counts are listed may differ).
    counts = sorted((e["records"] for e in expected.values()), reverse=True)
    assert [r[1] for r in rows] == counts[:20]
    for key, count, size, share, partitions in rows:
        assert key in expected, key
        want = expected[key]
        assert (count, size) == (want["records"], want["bytes"])
        assert partitions == sorted(want["partitions"])
        assert share == pytest.approx(count / len(records), abs=1e-4)


def test_replay_copies_exactly_the_range(console, data):
    job = console.wait(console.started["replay"]["id"], ENDED, timeout=240)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    per = RECORDS // PARTITIONS
    assert job["result"]["partitions"] == {"0": per, "1": per}
    client = cluster_client()
    ends = log_ends(client, [(data["target"], p) for p in range(PARTITIONS)])
    assert {tp[1]: end for tp, end in ends.items()} == {0: per, 1: per}
    source = read_records(data["source"], {p: (0, per) for p in range(PARTITIONS)})
    copied = read_records(data["target"], {p: (0, per) for p in range(PARTITIONS)})
    assert [(p, k, v) for p, _, k, v in copied] == [(p, k, v) for p, _, k, v in source]


def test_a_job_whose_script_raises_fails_with_the_error_and_log(console, data):
    name = f"twice-{uuid.uuid4().hex[:6]}"
    (console.workdir / "output" / name).mkdir(parents=True)  # an export is never overwritten
    job = console.submit("topic-export", {"topic": data["source"], "output_name": name})
    job = console.wait(job["id"], ENDED, timeout=180)
    assert job["state"] == "failed", (job["state"], job["error"])
    assert "already exists" in job["error"], job["error"]
    assert "Traceback" in job["log_tail"]
    status, text = console.call("GET", f"spark/jobs/{job['id']}/log")
    assert status == 200 and job["spark_app_id"] in text and "PATH_ALREADY_EXISTS" in text
    assert not console.job_processes(job["id"])


def test_cancel_stops_the_job_and_its_jvm(console, data):
    job = console.submit("topic-profile", {"topic": data["source"], "sequence_field": "seq"})
    job = console.wait(job["id"], {"running", "succeeded", "failed"}, timeout=120)
    assert job["state"] == "running"
    assert console.job_processes(job["id"]), "spark-submit should be running"
    asked = time.monotonic()
    status, answer = console.call("POST", f"spark/jobs/{job['id']}/cancel")
    assert status == 202 and answer["cancel_requested"], answer
    job = console.wait(job["id"], {"cancelled", "succeeded", "failed"}, timeout=15)
    assert job["state"] == "cancelled" and time.monotonic() - asked < 15
    assert not console.job_processes(job["id"])
    status, answer = console.call("POST", f"spark/jobs/{job['id']}/cancel")
    assert status == 409 and answer["error"]["code"] == "job_finished"


def test_a_killed_worker_leaves_its_job_lost_and_no_jvm(console, data):
    job = console.submit("topic-profile", {"topic": data["source"]})
    job = console.wait(job["id"], {"running", "succeeded", "failed"}, timeout=120)
    assert job["state"] == "running"
    os.killpg(console.worker.pid, signal.SIGKILL)  # the worker dies; spark-submit lives on
    console.worker.wait(timeout=10)
    console.start_worker()  # its reaper finds the job
    job = console.wait(job["id"], {"lost", "succeeded", "failed"}, timeout=60)
    assert job["state"] == "lost", job
    assert "heartbeat" in job["error"]
    wait_for(lambda: not console.job_processes(job["id"]), timeout=20, what="no JVM left")
