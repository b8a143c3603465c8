"""Job params: schema errors name the field, defaults fill in, cluster checks refuse."""

from __future__ import annotations

import time

import pytest

from console import kafka
from console.errors import BadInput
from console.metadata import ClusterSnapshot
from sparkjobs.catalog import JOB_TYPES, get_job_type
from sparkjobs.job_types import (
    check_params,
    parse_time_ms,
    result_problem,
    validate_params,
)
from sparkjobs.ranges import plan_ranges

EXPORT, PROFILE, REPLAY = (JOB_TYPES[n] for n in ("topic-export", "topic-profile", "topic-replay"))


def _snapshot(**topics: int) -> ClusterSnapshot:
    metas = {
        name: kafka.TopicMeta(
            name, False, [kafka.PartitionMeta(p, 1, [1], [1]) for p in range(count)]
        )
        for name, count in topics.items()
    }
    return ClusterSnapshot(time.monotonic(), kafka.ClusterDescription("c", 1, []), metas)


def _field(excinfo: pytest.ExceptionInfo) -> str:
    return excinfo.value.details["field"]


def test_a_topic_alone_is_a_whole_range_with_defaults():
    params = validate_params(EXPORT, {"topic": "t"})
    assert params == {
        "topic": "t",
        "partitions": None,
        "start_offset": None,
        "end_offset": None,
        "start_time": None,
        "end_time": None,
        "output_name": None,
        "download": True,
    }
    assert validate_params(PROFILE, {"topic": "t"})["sequence_scope"] == "partition"
    assert validate_params(REPLAY, {"topic": "t", "target_topic": "u"})["preserve_partitions"]


@pytest.mark.parametrize(
    ("job_type", "params", "field"),
    [
        (EXPORT, {}, "params.topic"),
        (EXPORT, [], "params"),
        (EXPORT, {"topic": "t", "colour": 1}, "params.colour"),
        (EXPORT, {"topic": "t", "partitions": [0, -1]}, "params.partitions[1]"),
        (EXPORT, {"topic": "t", "start_offset": "x"}, "params.start_offset"),
        (EXPORT, {"topic": "t", "start_offset": {"zero": 1}}, "params.start_offset"),
        (EXPORT, {"topic": "t", "output_name": "../etc"}, "params.output_name"),
        (PROFILE, {"topic": "t", "sequence_scope": "topic"}, "params.sequence_scope"),
        (REPLAY, {"topic": "t"}, "params.target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "u", "keys": []}, "params.keys"),
    ],
)
def test_schema_errors_name_the_field(job_type, params, field):
    with pytest.raises(BadInput) as excinfo:
        validate_params(job_type, params)
    assert _field(excinfo) == field
    assert excinfo.value.message.startswith(field)


def test_unknown_job_type():
    with pytest.raises(BadInput) as excinfo:
        get_job_type("topic-shred")
    assert _field(excinfo) == "job_type"


@pytest.mark.parametrize(
    ("job_type", "params", "field"),
    [
        (EXPORT, {"topic": "nope"}, "params.topic"),
        (EXPORT, {"topic": "t", "partitions": [0, 3]}, "params.partitions"),
        (EXPORT, {"topic": "t", "start_offset": 10, "end_offset": 5}, "params.end_offset"),
        (
            EXPORT,
            {"topic": "t", "end_offset": {"0": 5}, "start_offset": {"0": 6}},
            "params.end_offset",
        ),
        (
            EXPORT,
            {"topic": "t", "start_offset": {"2": 6}, "partitions": [0]},
            "params.start_offset",
        ),
        (
            EXPORT,
            {"topic": "t", "start_time": "2026-01-02T00:00:00Z", "end_time": "2026-01-01T00:00Z"},
            "params.end_time",
        ),
        (EXPORT, {"topic": "t", "start_time": "2026-01-02T00:00:00"}, "params.start_time"),
        (EXPORT, {"topic": "t", "start_time": "yesterday"}, "params.start_time"),
        (
            EXPORT,
            {"topic": "t", "start_offset": 1, "start_time": "2026-01-02T00:00Z"},
            "params.start_time",
        ),
        (REPLAY, {"topic": "t", "target_topic": "t"}, "params.target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "nope"}, "params.target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "small"}, "params.preserve_partitions"),
    ],
)
def test_checks_against_the_cluster_name_the_field(job_type, params, field):
    snap = _snapshot(t=3, small=1, u=3)
    with pytest.raises(BadInput) as excinfo:
        check_params(job_type, snap, validate_params(job_type, params))
    assert _field(excinfo) == field


