"""Job schedules without services: the timing rules, the API (roles, refusals naming the field,
audit), and the scheduler's tick on a fake clock (a slot runs once, missed slots once, a
running job skips the slot, a submit that could not be made is recorded)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from console import kafka
from console.models import AuditEntry
from sparkjobs import schedules
from sparkjobs.models import Schedule, ScheduleRun, SparkJob
from sparkjobs.schedule_times import Timing, check_timing, next_run
from tests.conftest import assert_error

URL = "/api/v1/spark/schedules"


def _at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- timing (pure) ----------------------------------------------------------------------------


def test_cron_runs_at_local_time_in_its_zone_across_daylight_saving():
    paris = Timing("0 3 * * *", None, "Europe/Paris")
    assert next_run(paris, _at(2026, 1, 10, 12)) == _at(2026, 1, 11, 2)  # CET: UTC+1
    assert next_run(paris, _at(2026, 7, 10, 12)) == _at(2026, 7, 11, 1)  # CEST: UTC+2
    # Strictly after: at the slot itself, the next one.
    assert next_run(paris, _at(2026, 7, 11, 1)) == _at(2026, 7, 12, 1)


def test_cron_at_a_time_that_does_not_exist_or_happens_twice():
    gap = Timing("30 2 * * *", None, "Europe/Paris")
    # 29 March 2026: 02:00 -> 03:00 in Paris. 02:30 does not exist: the first minute after.
    assert next_run(gap, _at(2026, 3, 28, 12)) == _at(2026, 3, 29, 1)
    # 25 October 2026: 02:30 happens twice (00:30 and 01:30 UTC): it runs once.
    first = next_run(gap, _at(2026, 10, 24, 12))
    assert first == _at(2026, 10, 25, 0, 30)
    assert next_run(gap, first) == _at(2026, 10, 26, 1, 30)


def test_every_minutes_counts_from_the_given_moment():
    timing = Timing(None, 90, "UTC")
    assert next_run(timing, _at(2026, 5, 1, 10, 15)) == _at(2026, 5, 1, 11, 45)


@pytest.mark.parametrize(
    ("cron", "every", "zone", "field"),
    [
        ("0 3 * * *", 5, "UTC", "cron"),  # both
        (None, None, "UTC", "cron"),  # neither
        ("0 3 * *", None, "UTC", "cron"),  # four fields
        ("0 0 3 * * *", None, "UTC", "cron"),  # six fields (seconds): not cron's
        ("61 3 * * *", None, "UTC", "cron"),
        ("0 3 * * FUNDAY", None, "UTC", "cron"),
        (None, 0, "UTC", "every_minutes"),
        (None, True, "UTC", "every_minutes"),
        (None, 10**7, "UTC", "every_minutes"),
        ("0 3 * * *", None, "Mars/Olympus", "timezone"),
        ("0 3 * * *", None, "", "timezone"),
    ],
)
def test_bad_timings_name_their_field(cron, every, zone, field):
    from console.errors import BadInput

    with pytest.raises(BadInput) as caught:
        check_timing(cron, every, zone)
    assert caught.value.field == field


# --- the API ----------------------------------------------------------------------------------


def _body(**overrides):
    return {
        "job_type": "topic-export",
        "cluster": "local",
        "params": {"topic": "t"},
        "cron": "0 3 * * *",
        "timezone": "Europe/Paris",
        **overrides,
    }


@pytest.mark.django_db
def test_the_list_names_each_schedules_newest_job_in_a_constant_number_of_queries(
    operator_client, viewer_client
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def listed() -> tuple[dict[int, int | None], int]:
        with CaptureQueriesContext(connection) as queries:
            answer = viewer_client.get(URL).json()
        return {s["id"]: s["last_job_id"] for s in answer}, len(queries)

    def schedule_with_jobs(jobs: int) -> tuple[int, int | None]:
        schedule_id = operator_client.post(URL, _body(), format="json").json()["id"]
        last = None
        for _ in range(jobs):
            last = SparkJob.objects.create(
                job_type="topic-export", cluster="local", params={}, schedule_id=schedule_id
            ).pk
        return schedule_id, last

    expected = dict([schedule_with_jobs(2)])
    _, one = listed()
    expected.update(schedule_with_jobs(n) for n in (0, 1, 3, 2))
    found, five = listed()
    assert found == expected
    assert five == one  # not one more query per schedule: the page lists them all


@pytest.mark.django_db
def test_an_operator_creates_a_schedule_and_a_viewer_reads_it(operator_client, viewer_client):
    answer = operator_client.post(URL, _body(), format="json")
    assert answer.status_code == 201, answer.content
    created = answer.json()
    assert created["params"]["topic"] == "t" and created["enabled"] is True
    assert created["every_minutes"] is None and created["runs"] == []
    assert created["last_job_id"] is None and created["created_by"] == "otto-operator"
    due = datetime.fromisoformat(created["next_run_at"])
    assert due > timezone.now() and due.astimezone(UTC).hour in (1, 2)  # 03:00 in Paris
    assert [r["id"] for r in viewer_client.get(URL).json()] == [created["id"]]
    assert viewer_client.get(f"{URL}/{created['id']}").json()["runs"] == []
    assert_error(viewer_client.post(URL, _body(), format="json"), 403)
    assert_error(viewer_client.delete(f"{URL}/{created['id']}"), 403)
    entry = AuditEntry.objects.get(action="spark.schedule.create")
    assert entry.outcome == "ok" and entry.details["schedule_id"] == created["id"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_body(job_type="nope"), "job_type"),
        (_body(cluster="nowhere"), "cluster"),
        (_body(params={}), "params.topic"),
        (_body(params={"topic": "t", "partitionz": [0]}), "params.partitionz"),
        (_body(cron=None), "cron"),
        (_body(every_minutes=5), "cron"),
        (_body(cron="every day"), "cron"),
        (_body(timezone="Paris"), "timezone"),
        ({**_body(), "crom": "0 3 * * *"}, "crom"),  # a misspelt key is refused, not dropped
        (_body(enabled="yes"), "enabled"),
    ],
)
def test_bad_schedules_are_400_naming_the_field_and_save_nothing(operator_client, body, field):
    error = assert_error(operator_client.post(URL, body, format="json"), 400)
    assert error["details"]["field"] == field, error
    assert Schedule.objects.count() == 0
    assert AuditEntry.objects.get(action="spark.schedule.create").outcome == "refused"


@pytest.mark.django_db
def test_a_change_is_checked_against_the_stored_schedule(operator_client):
    schedule = operator_client.post(URL, _body(), format="json").json()
    url = f"{URL}/{schedule['id']}"
    # Switching to every_minutes needs cron cleared in the same change.
    error = assert_error(operator_client.patch(url, {"every_minutes": 30}, format="json"), 400)
    assert error["details"]["field"] == "cron"
    changed = operator_client.patch(url, {"cron": None, "every_minutes": 30}, format="json")
    assert changed.status_code == 200, changed.content
    due = datetime.fromisoformat(changed.json()["next_run_at"])
    assert timedelta(minutes=29) < due - timezone.now() <= timedelta(minutes=30)
    # Disabled: no next run; enabled again: one from now.
    off = operator_client.patch(url, {"enabled": False}, format="json").json()
    assert off["next_run_at"] is None
    on = operator_client.patch(url, {"enabled": True}, format="json").json()
    assert on["next_run_at"] is not None
    # Another job type: the stored params are checked against its schema.
    error = assert_error(
        operator_client.patch(url, {"job_type": "maintenance-pipeline"}, format="json"), 400
    )
    assert error["details"]["field"].startswith("params")
    assert operator_client.delete(url).status_code == 204
    assert_error(operator_client.get(url), 404)
    actions = list(AuditEntry.objects.values_list("action", "outcome").order_by("id"))
    assert actions[-1] == ("spark.schedule.delete", "ok")
    assert ("spark.schedule.update", "refused") in actions


# --- the tick, on a fake clock ----------------------------------------------------------------


def _schedule(user, due: datetime, **fields) -> Schedule:
    values = {
        "job_type": "topic-export",
        "cluster": "local",
        "params": {"topic": "t"},
        "every_minutes": 60,
        "timezone": "UTC",
        "next_run_at": due,
        **fields,
    }
    return Schedule.objects.create(created_by=user, **values)


@pytest.fixture
def kafka_down(monkeypatch):
    """Kafka does not answer: a submit's metadata snapshot fails at once."""
    from console.metadata import cache

    def down(*args, **kwargs):
        raise kafka.KafkaAdapterError("Kafka did not answer within 10 s.", code="kafka_timeout")

    monkeypatch.setattr(cache, "snapshot", down)


