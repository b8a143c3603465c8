"""Two-person approval on a protected cluster, against the real cluster: a reset waits for
approval, its requester cannot approve it, a second operator's approval executes exactly the
approved plan, a moved offset makes the approval fail with nothing changed, an expired request
cannot run; a topic delete and an ACL delete wait for a second admin the same way."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from approvals.models import ApprovalRequest
from console.kafka import dev
from console.kafka.types import Acl, AclFilter
from tests.conftest import _client_for
from tests.stack import cluster_client, commit_and_wait, filled_topic, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


@pytest.fixture
def protected(settings, stack):
    clusters = dict(settings.KAFKA_CLUSTERS)
    clusters["local"] = dataclasses.replace(clusters["local"], protected=True)
    settings.KAFKA_CLUSTERS = clusters


@pytest.fixture
def second_operator(django_user_model):
    return _client_for(django_user_model, "olga-operator", "operator")


def _committed(group: str, tps: list) -> dict:
    return cluster_client().committed_offsets({group: tps}, stable=True)[group]


def test_a_reset_waits_for_a_second_operator_and_runs_exactly_as_approved(
    protected, operator_client, second_operator
):
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    topic, group = f"approve-{tag}", f"approve-g-{tag}"
    filled_topic(client, topic, 2, 3, 40)  # 20 records per partition
    tps = [(topic, 0), (topic, 1)]
    commit_and_wait(client, group, {tp: 10 for tp in tps})
    resets = f"/api/v1/clusters/local/groups/{group}/offset-resets"
    scope = {"topics": [{"topic": topic, "partitions": None}]}  # null: every partition
    body = {"scope": scope, "strategy": {"type": "earliest"}}

    preview = operator_client.post(resets, body, format="json")
    assert preview.status_code == 201, preview.content
    asked = operator_client.post(
        f"/api/v1/offset-resets/{preview.json()['id']}/execute", {"reason": "replay"}, format="json"
    )
    assert asked.status_code == 202, asked.content
    approval = asked.json()["approval"]
    assert approval["state"] == "pending" and approval["action"] == "offsets.reset.execute"
    assert _committed(group, tps) == {tp: 10 for tp in tps}  # nothing ran

    url = f"/api/v1/approvals/{approval['id']}"
    assert operator_client.post(f"{url}/approve", {}, format="json").status_code == 403
    done = second_operator.post(f"{url}/approve", {"reason": "ok"}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["state"] == "executed"
    planned = {(r["topic"], r["partition"]): r["new_offset"] for r in preview.json()["plan"]}
    assert planned == {tp: 0 for tp in tps}
    assert _committed(group, tps) == planned
    assert done.json()["result"]["id"] == preview.json()["id"]  # exactly that preview ran

    # Moved: a preview asked for, then a consumer commits elsewhere; the approval fails and
    # changes nothing.
    moved = operator_client.post(
        resets, {**body, "strategy": {"type": "to_offset", "offset": 15}}, format="json"
    ).json()
    asked = operator_client.post(
        f"/api/v1/offset-resets/{moved['id']}/execute", {"reason": "x"}, format="json"
    ).json()["approval"]
    commit_and_wait(client, group, {tp: 12 for tp in tps})
    failed = second_operator.post(f"/api/v1/approvals/{asked['id']}/approve", {}, format="json")
    assert failed.status_code == 409 and failed.json()["error"]["code"] == "plan_stale"
    assert _committed(group, tps) == {tp: 12 for tp in tps}
    assert ApprovalRequest.objects.get(pk=asked["id"]).state == "failed"

    # Expired: refused, nothing changed.
    direct = operator_client.post(
        resets, {**body, "strategy": {"type": "latest"}, "dry_run": False}, format="json"
    )
    assert direct.status_code == 202, direct.content  # executing at once is a request too
    late = direct.json()["approval"]
    assert direct.json()["reset"]["plan"]  # the plan it will run, to read before approving
    ApprovalRequest.objects.filter(pk=late["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    expired = second_operator.post(f"/api/v1/approvals/{late['id']}/approve", {}, format="json")
    assert expired.status_code == 409 and expired.json()["error"]["code"] == "approval_expired"
    assert _committed(group, tps) == {tp: 12 for tp in tps}
    client.delete_topics([topic])


def test_a_topic_delete_and_an_acl_delete_wait_for_a_second_admin(
    protected, admin_client_api, second_operator, django_user_model
):
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    topic = f"approve-del-{tag}"
    dev.create_topics(client, [(topic, 1, 3, {})])
    other_admin = _client_for(django_user_model, "arne-admin", "admin")

    asked = admin_client_api.delete(f"/api/v1/clusters/local/topics/{topic}")
    assert asked.status_code == 202, asked.content
    url = f"/api/v1/approvals/{asked.json()['approval']['id']}/approve"
    assert second_operator.post(url, {}, format="json").status_code == 403  # needs admin
    assert topic in {t.name for t in client.topic_metadata()}
    assert other_admin.post(url, {}, format="json").status_code == 200
    wait_for(
        lambda: topic not in {t.name for t in client.topic_metadata()},
        timeout=30,
        what="the topic to go",
    )

    principal = f"User:approve-{tag}"
    binding = {"resource_type": "TOPIC", "resource_name": topic, "principal": principal}
    made = admin_client_api.post(
        "/api/v1/clusters/local/acls",
        {"bindings": [{**binding, "operation": "READ"}], "dry_run": False},
        format="json",
    )
    assert made.status_code == 200, made.content
    flt = {"filter": {**binding, "pattern_type": "literal"}, "dry_run": False}
    asked = admin_client_api.post("/api/v1/clusters/local/acls/delete", flt, format="json")
    assert asked.status_code == 202, asked.content
    assert len(asked.json()["bindings"]) == 1
    # Moved: another binding now matches the filter; the approval refuses, nothing deleted.
    write = Acl("TOPIC", topic, "LITERAL", principal, "*", "WRITE", "ALLOW")
    assert not any(client.create_acls([write]).values())
    url = f"/api/v1/approvals/{asked.json()['approval']['id']}/approve"
    wait_for(
        lambda: len(client.describe_acls(AclFilter(principal=principal))) == 2,
        timeout=15,
        what="the second binding",
    )
    refused = other_admin.post(url, {}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "acl_moved"
    assert len(client.describe_acls(AclFilter(principal=principal))) == 2
    client.delete_acls([AclFilter(principal=principal)])


def test_config_partition_and_election_changes_wait_and_refuse_when_moved(
    protected, admin_client_api, django_user_model
):
    client = cluster_client()
    topic = f"approve-cfg-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 3, {})])
    other_admin = _client_for(django_user_model, "arne-admin", "admin")
    base = f"/api/v1/clusters/local/topics/{topic}"

    def approve(answer) -> object:
        assert answer.status_code == 202, answer.content
        return other_admin.post(
            f"/api/v1/approvals/{answer.json()['approval']['id']}/approve", {}, format="json"
        )

    def retention() -> str | None:
        value = client.describe_topic_configs([topic])[topic]["retention.ms"]
        return value.value if value.source == "DYNAMIC_TOPIC_CONFIG" else None

    change = {"set": {"retention.ms": "3600000"}, "delete": []}
    done = approve(admin_client_api.patch(f"{base}/configs", change, format="json"))
    assert done.status_code == 200 and retention() == "3600000"
    # Moved: someone sets the key between the request and its approval.
    asked = admin_client_api.patch(
        f"{base}/configs", {"set": {"retention.ms": "7200000"}, "delete": []}, format="json"
    )
    client.alter_topic_configs(topic, {"retention.ms": "60000"}, [])
    wait_for(lambda: retention() == "60000", timeout=15, what="the direct change")
    refused = approve(asked)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "config_moved"
    assert retention() == "60000"

    grown = approve(admin_client_api.post(f"{base}/partitions", {"count": 2}, format="json"))
    assert grown.status_code == 200 and grown.json()["result"]["partition_count"] == 2
    election = {"election": "preferred", "partitions": [{"topic": topic, "partition": 0}]}
    elected = approve(
        admin_client_api.post("/api/v1/clusters/local/elect-leaders", election, format="json")
    )
    assert elected.status_code == 200, elected.content
    assert [r["partition"] for r in elected.json()["result"]] == [0]
    client.delete_topics([topic])


def test_broker_config_changes_and_reassignments_wait_for_a_second_admin(
    protected, admin_client_api, django_user_model
):
    from tests.reassignments import execute, plan_elsewhere, replicas

    client = cluster_client()
    other_admin = _client_for(django_user_model, "bea-admin", "admin")
    key = "log.cleaner.backoff.ms"  # dynamic, harmless, 15000 unless set
    url = "/api/v1/clusters/local/brokers/2/configs"

    def approve(answer) -> object:
        assert answer.status_code == 202, answer.content
        return other_admin.post(
            f"/api/v1/approvals/{answer.json()['approval']['id']}/approve", {}, format="json"
        )

    def on_broker() -> str | None:
        value = client.describe_broker_configs(2).get(key)
        return value.value if value and value.source == "DYNAMIC_BROKER_CONFIG" else None

    # A secret would wait in the stored request: refused, naming the key; nothing asked.
    secret = {"set": {"listener.name.x.ssl.key.password": "p"}, "delete": []}
    refused = admin_client_api.patch(url, secret, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "set"
    assert not ApprovalRequest.objects.filter(action="broker.configs").exists()
    # A key Kafka would refuse is refused now, not at the approval.
    bad = admin_client_api.patch(url, {"set": {}, "delete": [key]}, format="json")
    assert bad.status_code == 400 and "not set dynamically" in bad.json()["error"]["message"]

    try:
        asked = admin_client_api.patch(url, {"set": {key: "16000"}, "delete": []}, format="json")
        assert on_broker() is None  # held
        done = approve(asked)
        assert done.status_code == 200, done.content
        wait_for(lambda: on_broker() == "16000", timeout=15, what="the approved change")
        # Moved: set directly between the request and its approval.
        asked = admin_client_api.patch(url, {"set": {key: "17000"}, "delete": []}, format="json")
        client.alter_broker_configs(2, {key: "18000"}, [])
        wait_for(lambda: on_broker() == "18000", timeout=15, what="the direct change")
        moved = approve(asked)
        assert moved.status_code == 409 and moved.json()["error"]["code"] == "config_moved"
        assert on_broker() == "18000"
    finally:
        client.alter_broker_configs(2, {}, [key])

    # A reassignment: held with the replicas it was planned on, started by the approval.
    topic = f"approve-move-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(topic, 1, 1, {})])
    before = replicas(topic)
    plan = plan_elsewhere(topic)
    asked = execute(admin_client_api, plan, None)
    approval = asked.json()["approval"]
    assert approval["action"] == "reassignment.execute" and "1 partition" in approval["summary"]
    assert replicas(topic) == before  # nothing moved
    started = approve(asked)
    assert started.status_code == 200, started.content
    target = {p["partition"]: p["replicas"] for p in plan["partitions"]}
    wait_for(lambda: replicas(topic) == target, timeout=60, what="the approved move")
    detail = f"/api/v1/clusters/local/reassignments/{started.json()['result']['id']}"
    wait_for(
        lambda: admin_client_api.get(detail).json()["state"] == "completed",
        timeout=60,
        what="the reassignment to complete",
    )
    # Moved: the replicas change between the request and its approval.
    asked = execute(admin_client_api, plan_elsewhere(topic), None)
    assert asked.status_code == 202
    client.alter_reassignments({(topic, 0): before[0]})
    wait_for(lambda: replicas(topic) == before, timeout=60, what="the direct move back")
    moved = approve(asked)
    assert moved.status_code == 409 and moved.json()["error"]["code"] == "replicas_moved"
    assert replicas(topic) == before
    client.delete_topics([topic])