def test_valid_params_pass_the_cluster_checks():
    snap = _snapshot(t=3, small=1)
    check_params(EXPORT, snap, validate_params(EXPORT, {"topic": "t", "start_offset": 3}))
    replay = {"topic": "t", "target_topic": "small", "preserve_partitions": False}
    check_params(REPLAY, snap, validate_params(REPLAY, replay))


def test_times_need_a_zone_and_count_exact_millis():
    assert parse_time_ms("1970-01-01T00:00:01.250+00:00", "f") == 1250
    assert parse_time_ms("1970-01-01T01:00:00+01:00", "f") == 0


def test_ranges_default_to_the_log_and_are_clamped():
    low, high = {0: 5, 1: 0}, {0: 10, 1: 0}
    assert plan_ranges([0, 1], low, high, {}, {}) == {0: (5, 10), 1: (0, 0)}
    assert plan_ranges([0], low, high, {0: 2}, {0: 99}) == {0: (5, 10)}
    assert plan_ranges([0], low, high, {0: 7}, {0: 8}) == {0: (7, 8)}
    # An end (from a time) before the start is an empty range, not a negative one.
    assert plan_ranges([0], low, high, {0: 9}, {0: 6}) == {0: (9, 9)}


def test_a_result_is_checked_against_its_schema():
    good = {"rows": 1, "bytes": 2, "files": 1, "output_path": "/x", "partitions": {"0": 1}}
    good["download"] = None
    assert result_problem(EXPORT, {**good, "ranges": {"0": [0, 1]}}) is None
    assert "ranges" in (result_problem(EXPORT, good) or "")
    # The download: null or a file of the one format; the script always says which.
    with_ranges = {**good, "ranges": {"0": [0, 1]}}
    file = {"path": "_download/export.jsonl.gz", "bytes": 9, "records": 1, "format": "jsonl.gz"}
    assert result_problem(EXPORT, {**with_ranges, "download": file}) is None
    assert result_problem(EXPORT, {**with_ranges, "download": {**file, "format": "csv"}})
    assert "download" in (result_problem(EXPORT, {**good, "ranges": {}, "download": 1}) or "")
    no_download = {k: v for k, v in with_ranges.items() if k != "download"}
    assert "download" in (result_problem(EXPORT, no_download) or "")


@pytest.mark.parametrize(
    ("job_type", "params", "field"),
    [
        # The console's own lag export: a replay once wrote a foreign record into it.
        (REPLAY, {"topic": "t", "target_topic": "kafka-console-lag-samples"}, "target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "__consumer_offsets"}, "target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "__transaction_state"}, "target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "__share_group_state"}, "target_topic"),
        (REPLAY, {"topic": "t", "target_topic": "marked"}, "target_topic"),
        (REPLAY, {"topic": "__consumer_offsets", "target_topic": "t"}, "topic"),
        (EXPORT, {"topic": "__consumer_offsets"}, "topic"),
        (PROFILE, {"topic": "marked"}, "topic"),
    ],
)
def test_internal_and_console_topics_are_refused_as_targets_and_internal_as_sources(
    settings, job_type, params, field
):
    settings.LAG_EXPORT_TOPIC = "kafka-console-lag-samples"
    snap = _snapshot(t=3, **{"kafka-console-lag-samples": 3, "__consumer_offsets": 50})
    marked = kafka.TopicMeta("marked", True, [kafka.PartitionMeta(0, 1, [1], [1])])
    snap.topics["marked"] = marked  # a topic the cluster marks internal, whatever its name
    with pytest.raises(BadInput) as caught:
        check_params(job_type, snap, validate_params(job_type, params))
    assert _field(caught) == f"params.{field}"
    assert "internal" in caught.value.message or "the console itself" in caught.value.message


def test_the_lag_export_topic_may_still_be_read(settings):
    settings.LAG_EXPORT_TOPIC = "kafka-console-lag-samples"
    snap = _snapshot(**{"kafka-console-lag-samples": 3})
    check_params(EXPORT, snap, validate_params(EXPORT, {"topic": "kafka-console-lag-samples"}))
