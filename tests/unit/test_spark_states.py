"""The job state machine: the transition table and compare-and-swap moves."""

from __future__ import annotations

import pytest

from sparkjobs import states
from sparkjobs.choices import ACTIVE, TERMINAL, JobState
from sparkjobs.models import SparkJob


def test_active_and_terminal_split_every_state():
    assert ACTIVE | TERMINAL == set(JobState.values)
    assert not ACTIVE & TERMINAL


@pytest.mark.parametrize("state", sorted(TERMINAL))
def test_terminal_states_never_move(state):
    assert [new for new in JobState.values if states.can_move(state, new)] == []


@pytest.mark.parametrize("state", sorted(ACTIVE))
def test_active_states_can_end(state):
    assert states.can_move(state, JobState.CANCELLED)
    assert states.can_move(state, JobState.FAILED)


def test_queued_moves_only_through_submitted():
    assert not states.can_move(JobState.QUEUED, JobState.RUNNING)  # only through submitted
    assert not states.can_move(JobState.QUEUED, JobState.LOST)  # no heartbeat to miss yet


def _job(state: str = JobState.QUEUED) -> SparkJob:
    return SparkJob.objects.create(job_type="topic-export", cluster="local", state=state)


@pytest.mark.django_db
def test_transition_is_compare_and_swap():
    job = _job()
    assert states.transition(job.pk, JobState.QUEUED, JobState.SUBMITTED, worker_host="h")
    # A second worker that also believed the job was queued loses.
    assert not states.transition(job.pk, JobState.QUEUED, JobState.SUBMITTED)
    job.refresh_from_db()
    assert job.state == JobState.SUBMITTED
    assert job.started_at is not None and job.heartbeat_at is not None
    assert job.worker_host == "h"


@pytest.mark.django_db
def test_terminal_moves_stamp_finished_at_and_refuse_further_changes():
    job = _job(JobState.RUNNING)
    assert states.transition(job.pk, [JobState.SUBMITTED, JobState.RUNNING], JobState.LOST)
    job.refresh_from_db()
    assert job.finished_at is not None
    # The worker that comes back late cannot overwrite the reaper's decision.
    assert not states.transition(job.pk, JobState.RUNNING, JobState.SUCCEEDED)
    assert not states.update_active(job.pk, progress=0.5)
    job.refresh_from_db()
    assert (job.state, job.progress) == (JobState.LOST, 0.0)


@pytest.mark.django_db
def test_an_illegal_move_is_a_bug_not_a_race():
    job = _job(JobState.SUCCEEDED)
    with pytest.raises(states.IllegalTransition):
        states.transition(job.pk, JobState.SUCCEEDED, JobState.RUNNING)
    with pytest.raises(states.IllegalTransition):
        states.transition(job.pk, JobState.QUEUED, JobState.RUNNING)


@pytest.mark.django_db
def test_cancel_ends_a_queued_job_and_flags_a_started_one():
    queued, running, done = _job(), _job(JobState.RUNNING), _job(JobState.FAILED)
    assert states.request_cancel(queued.pk) == JobState.CANCELLED
    assert states.request_cancel(running.pk) == JobState.RUNNING
    assert states.request_cancel(done.pk) is None
    running.refresh_from_db()
    queued.refresh_from_db()
    assert running.cancel_requested and running.state == JobState.RUNNING
    assert queued.state == JobState.CANCELLED and queued.finished_at is not None
