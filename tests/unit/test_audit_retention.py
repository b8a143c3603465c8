"""Audit retention and the size of an entry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from console.audit import MAX_REFUSED_JSON, MAX_STORED_JSON, record
from console.audit_retention import prune
from console.models import AuditEntry

pytestmark = pytest.mark.django_db


def _entry(age_days: float) -> AuditEntry:
    entry = record(actor="ada", action="topic.create", outcome="ok")
    AuditEntry.objects.filter(pk=entry.pk).update(at=timezone.now() - timedelta(days=age_days))
    return entry


def test_entries_older_than_the_retention_are_deleted(settings, monkeypatch):
    from console import audit_retention

    monkeypatch.setattr(audit_retention, "BATCH", 2)  # several batches
    settings.AUDIT_RETENTION_DAYS = 30
    old = [_entry(31 + i) for i in range(5)]
    young = [_entry(29), _entry(0)]
    assert prune() == 5
    assert set(AuditEntry.objects.values_list("pk", flat=True)) == {e.pk for e in young}
    assert not AuditEntry.objects.filter(pk__in=[e.pk for e in old]).exists()
    assert prune() == 0


def test_zero_keeps_everything_and_the_command_takes_days(settings, capsys):
    settings.AUDIT_RETENTION_DAYS = 0
    _entry(4000)
    assert prune() == 0
    call_command("pruneaudit", "--days", "10")
    assert "deleted 1 audit entries" in capsys.readouterr().out
    assert AuditEntry.objects.count() == 0


def test_a_refused_entry_keeps_less_of_its_request():
    body = {"csv": "t,0,1\n" * 3000}  # 18 KB
    refused = record(actor="a", action="offsets.reset", outcome="refused", request=body)
    kept = record(actor="a", action="offsets.reset", outcome="ok", request={"csv": "x" * 9000})
    assert refused.request["_truncated"] and refused.request["_bytes"] > MAX_STORED_JSON
    assert len(str(refused.request).encode()) < MAX_REFUSED_JSON + 200
    assert kept.request == {"csv": "x" * 9000}  # an accepted change keeps up to 16 KiB
