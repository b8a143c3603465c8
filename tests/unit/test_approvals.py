"""Two-person approval without Kafka: a registered stand-in change records what it ran. The
requester cannot decide, the approver needs the change's role on its cluster, a request runs
once and exactly as stored, an expired or decided one never runs, and a refusal while running
leaves the request failed with the reason."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from approvals import actions, service
from approvals.models import ApprovalRequest
from console.clusters import get_cluster
from console.errors import Conflict
from console.models import AuditEntry
from console.roles import grant_cluster_role, grant_role

pytestmark = pytest.mark.django_db
RAN: list[tuple[str, dict, str]] = []


def _run(cfg, plan, user):
    if plan.get("moved"):
        raise Conflict("What the plan was made on moved.", code="plan_stale")
    RAN.append((cfg.name, dict(plan), user.username))
    return {"done": plan["n"], "at": timezone.now()}


@pytest.fixture(autouse=True)
def stand_in():
    RAN.clear()
    actions.register(actions.Action("test.change", "operator", _run))
    yield
    actions.ACTIONS.pop("test.change")


def _person(django_user_model, name: str, role: str | None = None, **per_cluster: str):
    user = django_user_model.objects.create_user(name)
    if role:
        grant_role(user, role)
    for cluster, held in per_cluster.items():
        grant_cluster_role(user, cluster.replace("_", "-"), held)
    client = APIClient()
    client.force_authenticate(django_user_model.objects.get(pk=user.pk))
    return user, client


def _ask(user, plan: dict, cluster: str = "local") -> ApprovalRequest:
    cfg = dataclasses.replace(get_cluster(cluster), protected=True)
    return service.ask(user, cfg, "test.change", "t", plan, "a test change")


def _approve(client, found: ApprovalRequest, reason: str = "checked"):
    return client.post(f"/api/v1/approvals/{found.pk}/approve", {"reason": reason}, format="json")


def test_a_second_operator_runs_exactly_the_stored_plan_once(django_user_model):
    ann, ann_client = _person(django_user_model, "ann", "operator")
    _, bob_client = _person(django_user_model, "bob", "operator")
    _, vic_client = _person(django_user_model, "vic", "viewer")
    found = _ask(ann, {"n": 7})
    assert RAN == []  # asked, not run

    mine = _approve(ann_client, found)
    assert mine.status_code == 403 and "other than its requester" in mine.json()["error"]["message"]
    assert _approve(vic_client, found).status_code == 403  # a viewer holds no operator role
    assert RAN == []

    done = _approve(bob_client, found)
    assert done.status_code == 200, done.content
    assert done.json()["state"] == "executed" and done.json()["decided_by"] == "bob"
    assert done.json()["result"]["done"] == 7
    assert RAN == [("local", {"n": 7}, "bob")]
    again = _approve(bob_client, found)
    assert again.status_code == 409 and again.json()["error"]["code"] == "approval_not_pending"
    assert len(RAN) == 1
    entry = AuditEntry.objects.filter(action="test.change", outcome="ok").get()
    assert entry.actor == "bob" and entry.details["requested_by"] == "ann"


def test_the_approver_needs_the_role_on_the_requests_cluster(django_user_model):
    ann, _ = _person(django_user_model, "ann", "operator")
    _, elsewhere = _person(django_user_model, "eve", None, local_secure="operator", local="viewer")
    found = _ask(ann, {"n": 1})
    refused = _approve(elsewhere, found)
    assert refused.status_code == 403 and "cluster local" in refused.json()["error"]["message"]
    assert RAN == []
    # Listed only where the user may read: eve reads local too, a stranger nothing.
    _, stranger = _person(django_user_model, "sam", None, local_secure="viewer")
    assert [r["id"] for r in elsewhere.get("/api/v1/approvals").json()] == [found.pk]
    assert stranger.get("/api/v1/approvals").json() == []


def test_an_expired_or_rejected_request_never_runs(django_user_model):
    ann, _ = _person(django_user_model, "ann", "operator")
    _, bob = _person(django_user_model, "bob", "operator")
    late = _ask(ann, {"n": 1})
    ApprovalRequest.objects.filter(pk=late.pk).update(expires_at=timezone.now() - timedelta(1))
    expired = _approve(bob, late)
    assert expired.status_code == 409 and expired.json()["error"]["code"] == "approval_expired"
    assert bob.get(f"/api/v1/approvals/{late.pk}").json()["state"] == "expired"

    refused = _ask(ann, {"n": 2})
    no = bob.post(f"/api/v1/approvals/{refused.pk}/reject", {"reason": "not now"}, format="json")
    assert no.status_code == 200 and no.json()["state"] == "rejected"
    assert _approve(bob, refused).status_code == 409
    assert RAN == []
    pending = bob.get("/api/v1/approvals", {"state": "pending"}).json()
    assert pending == []


def test_a_plan_that_no_longer_holds_fails_and_says_why(django_user_model):
    ann, _ = _person(django_user_model, "ann", "operator")
    _, bob = _person(django_user_model, "bob", "operator")
    found = _ask(ann, {"n": 3, "moved": True})
    answer = _approve(bob, found)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "plan_stale"
    found.refresh_from_db()
    assert found.state == "failed" and found.error["code"] == "plan_stale"
    assert RAN == []
    assert AuditEntry.objects.get(action="test.change").outcome == "refused"


def test_a_change_cut_off_while_running_fails_as_interrupted_not_running_forever(
    django_user_model,
):
    ann, _ = _person(django_user_model, "ann", "operator")
    bob, bob_client = _person(django_user_model, "bob", "operator")
    found = _ask(ann, {"n": 4})
    # As the approving process leaves it when it dies mid-change: running, decided by bob.
    service._take(found, "running", bob, "looks right")
    row = bob_client.get(f"/api/v1/approvals/{found.pk}").json()
    assert row["state"] == "running" and row["decided_by"] == "bob"  # recent: still running
    ApprovalRequest.objects.filter(pk=found.pk).update(
        decided_at=timezone.now() - service.RUNNING_STALE - timedelta(seconds=1)
    )
    row = bob_client.get(f"/api/v1/approvals/{found.pk}").json()
    assert row["state"] == "failed" and row["error"]["code"] == "interrupted"
    assert "not known" in row["error"]["message"]
    assert _approve(bob_client, found).status_code == 409  # and never runs afterwards
    assert RAN == []


IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]


@pytest.mark.django_db(transaction=True)
async def test_approvers_see_requests_asked_and_decided_live(django_user_model, settings):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from rest_framework.authtoken.models import Token

    from project.asgi import application

    settings.CHANNEL_LAYERS = IN_MEMORY

    def people() -> tuple:
        ann = django_user_model.objects.create_user("ann")
        grant_role(ann, "operator")
        bob = django_user_model.objects.create_user("bob")
        grant_role(bob, "operator")
        return ann, bob, Token.objects.create(user=bob).key

    ann, bob, key = await sync_to_async(people)()
    path = f"/ws/clusters/local/approvals?token={key}"
    socket = WebsocketCommunicator(application, path, headers=HEADERS)
    assert (await socket.connect(timeout=5))[0]
    assert await socket.receive_json_from(timeout=5) == {"type": "status", "live": True}
    found = await sync_to_async(_ask)(ann, {"n": 5})
    asked = await socket.receive_json_from(timeout=5)
    assert (asked["type"], asked["id"], asked["state"]) == ("approval", found.pk, "pending")
    await sync_to_async(service.reject)(found.pk, bob, "no")
    decided = await socket.receive_json_from(timeout=5)
    assert (decided["state"], decided["decided_by"]) == ("rejected", "bob")
    await socket.disconnect()
    # Another cluster's socket hears nothing of it.
    other = WebsocketCommunicator(
        application, f"/ws/clusters/local-secure/approvals?token={key}", headers=HEADERS
    )
    assert (await other.connect(timeout=5))[0]
    assert (await other.receive_json_from(timeout=5))["live"] is True
    await sync_to_async(_ask)(ann, {"n": 6})
    assert await other.receive_nothing(timeout=0.3)
    await other.disconnect()
