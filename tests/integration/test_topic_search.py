"""The `topic-search` Spark job: the same matches as the messages browser's filtered scan and
as a plain-Python computation over the same records, Schema Registry values included; a filter
that does not compile is a 400 before anything is queued."""

from __future__ import annotations

import uuid
from typing import Any

import orjson
import pyarrow.parquet as pq
import pytest

from console.kafka import dev
from tests.spark_helpers import start_spark_console
from tests.stack import cluster_client

pytestmark = [pytest.mark.integration]

CELERY_DB = 9  # others: test_pm_features 10, test_spark_jobs 11, ..., test_pm_model 15
PARTITIONS = 3
RECORDS = 3000
KINDS = ("start", "stop", "alarm")
# The event's kind is an enum of another subject (a schema reference): both the browser and
# the Spark job follow it through the registry.
KIND_AVRO = orjson.dumps(
    {"type": "enum", "name": "Kind", "namespace": "search", "symbols": list(KINDS)}
).decode()
AVRO = (
    '{"type": "record", "name": "Event", "namespace": "search", "fields": '
    '[{"name": "n", "type": "long"}, {"name": "kind", "type": "search.Kind"}]}'
)
FILTER = 'value.kind == "alarm" && value.n % 7 == 0 || headers.source == "edge"'


def _value(i: int) -> dict[str, Any]:
    return {"n": i, "kind": KINDS[i % 3]}


@pytest.fixture(scope="module")
def topic(stack) -> dict[str, Any]:
    """JSON values, every 50th value Avro through the registry, every 40th record with a
    `source: edge` header (and a null key on every 25th)."""
    from console.clusters import get_cluster

    name = f"it-search-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(name, PARTITIONS, 3, {})])
    from console.kafka.registry import for_registry

    kind_subject = f"{name}-kind"
    for_registry(get_cluster("local").schema_registry).register(kind_subject, KIND_AVRO, "AVRO")
    avro = dev.registry_serializer(
        get_cluster("local"), "avro", AVRO, references=[("search.Kind", kind_subject, 1)]
    )
    producer = dev.make_producer(client)
    for i in range(RECORDS):
        raw = avro(_value(i), name) if i % 50 == 0 else orjson.dumps(_value(i))
        headers = [("source", b"edge")] if i % 40 == 0 else [("source", b"plant")]
        key = None if i % 25 == 0 else f"eq-{i % 17}".encode()
        producer.produce(name, key=key, value=raw, partition=i % PARTITIONS, headers=headers)
    assert producer.flush(60) == 0
    expected = {
        i for i in range(RECORDS) if (KINDS[i % 3] == "alarm" and i % 7 == 0) or i % 40 == 0
    }
    return {"name": name, "expected": expected}


@pytest.fixture(scope="module")
def console(stack, tmp_path_factory) -> Any:
    c = start_spark_console(
        tmp_path_factory.mktemp("search"), stack["redis_url"], CELERY_DB, "local[2]"
    )
    yield c
    c.stop()


def _browser_matches(console, topic: str) -> list[tuple[int, int, Any]]:
    """Every match of the messages browser's filtered scan, page by page."""
    from urllib.parse import quote

    found, cursor = [], None
    while True:
        query = f"position=earliest&limit=500&filter={quote(FILTER)}"
        query += f"&cursor={cursor}" if cursor else ""
        status, page = console.call(
            "GET", f"clusters/local/topics/{topic}/messages?{query}", role="viewer"
        )
        assert status == 200, page
        found += [(r["partition"], r["offset"], r["value"]["data"]) for r in page["records"]]
        if page["scan"]["stopped_by"] == "end" or not page["records"]:
            return found
        cursor = page["next_cursor"]


def test_the_spark_search_finds_what_the_browser_and_plain_python_find(console, topic):
    job = console.submit("topic-search", {"topic": topic["name"], "filter": FILTER})
    job = console.wait(job["id"], {"succeeded", "failed"}, timeout=300)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    result = job["result"]
    assert result["records"] == RECORDS and result["filter_errors"] == 0
    assert result["matched"] == len(topic["expected"]) and not result["truncated"]
    spark = [(m["partition"], m["offset"], m["value"]["data"]) for m in result["matches"]]
    # Plain Python: record i went to partition i % 3 at offset i // 3.
    assert sorted(spark) == sorted(
        (i % PARTITIONS, i // PARTITIONS, _value(i)) for i in topic["expected"]
    )
    assert sorted(spark) == sorted(_browser_matches(console, topic["name"]))
    # Every match is in the Parquet too, as the result shows it.
    written = pq.read_table(result["output_path"]).to_pylist()
    assert sorted((r["partition"], r["offset"], orjson.loads(r["value"])) for r in written) == [
        (p, o, m["value"])
        for p, o, m in sorted((m["partition"], m["offset"], m) for m in result["matches"])
    ]
    avro = [m for m in result["matches"] if m["value"]["format"] == "avro"]
    assert avro and all(m["value"]["schema_id"] for m in avro)  # decoded through the registry
    assert {h["key"] for m in result["matches"] for h in m["headers"]} == {"source"}


def test_max_matches_lists_the_first_by_partition_and_offset_and_counts_all(console, topic):
    job = console.submit(
        "topic-search",
        {"topic": topic["name"], "filter": FILTER, "max_matches": 5, "partitions": [1]},
    )
    job = console.wait(job["id"], {"succeeded", "failed"}, timeout=300)
    assert job["state"] == "succeeded", (job["error"], job["log_tail"])
    result = job["result"]
    in_one = sorted(i // PARTITIONS for i in topic["expected"] if i % PARTITIONS == 1)
    assert result["matched"] == len(in_one) and result["truncated"] is True
    assert [(m["partition"], m["offset"]) for m in result["matches"]] == [
        (1, o) for o in in_one[:5]
    ]
    written = pq.read_table(result["output_path"]).to_pylist()  # all of them, not only 5
    assert sorted(r["offset"] for r in written) == in_one


@pytest.mark.parametrize(
    "params, field",
    [
        ({"filter": "value.n >"}, "params.filter"),
        ({"filter": "nope == 1"}, "params.filter"),
        ({}, "params.filter"),
        ({"filter": "true", "max_matches": 0}, "params.max_matches"),
        ({"filter": "true", "value_format": "xml"}, "params.value_format"),
    ],
)
def test_a_bad_search_is_a_400_naming_the_field_and_queues_nothing(console, topic, params, field):
    before = console.job_count()
    status, body = console.call(
        "POST",
        "spark/jobs",
        {
            "job_type": "topic-search",
            "cluster": "local",
            "params": {"topic": topic["name"], **params},
        },
    )
    assert status == 400, body
    assert body["error"]["details"]["field"] == field, body
    assert console.job_count() == before
