"""Browsing a topic's records against the real cluster: every position and direction, pages
that neither skip nor repeat (across transaction markers and aborted records), the four
compression codecs, headers with duplicate keys, null keys and tombstones, each forced
decoder, and every bad query a 400 naming its parameter."""

from __future__ import annotations

import base64
import struct
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import orjson
import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

PARTITIONS = 3
PER_PARTITION = 40
# An hour ago, on a whole minute: recent enough that retention (7 days) keeps every record.
BASE_MS = (int(time.time()) // 60 - 60) * 60_000
CODECS = ("gzip", "snappy", "lz4", "zstd")


def _url(topic: str) -> str:
    return f"/api/v1/clusters/local/topics/{topic}/messages"


@pytest.fixture(scope="module")
def plain_topic(stack) -> dict[str, Any]:
    """3 partitions of 40 records each, written by four producers (one per compression
    codec); record i of partition p has CreateTime BASE + i minutes + p seconds, a JSON value,
    a text key (null for every 10th), two headers with the same key, and every 13th value
    a tombstone."""
    client = cluster_client()
    topic = f"it-msg-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
    expected: dict[tuple[int, int], dict[str, Any]] = {}
    for i in range(PER_PARTITION):
        codec = CODECS[i // 10]
        producer = dev.make_producer(client, **{"compression.type": codec, "linger.ms": 50})
        for p in range(PARTITIONS):
            key = None if i % 10 == 0 else f"k-{p}-{i}".encode()
            value = None if i % 13 == 5 else orjson.dumps({"p": p, "i": i, "codec": codec})
            ts = BASE_MS + i * 60_000 + p * 1000
            producer.produce(
                topic,
                value=value,
                key=key,
                partition=p,
                timestamp=ts,
                headers=[("h", b"one"), ("trace", b"\x00\xff"), ("h", b"two")],
            )
            expected[(p, i)] = {"key": key, "value": value, "ts": ts}
        assert producer.flush(30) == 0
    return {"topic": topic, "expected": expected}


def _walk(client, topic: str, query: str, more: str = "") -> Iterator[dict[str, Any]]:
    """Every page from a first query, following next_cursor (with `more`) to the end."""
    response = client.get(f"{_url(topic)}?{query}")
    for _ in range(200):
        assert response.status_code == 200, response.content[:500]
        page = response.json()
        yield page
        if page["scan"]["stopped_by"] == "end":
            return
        response = client.get(f"{_url(topic)}?cursor={page['next_cursor']}&limit=7{more}")
    raise AssertionError("no end after 200 pages")


def _z(moment: datetime) -> str:
    """ISO-8601 in UTC with a Z (a + in a query string reads as a space)."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _ids(records: list[dict]) -> list[tuple[int, int]]:
    return [(r["partition"], r["offset"]) for r in records]


@pytest.mark.parametrize("query", ["position=earliest&limit=7", "position=latest&limit=7"])
def test_pages_neither_skip_nor_repeat(viewer_client, plain_topic, query):
    topic = plain_topic["topic"]
    pages = list(_walk(viewer_client, topic, query))
    seen = [rid for page in pages for rid in _ids(page["records"])]
    assert len(seen) == len(set(seen)), "a record shown twice"
    assert sorted(seen) == sorted(plain_topic["expected"]), "a record skipped"
    forward = query.startswith("position=earliest")
    for page in pages:
        stamps = [r["timestamp_ms"] for r in page["records"]]
        assert stamps == sorted(stamps, reverse=not forward)
        assert len(page["records"]) <= 7
    assert pages[-1]["scan"]["stopped_by"] == "end"


def test_prev_cursor_gives_the_page_before(viewer_client, plain_topic):
    topic = plain_topic["topic"]
    first = viewer_client.get(f"{_url(topic)}?position=earliest&limit=10").json()
    second = viewer_client.get(f"{_url(topic)}?cursor={first['next_cursor']}&limit=10").json()
    back = viewer_client.get(f"{_url(topic)}?cursor={second['prev_cursor']}&limit=10").json()
    assert _ids(back["records"]) == _ids(first["records"])[::-1]  # the same, newest first
    assert set(_ids(second["records"])).isdisjoint(_ids(first["records"]))


def test_every_record_carries_what_was_written(viewer_client, plain_topic):
    topic, expected = plain_topic["topic"], plain_topic["expected"]
    records = [
        r
        for page in _walk(viewer_client, topic, "position=earliest&limit=50")
        for r in page["records"]
    ]
    for r in records:
        want = expected[(r["partition"], r["offset"])]
        assert r["timestamp_ms"] == want["ts"] and r["timestamp_type"] == "CreateTime"
        assert r["timestamp"] == _z(datetime.fromtimestamp(want["ts"] / 1000, UTC))
        if want["key"] is None:
            assert r["key"] is None
        else:
            assert r["key"] == {
                "format": "text",
                "data": want["key"].decode(),
                "size": len(want["key"]),
                "schema_id": None,
                "note": None,
            }
        if want["value"] is None:
            assert r["value"] is None  # a tombstone
        else:
            assert r["value"]["format"] == "json"
            assert r["value"]["data"] == orjson.loads(want["value"])  # every codec read
        assert [(h["key"], h["value"]["format"]) for h in r["headers"]] == [
            ("h", "text"),
            ("trace", "bytes"),
            ("h", "text"),
        ]
        assert [h["value"]["data"] for h in r["headers"]] == [
            "one",
            base64.b64encode(b"\x00\xff").decode(),
            "two",
        ]
        assert r["headers"][1]["value"]["note"].startswith("not UTF-8 text")
    assert {orjson.loads(v["value"])["codec"] for v in expected.values() if v["value"]} == set(
        CODECS
    )


def test_position_offset_and_timestamp_per_partition(viewer_client, plain_topic):
    topic = plain_topic["topic"]
    page = viewer_client.get(f"{_url(topic)}?position=offset&offset=30&partition=1&limit=5").json()
    assert _ids(page["records"]) == [(1, o) for o in range(30, 35)]
    back = viewer_client.get(
        f"{_url(topic)}?position=offset&offset=30&partition=1&direction=backward&limit=5"
    ).json()
    assert _ids(back["records"]) == [(1, o) for o in range(30, 25, -1)]
    # Minute 20 plus 500 ms: partition 0's record 20 is at +0 s (before), so its first is
    # 21; partitions 1 and 2 write at +1 s and +2 s, so their first is record 20.
    moment = _z(datetime.fromtimestamp((BASE_MS + 20 * 60_000 + 500) / 1000, UTC))
    query = f"position=timestamp&timestamp={moment}&limit=3"
    page = viewer_client.get(f"{_url(topic)}?{query}").json()
    assert _ids(page["records"]) == [(1, 20), (2, 20), (0, 21)]
    later = _z(datetime.fromtimestamp((BASE_MS + 10**8) / 1000, UTC))
    empty = viewer_client.get(f"{_url(topic)}?position=timestamp&timestamp={later}").json()
    assert empty["records"] == [] and empty["scan"]["stopped_by"] == "end"


def test_latest_is_the_last_records_in_either_order(viewer_client, plain_topic):
    topic = plain_topic["topic"]
    newest = viewer_client.get(f"{_url(topic)}?position=latest&limit=4").json()
    assert _ids(newest["records"]) == [(2, 39), (1, 39), (0, 39), (2, 38)]
    oldest_first = viewer_client.get(
        f"{_url(topic)}?position=latest&direction=forward&limit=4"
    ).json()
    assert _ids(oldest_first["records"]) == [(2, 38), (0, 39), (1, 39), (2, 39)]
    # Forward from there: nothing newer yet; backward: the records before them.
    assert (
        viewer_client.get(f"{_url(topic)}?cursor={oldest_first['next_cursor']}").json()["records"]
        == []
    )
    before = viewer_client.get(f"{_url(topic)}?cursor={oldest_first['prev_cursor']}&limit=2")
    assert _ids(before.json()["records"]) == [(1, 38), (0, 38)]


@pytest.mark.parametrize(
    "fmt, raw, data",
    [
        ("int", struct.pack(">i", -7), -7),
        ("long", struct.pack(">q", 2**40), 2**40),
        ("double", struct.pack(">d", 2.5), 2.5),
        ("text", b"plain words", "plain words"),
        ("json", b'{"a": [1, 2]}', {"a": [1, 2]}),
        ("bytes", b"\x01\x02", "AQI="),
    ],
)
def test_forced_decoders(viewer_client, stack, fmt, raw, data):
    client = cluster_client()
    topic = f"it-msg-fmt-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {})])
    producer = dev.make_producer(client)
    producer.produce(topic, value=raw, key=raw, partition=0)
    assert producer.flush(30) == 0
    page = viewer_client.get(f"{_url(topic)}?value_format={fmt}&key_format=bytes").json()
    (record,) = page["records"]
    assert record["value"]["format"] == fmt and record["value"]["data"] == data
    assert record["key"]["format"] == "bytes"
    assert base64.b64decode(record["key"]["data"]) == raw


def test_an_undecodable_part_comes_back_as_bytes_with_the_reason(viewer_client, stack):
    client = cluster_client()
    topic = f"it-msg-bad-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {})])
    producer = dev.make_producer(client)
    # A schema id no registry holds (the dev stack's registry hands out small ones).
    producer.produce(topic, value=b"\x00\x7f\xff\xff\xf0avro-ish", partition=0)
    producer.produce(topic, value=b"abc", partition=0)
    assert producer.flush(30) == 0
    framed, short = viewer_client.get(f"{_url(topic)}?position=earliest&value_format=long").json()[
        "records"
    ]
    assert framed["value"]["format"] == "bytes" and framed["value"]["size"] == 13
    assert short["value"]["note"] == "long takes exactly 8 bytes; this part has 3"
    auto = viewer_client.get(f"{_url(topic)}?position=earliest&limit=1").json()["records"][0]
    assert auto["value"]["format"] == "bytes" and auto["value"]["schema_id"] == 0x7FFFFFF0
    assert auto["value"]["note"] == (
        f"schema id {0x7FFFFFF0}: the Schema Registry has no schema with this id"
    )


def test_transactions_aborted_hidden_by_default_marked_when_asked(viewer_client, stack):
    client = cluster_client()
    topic = f"it-msg-tx-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {})])
    producer = dev.make_producer(client, **{"transactional.id": f"tx-{topic}"})
    producer.init_transactions(30)
    values = {}
    for n, outcome in enumerate(["commit", "abort", "commit", "abort", "commit"]):
        producer.begin_transaction()
        for i in range(3):
            producer.produce(topic, value=f"{outcome}-{n}-{i}".encode(), partition=0)
        producer.flush(30)
        if outcome == "commit":
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)
        values[n] = outcome
    # 15 records and 5 markers: offsets 0..19, the committed ones at 0-2, 8-10, 16-18.
    committed = [
        r
        for page in _walk(viewer_client, topic, "position=earliest&limit=2")
        for r in page["records"]
    ]
    assert [r["value"]["data"] for r in committed] == [
        f"commit-{n}-{i}" for n in (0, 2, 4) for i in range(3)
    ]
    assert all("aborted" not in r for r in committed)
    everything = viewer_client.get(
        f"{_url(topic)}?position=earliest&isolation=read_uncommitted&limit=50"
    ).json()
    assert everything["isolation"] == "read_uncommitted"
    marks = {r["value"]["data"]: r["aborted"] for r in everything["records"]}
    assert len(marks) == 15
    assert all(marks[v] == v.startswith("abort") for v in marks)
    backward = [
        r
        for page in _walk(viewer_client, topic, "position=latest&limit=2")
        for r in page["records"]
    ]
    assert [r["offset"] for r in backward] == sorted((r["offset"] for r in committed), reverse=True)


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_filter_matches_equal_a_plain_python_computation(viewer_client, plain_topic, direction):
    topic, expected = plain_topic["topic"], plain_topic["expected"]
    expression = 'value.i % 3 == 0 && value.codec != "lz4" && headers.h == "two" && partition > 0'
    position = "earliest" if direction == "forward" else "latest"
    query = f"position={position}&direction={direction}&limit=4&filter={quote(expression)}"
    pages = list(_walk(viewer_client, topic, query, f"&filter={quote(expression)}"))
    found = [rid for page in pages for rid in _ids(page["records"])]
    want = [
        pi
        for pi, w in expected.items()
        if w["value"] is not None
        and orjson.loads(w["value"])["i"] % 3 == 0
        and orjson.loads(w["value"])["codec"] != "lz4"
        and pi[0] > 0
    ]
    assert sorted(found) == sorted(want) and len(found) == len(set(found))
    assert sum(page["scan"]["matched"] for page in pages) == len(want)
    scanned = sum(page["scan"]["scanned"] for page in pages)
    assert scanned == len(expected)  # every record examined once over the walk


def test_a_filter_that_fails_on_a_record_does_not_match_and_is_counted(viewer_client, plain_topic):
    topic = plain_topic["topic"]
    # Tombstones have a null value: `null.i` cannot be evaluated.
    page = viewer_client.get(
        f"{_url(plain_topic['topic'])}?position=earliest&limit=500&filter={quote('value.i >= 0')}"
    ).json()
    tombstones = sum(1 for w in plain_topic["expected"].values() if w["value"] is None)
    assert page["scan"]["matched"] == len(plain_topic["expected"]) - tombstones
    assert page["scan"]["filter_errors"] == tombstones and page["scan"]["filter_error"]
    assert topic


@pytest.mark.parametrize(
    "expression, column",
    [("value.i ==", 11), ("value.i == 1 &&& true", 16)],
)
def test_a_bad_filter_is_a_400_naming_where(viewer_client, plain_topic, expression, column):
    response = viewer_client.get(f"{_url(plain_topic['topic'])}?filter={quote(expression)}")
    error = assert_error(response, 400)
    assert error["details"] == {"field": "filter", "line": 1, "column": column}


@pytest.mark.parametrize(
    "query, field",
    [
        ("filter=valeu.i%20%3D%3D%201", "filter"),
        ("filter=", "filter"),
        ("position=nowhere", "position"),
        ("position=offset", "offset"),
        ("position=latest&offset=3", "offset"),
        ("position=timestamp", "timestamp"),
        ("position=timestamp&timestamp=2026-01-01T00:00:00", "timestamp"),
        ("position=offset&offset=-1", "offset"),
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("partition=x", "partition"),
        ("partition=99", "partition"),
        ("direction=sideways", "direction"),
        ("key_format=xml", "key_format"),
        ("value_format=", "value_format"),
        ("isolation=dirty", "isolation"),
        ("cursor=c1.bm90IGpzb24", "cursor"),
        ("cursor=nonsense", "cursor"),
        ("offst=3", "offst"),
        ("limit=5&limit=6", "limit"),
    ],
)
def test_a_bad_query_is_a_400_naming_the_parameter(viewer_client, plain_topic, query, field):
    response = viewer_client.get(f"{_url(plain_topic['topic'])}?{query}")
    assert assert_error(response, 400)["details"]["field"] == field


def test_a_cursor_and_a_position_together_are_refused(viewer_client, plain_topic):
    topic = plain_topic["topic"]
    cursor = viewer_client.get(f"{_url(topic)}?position=earliest").json()["next_cursor"]
    response = viewer_client.get(f"{_url(topic)}?cursor={cursor}&position=earliest")
    assert assert_error(response, 400)["details"]["field"] == "position"


def test_unknown_topic_is_404_and_sign_in_is_required(viewer_client, anon_client, stack):
    assert_error(viewer_client.get(_url(f"it-none-{uuid.uuid4().hex[:6]}")), 404, "topic_not_found")
    assert_error(anon_client.get(_url("my-failsafe-topic")), 401)


def _pages_with(topic: str, query, reader=None) -> list[list[tuple[int, int]]]:
    import dataclasses

    from console.clusters import get_cluster
    from messages.browse import browse
    from messages.paging import parse_cursor

    pages = []
    for _ in range(200):
        page = browse(get_cluster("local"), topic, query, reader)
        pages.append(_ids(page["records"]))
        if page["scan"]["stopped_by"] == "end":
            return pages
        query = dataclasses.replace(query, cursor=parse_cursor(page["next_cursor"]))
    raise AssertionError("no end after 200 pages")


@pytest.mark.parametrize("expression", [None, 'headers.h == "two" && partition > 0'])
def test_a_scans_pages_on_one_reader_equal_pages_read_each_afresh(plain_topic, expression):
    """A socket's scan reads its pages with one reader (what a page read ahead is the next
    page's start): page for page, the same records as pages that each read afresh."""
    from console.clusters import get_cluster
    from messages.browse import BrowseQuery, scan_reader

    topic = plain_topic["topic"]
    query = BrowseQuery(position="earliest", limit=7, filter=expression)
    afresh = _pages_with(topic, query)
    reader = scan_reader(get_cluster("local"), topic, query)
    try:
        shared = _pages_with(topic, query, reader)
    finally:
        reader.close()
    assert shared == afresh
    seen = [rid for page in shared for rid in page]
    assert len(seen) == len(set(seen)) and (
        expression or sorted(seen) == sorted(plain_topic["expected"])
    )


@pytest.fixture
def fast_cleaner(stack):
    """The log cleaner looking for work every 0.5 s instead of 15 s (cluster-wide, dynamic),
    put back afterwards."""
    client = cluster_client()
    client.alter_broker_configs(None, {"log.cleaner.backoff.ms": "500"}, [])
    yield
    client.alter_broker_configs(None, {}, ["log.cleaner.backoff.ms"])


def test_pages_neither_skip_nor_repeat_across_a_really_compacted_topic(viewer_client, fast_cleaner):
    """A compacted topic whose cleaner has run: offsets with holes where older values of a key
    were. Forward and backward pages give exactly the records a plain consumer reads, each
    once; the cleaned part holds only the last value of each key."""
    client = cluster_client()
    topic = f"it-msg-compact-{uuid.uuid4().hex[:8]}"
    configs = {
        "cleanup.policy": "compact",
        "segment.ms": "100",
        "min.cleanable.dirty.ratio": "0.01",
        "min.compaction.lag.ms": "0",
        "delete.retention.ms": "100",
    }
    dev.create_topics(client, [(topic, 1, 3, configs)])
    producer = dev.make_producer(client)

    def write(values: range) -> None:
        for n in values:
            producer.produce(topic, key=f"k{n % 8}".encode(), value=f"v{n}".encode(), partition=0)
        assert producer.flush(30) == 0

    write(range(40))  # five values of each of 8 keys

    def offsets() -> list[int]:
        return [o for page in _walk(viewer_client, topic, "position=earliest&limit=50")
                for o in (r["offset"] for r in page["records"])]  # fmt: skip

    def compacted() -> list[int] | None:
        write(range(40, 41))  # a new record rolls the segment the cleaner may then clean
        seen = offsets()
        return seen if len(seen) < 30 else None

    wait_for(compacted, timeout=90, what="the log cleaner to compact the topic", every=2)
    # Compacted once is enough: the log is frozen (no more cleaning) before it is compared,
    # and a cleaning under way when the policy changes has a moment to finish.
    client.alter_topic_configs(topic, {"cleanup.policy": "delete", "retention.ms": "-1"}, [])
    time.sleep(2)
    end = client.list_offsets([(topic, 0)], "latest")[(topic, 0)].offset
    consumer = dev.make_consumer(client, f"it-compact-{topic}", **{"auto.offset.reset": "earliest"})
    dev.assign_from(consumer, topic, {0: 0})
    plain: list[tuple[int, bytes]] = []
    while not plain or plain[-1][0] < end - 1:
        message = consumer.poll(5)
        assert message is not None, "the plain consumer stopped short"
        plain.append((message.offset(), message.value()))
    consumer.close()
    plain = [(o, v) for o, v in plain if o < end]

    for query in ("position=earliest&limit=3", "position=latest&limit=3"):
        pages = list(_walk(viewer_client, topic, query))
        seen = [(r["offset"], r["value"]["data"].encode()) for p in pages for r in p["records"]]
        seen = [(o, v) for o, v in seen if o < end]  # records written while walking
        assert len({o for o, _ in seen}) == len(seen), f"a record shown twice ({query})"
        assert sorted(seen) == plain, f"pages differ from a plain consumer ({query})"
    kept = [o for o, _ in plain]
    assert kept != list(range(len(kept))), "no holes: the topic was not compacted"
