"""Audit entries: anything a request holds is stored (no NUL, any JSON, bounded in size, a
marked preview when large), and the audit log reads back in pages. No Kafka is asked
(`no_kafka`).
"""

from __future__ import annotations

import json
import math

import pytest

from console.audit import TRUNCATED, record
from console.models import AuditEntry
from tests.conftest import assert_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_kafka")]

TOPICS = "/api/v1/clusters/local/topics"


def test_audit_entries_hold_no_nul_and_any_json():
    entry = record(
        actor="a\x00b",
        action="topic.create",
        outcome="refused",
        target="t\x00" + "x" * 600,
        request={"name": "a\x00b", "k\x00": ["\ud800"], "n": math.nan},
        details={"tuple": (1, 2), "set": {3}, (1, 2): "key", "error": ValueError("boom")},
    )
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert stored.actor == "a\\x00b"
    assert "\x00" not in stored.target and len(stored.target) == 512
    assert stored.request == {"name": "a\\x00b", "k\\x00": ["\\ud800"], "n": "nan"}
    assert stored.details == {"tuple": [1, 2], "set": [3], "(1, 2)": "key", "error": "boom"}


def test_a_refused_body_with_nul_is_audited_storably(admin_client_api):
    body = {"name": "a\x00b", "partitions": 1, "replication_factor": 1, "note": "\x00"}
    assert_error(admin_client_api.post(TOPICS, body, format="json"), 400)
    entry = AuditEntry.objects.get()
    assert entry.target == "a\\x00b" and entry.request["note"] == "\\x00"


def test_a_large_request_is_kept_as_a_marked_preview():
    entry = record(actor="a", action="x", outcome="ok", request={"csv": "t,0,1\n" * 10_000})
    stored = AuditEntry.objects.get(pk=entry.pk).request
    assert stored["_truncated"] is True and stored["_bytes"] > 60_000
    assert stored["preview"].endswith("…[truncated]")


def test_audit_entries_are_bounded():
    entry = record(
        actor="ada",
        action="topic.create",
        outcome="refused",
        target="t" * 1_000_000,
        request={"name": "x" * 2_500_000},
    )
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert len(stored.target) == 512 and stored.target.endswith(TRUNCATED)
    assert stored.request["_truncated"] is True and stored.request["_bytes"] > 2_500_000
    assert len(json.dumps(stored.request)) < 4096


# --- paging -----------------------------------------------------------------------------------
def test_audit_paging_defaults_and_bounds(operator_client):
    for _ in range(105):
        record(actor="a", action="x", outcome="ok")
    assert len(operator_client.get("/api/v1/audit").json()) == 100
    assert len(operator_client.get("/api/v1/audit?limit=").json()) == 100
    assert len(operator_client.get("/api/v1/audit?limit=1000").json()) == 105
    since = operator_client.get("/api/v1/audit?since=2000-01-01T00:00:00%2B14:00&limit=3")
    assert since.status_code == 200 and len(since.json()) == 3


def test_audit_list_pages_with_before_id(operator_client):
    ids = [record(actor="a", action="x", outcome="ok").pk for _ in range(5)]
    first = operator_client.get("/api/v1/audit?limit=2").json()
    assert [e["id"] for e in first] == ids[::-1][:2]
    nxt = operator_client.get(f"/api/v1/audit?limit=2&before_id={first[-1]['id']}").json()
    assert [e["id"] for e in nxt] == ids[::-1][2:4]