@pytest.mark.django_db
def test_a_running_job_skips_the_slot_and_the_next_run_moves_on(operator_client, kafka_down):
    due = _at(2026, 5, 1, 10, 0)
    schedule = _schedule(operator_client.user, due)
    running = SparkJob.objects.create(
        job_type="topic-export", cluster="local", state="running", schedule=schedule
    )
    runs = schedules.run_due(due + timedelta(seconds=3))
    assert [(r.outcome, r.job_id, r.due_at) for r in runs] == [("skipped", running.pk, due)]
    assert "still running" in runs[0].reason
    schedule.refresh_from_db()
    assert schedule.next_run_at == due + timedelta(minutes=60, seconds=3)
    assert SparkJob.objects.count() == 1  # nothing submitted


@pytest.mark.django_db
def test_a_slot_runs_once_and_missed_slots_run_once(operator_client, kafka_down):
    due = _at(2026, 5, 1, 10, 0)
    schedule = _schedule(operator_client.user, due)
    now = due + timedelta(hours=5)  # five slots missed while no scheduler ran
    first = schedules.run_due(now)
    assert schedules.run_due(now) == []  # the same moment again (a restart): nothing
    assert [(r.outcome, r.due_at) for r in first] == [("failed", due)]
    assert "did not answer" in first[0].reason
    schedule.refresh_from_db()
    assert schedule.next_run_at == now + timedelta(minutes=60)
    assert ScheduleRun.objects.count() == 1
    # Audited as any submit that Kafka's silence failed, naming the schedule.
    entry = AuditEntry.objects.get(action="spark.job.submit")
    assert entry.outcome == "failed" and entry.details["schedule_id"] == schedule.pk
    assert entry.actor == "otto-operator"


@pytest.mark.django_db
def test_disabled_and_future_schedules_do_not_run(operator_client, kafka_down):
    now = _at(2026, 5, 1, 10, 0)
    _schedule(operator_client.user, now + timedelta(seconds=1))
    _schedule(operator_client.user, now - timedelta(minutes=1), enabled=False)
    assert schedules.run_due(now) == []
    assert ScheduleRun.objects.count() == 0


@pytest.mark.django_db
def test_a_slot_the_submit_refuses_is_recorded_with_its_reason(operator_client, no_kafka):
    # The cluster was removed from the registry after the schedule was made.
    due = _at(2026, 5, 1, 10, 0)
    _schedule(operator_client.user, due, cluster="decommissioned")
    [run] = schedules.run_due(due)
    assert run.outcome == "refused" and run.job is None
    assert "no cluster named 'decommissioned'" in run.reason
