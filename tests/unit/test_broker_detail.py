"""The broker page's pure parts: log-dir rows, directory errors, API version names."""

from __future__ import annotations

from console.kafka.api_names import NAMES, api_name
from console.kafka.types import LogDir, ReplicaSize
from topics.broker_detail import api_version_rows, dir_error, log_dir_rows


def test_log_dir_rows_keep_sizes_and_name_errors():
    dirs = [
        LogDir("/a", 0, 100, 40, [ReplicaSize("t", 0, 12, 0, False)]),
        LogDir("/b", 56, None, None, []),
    ]
    rows = log_dir_rows(dirs)
    assert rows[0]["replicas"] == [
        {"topic": "t", "partition": 0, "size_bytes": 12, "offset_lag": 0, "is_future": False}
    ]
    assert (rows[0]["total_bytes"], rows[0]["usable_bytes"], rows[0]["error"]) == (100, 40, None)
    assert rows[1]["error"] == "KAFKA_STORAGE_ERROR"


def test_an_unknown_dir_error_is_given_by_its_code():
    assert dir_error(0) is None
    assert dir_error(57) == "LOG_DIR_NOT_FOUND"
    assert dir_error(99) == "error code 99"


def test_api_versions_are_named_as_the_cli_names_them_and_sorted_by_key():
    rows = api_version_rows({18: (0, 4), 0: (3, 12), 999: (0, 0)})
    assert [(r["key"], r["api"], r["min"], r["max"]) for r in rows] == [
        (0, "Produce", 3, 12),
        (18, "ApiVersions", 0, 4),
        (999, "UNKNOWN(999)", 0, 0),
    ]


def test_every_key_up_to_the_newest_known_has_a_name():
    assert sorted(NAMES) == list(range(max(NAMES) + 1))
    assert api_name(35) == "DescribeLogDirs"
