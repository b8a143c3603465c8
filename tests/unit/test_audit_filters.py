"""The audit log's filters (who, what, cluster, target, outcome, time range) and its CSV export."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from console.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def entries():
    made = [
        AuditEntry.objects.create(
            actor="ann", action="offsets.reset.execute", cluster="local", target="orders-app",
            outcome="ok", request={"reason": "=cmd|' /C calc'!A0"},
        ),
        AuditEntry.objects.create(
            actor="bob", action="offsets.reset.undo", cluster="local", target="Orders-App",
            outcome="refused",
        ),
        AuditEntry.objects.create(
            actor="ann", action="topic.delete", cluster="local-secure", target="payments",
            outcome="ok", details={"partitions": 3},
        ),
    ]  # fmt: skip
    old = AuditEntry.objects.filter(pk=made[0].pk)
    old.update(at=timezone.now() - timedelta(days=2))
    return made


def _ids(client, **query) -> list[int]:
    answer = client.get("/api/v1/audit", query)
    assert answer.status_code == 200, answer.content
    return [row["id"] for row in answer.json()]


def test_each_filter_narrows_the_list(operator_client, entries):
    one, two, three = (e.id for e in entries)
    assert _ids(operator_client) == [three, two, one]
    assert _ids(operator_client, actor="ann") == [three, one]
    assert _ids(operator_client, action="offsets.") == [two, one]  # a prefix ends in a dot
    assert _ids(operator_client, action="offsets") == []  # else exactly
    assert _ids(operator_client, target="orders-app") == [two, one]  # contained, any case
    assert _ids(operator_client, outcome="refused") == [two]
    assert _ids(operator_client, cluster="local-secure") == [three]
    day_ago = (timezone.now() - timedelta(days=1)).isoformat()
    assert _ids(operator_client, since=day_ago) == [three, two]
    assert _ids(operator_client, until=day_ago) == [one]


@pytest.mark.parametrize(
    "query, field",
    [({"outcome": "fine"}, "outcome"), ({"until": "yesterday"}, "until"), ({"who": "x"}, "who")],
)
def test_a_filter_that_cannot_be_read_is_a_400(operator_client, entries, query, field):
    answer = operator_client.get("/api/v1/audit/export", query)
    assert answer.status_code == 400
    assert answer.json()["error"]["details"]["field"] == field


def test_the_export_is_the_filtered_list_as_csv(operator_client, viewer_client, entries):
    answer = operator_client.get("/api/v1/audit/export", {"actor": "ann"})
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert "audit.csv" in answer["Content-Disposition"]
    text = b"".join(answer.streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [int(r["id"]) for r in rows] == [entries[2].id, entries[0].id]
    assert json.loads(rows[0]["details"]) == {"partitions": 3}
    # A cell a spreadsheet would run as a formula is quoted with a leading apostrophe.
    assert rows[1]["request"].startswith('{"reason":"=cmd')  # JSON starts with {: left alone
    assert viewer_client.get("/api/v1/audit/export").status_code == 403


def test_a_formula_cell_is_neutralised():
    from console.audit_csv import _cell

    assert _cell("=SUM(A1)") == "'=SUM(A1)" and _cell("-2+3") == "'-2+3"
    assert _cell("orders") == "orders"
