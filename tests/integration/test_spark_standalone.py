"""A job on a real Spark standalone cluster (`devstack spark-up`: a master and a worker from the
installed pyspark) gives the same result as on local[2].

One console; the Procfile's Celery worker runs a topic-export with SPARK_MASTER set to the
standalone master, then a worker with local[2] runs the same job again. On the cluster the
driver runs in the Celery worker's spark-submit (client mode) and the executor, a JVM the Spark
worker starts, reads Kafka with the spark-sql-kafka jars that --jars shipped, and writes the
Parquet files (to a local path here: worker and console share the machine).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.spark_helpers import PARTITIONS, RECORDS, seed_topics, start_spark_console
from tests.stack import devstack, status

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def spark_master(stack) -> Any:
    """The dev stack's standalone master URL; stopped afterwards unless it already ran."""
    was_running = status()["spark_master_url"] is not None
    devstack("spark-up")
    url = status()["spark_master_url"]
    assert url, "devstack spark-up returned but status shows no Spark master"
    yield url
    if not was_running:
        devstack("spark-down")


def _rows(path: str) -> list[dict[str, Any]]:
    """Every written row (the Parquet dataset with its `date=` partition column), in order."""
    rows = pq.read_table(path).to_pylist()
    return sorted(rows, key=lambda r: (r["partition"], r["offset"]))


def test_export_on_standalone_equals_local(stack, spark_master, tmp_path_factory):
    data = seed_topics()
    # Not from the start of partition 0, so the range really is the job's, not the topic's.
    params = {"topic": data["source"], "start_offset": {"0": 3}}
    console = start_spark_console(
        tmp_path_factory.mktemp("spark-standalone"),
        stack["redis_url"],
        12,
        spark_master,
        roles=("operator",),
    )
    jobs = {}
    try:
        # One console, one worker at a time: SPARK_MASTER is the worker's setting.
        for name, master in (("standalone", spark_master), ("local", "local[2]")):
            console.stop_worker()
            console.start_worker(SPARK_MASTER=master)
            job = console.submit("topic-export", params)
            jobs[name] = console.wait(job["id"], {"succeeded", "failed", "lost"}, timeout=150)
            done = jobs[name]
            assert done["state"] == "succeeded", (name, done["error"], done["log_tail"])
    finally:
        console.stop()
    cluster, local = jobs["standalone"], jobs["local"]

    # It really ran on the cluster: a standalone application id, finished, known to the master.
    assert local["spark_app_id"].startswith("local-")
    app_id = cluster["spark_app_id"]
    assert app_id.startswith("app-"), app_id
    with urllib.request.urlopen(f"{status()['spark']['master_ui']}/json/", timeout=5) as answer:
        master = json.load(answer)
    finished = {app["id"]: app for app in master["completedapps"]}
    assert app_id in finished, [a["id"] for a in master["completedapps"]]
    assert finished[app_id]["state"] == "FINISHED"

    per = RECORDS // PARTITIONS
    on_cluster, on_local = cluster["result"], local["result"]
    assert on_cluster["ranges"] == {"0": [3, per], "1": [0, per]}
    assert on_cluster["rows"] == RECORDS - 3
    # The same result but for where it was written; the same rows, byte for byte.
    paths = on_cluster.pop("output_path"), on_local.pop("output_path")
    assert paths[0] != paths[1]
    assert on_cluster == on_local
    assert _rows(paths[0]) == _rows(paths[1])
