"""The groups list from the sampler's latest pass: the rows the pass stored, used only while a
sampler holds the cluster and its last pass succeeded at most two intervals ago; otherwise
None (the list is then read live). And a row is the list's row of the evaluation."""

from __future__ import annotations

import json

from groups.lag import store
from groups.lag.rest import FRESH_PASSES, groups_json_from_pass
from groups.lag.rows import list_row

NOW = 1_800_000_000.0
META = {"ok": True, "ts": NOW - 3, "interval_s": 5.0}


def _evaluation(group: str) -> dict:
    return {
        "group_id": group,
        "ts": NOW - 3,
        "state": "Stable",
        "protocol_type": "consumer",
        "member_count": 2,
        "topic_names": ["orders"],
        "total_lag": 7,
        "max_lag": 5,
        "status": "OK",
        "topics": {"orders": {"write_per_s": 1.0, "consume_per_s": 2.0}},
        "partitions": [{"topic": "orders", "partition": 0, "lag": 5}],
    }


def test_a_row_is_the_groups_list_row_of_the_evaluation_as_of_its_pass():
    row = list_row(_evaluation("a"))
    assert (row["group_id"], row["state"], row["protocol_type"]) == ("a", "Stable", "consumer")
    assert (row["member_count"], row["topics"], row["total_lag"], row["max_lag"]) == (
        2, ["orders"], 7, 5,
    )  # fmt: skip
    assert row["status"] == "OK" and row["rates"] == {"write_per_s": 1.0, "consume_per_s": 2.0}
    assert row["sampled_at"] == "2027-01-15T07:59:57+00:00"  # the pass, not now
    assert "partitions" not in row


def _stored(rows: dict[str, dict]) -> dict[bytes, bytes]:
    """The rows as Redis hands them back: group id and row JSON, as the sampler wrote them."""
    return {g.encode(): store.json_bytes(row) for g, row in rows.items()}


def groups_from_pass(rows: dict[str, dict], meta, holder, now) -> list[dict] | None:
    body = groups_json_from_pass(_stored(rows), meta, holder, now)
    return None if body is None else json.loads(body)


def test_a_recent_pass_answers_the_list_in_group_order_with_its_rows_as_stored():
    ids = ("b", "a", "é-group", "Z", "ä")
    rows = {g: list_row(_evaluation(g)) for g in ids}
    rows["b"]["topics"] = ["t\udc80"]  # a lone surrogate: stored by json, escaped
    listed = groups_from_pass(rows, META, "s-1", NOW)
    assert listed is not None
    assert [r["group_id"] for r in listed] == sorted(ids)  # the order a str sort gives
    assert listed == [rows[g] for g in sorted(ids)]
    assert groups_from_pass({}, META, "s-1", NOW) == []  # no groups: not a live read


def test_without_a_usable_pass_the_list_is_read_live():
    rows = {"a": list_row(_evaluation("a"))}
    assert groups_from_pass(rows, META, None, NOW) is None  # no sampler holds the cluster
    assert groups_from_pass(rows, None, "s-1", NOW) is None  # no pass recorded
    assert groups_from_pass(rows, {**META, "ok": False}, "s-1", NOW) is None  # it failed
    old = {**META, "ts": NOW - FRESH_PASSES * 5.0 - 0.5}
    assert groups_from_pass(rows, old, "s-1", NOW) is None
    edge = {**META, "ts": NOW - FRESH_PASSES * 5.0}
    assert groups_from_pass(rows, edge, "s-1", NOW) is not None
    assert groups_from_pass(rows, {"ok": True, "ts": NOW}, "s-1", NOW) is None  # no interval
