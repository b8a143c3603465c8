"""Roles per cluster: every operation of the schema walked on three clusters by two users
whose roles differ from cluster to cluster, against the table in docs/roles.md.

- `split` holds no role on every cluster: operator on alpha, viewer on beta, nothing on gamma.
- `lowered` is admin on every cluster but viewer on beta.

Operations whose path names a cluster are asked on each; operations on a reset, job,
schedule, rule or model are asked on one made on each cluster; a cluster given in the query
or the body (predictions, the worklist, a job or schedule or rule created) is each cluster in
turn. Allowed: anything but 401/403 (Kafka is unplugged: a call that reaches it is a 504).
Lists without a cluster show only what is on the clusters the user may read.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from rest_framework.test import APIClient

from alerts.models import AlertRule
from console.kafka import KafkaTimeout
from console.models import AuditEntry
from console.roles import ROLES, grant_cluster_role, grant_role, role_of, scope_of
from groups.models import OffsetReset
from sparkjobs.models import Schedule, SparkJob
from tests.unit.test_role_matrix import documented
from tests.unit.test_strict_input import EXAMPLES

pytestmark = pytest.mark.django_db

CLUSTERS = ("alpha", "beta", "gamma")
HELD = {
    "split": {"alpha": "operator", "beta": "viewer", "gamma": None},
    "lowered": {"alpha": "admin", "beta": "viewer", "gamma": "admin"},
}
OBJECT_IDS = ("{reset_id}", "{job_id}", "{schedule_id}", "{rule_id}", "{model_id}")
# Operations that name their cluster in the query, or create something on the body's cluster.
QUERY_CLUSTER = {
    ("get", "/api/v1/spark/predictions"),
    ("get", "/api/v1/spark/models/active"),
    ("get", "/api/v1/maintenance/worklist"),
    ("post", "/api/v1/maintenance/worklist/{equipment_id}"),
}
BODY_CLUSTER = {
    ("post", "/api/v1/spark/jobs"),
    ("post", "/api/v1/spark/schedules"),
    ("post", "/api/v1/alerts/rules"),
}


@pytest.fixture
def three_clusters(settings, monkeypatch):
    base = next(iter(settings.KAFKA_CLUSTERS.values()))
    settings.KAFKA_CLUSTERS = {n: dataclasses.replace(base, name=n) for n in CLUSTERS}
    from console import kafka
    from console.metadata import cache

    def unplugged(*args, **kwargs):
        raise KafkaTimeout("Kafka is unplugged in this test.", code="kafka_timeout")

    monkeypatch.setattr(kafka, "for_cluster", unplugged)
    monkeypatch.setattr(cache, "snapshot", unplugged)


def _user(django_user_model, name: str):
    user = django_user_model.objects.create_user(name, password="pw")
    if name == "lowered":
        grant_role(user, "admin")
    for cluster, role in HELD[name].items():
        if name == "split" and role:
            grant_cluster_role(user, cluster, role)
    if name == "lowered":
        grant_cluster_role(user, "beta", "viewer")
    return django_user_model.objects.get(pk=user.pk)  # fresh: no cached roles


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _objects(cluster: str, owner) -> dict[str, int]:
    """One of each object that carries a cluster, made on `cluster`."""
    reset = OffsetReset.objects.create(cluster=cluster, group_id="g", strategy={"type": "earliest"})
    job = SparkJob.objects.create(job_type="topic-export", cluster=cluster)
    model = SparkJob.objects.create(
        job_type="train-model",
        cluster=cluster,
        state="succeeded",
        result={"model_path": "/nowhere", "metrics": {}},
    )
    schedule = Schedule.objects.create(
        job_type="topic-export", cluster=cluster, every_minutes=60, created_by=owner
    )
    rule = AlertRule.objects.create(
        name="r", cluster=cluster, channel="webhook", target="https://example.org/hook",
        created_by=owner,
    )  # fmt: skip
    return {
        "{reset_id}": reset.pk,
        "{job_id}": job.pk,
        "{model_id}": model.pk,
        "{schedule_id}": schedule.pk,
        "{rule_id}": rule.pk,
    }


def _request(client, method: str, path: str, cluster: str, ids: dict[str, int]):
    url = path
    names = {"{topic}": "t", "{broker}": "1", "{group}": "g", "{user}": "alice"}
    names |= {"{equipment_id}": "eq-1", "{reassignment_id}": "999999", "{cluster}": cluster}
    for name, value in (names | {k: str(v) for k, v in ids.items()}).items():
        url = url.replace(name, value)
    body = copy.deepcopy(EXAMPLES.get((method, path), {}))
    operation = (method, path.removeprefix("/api/v1"))
    if operation in {(m, p.removeprefix("/api/v1")) for m, p in QUERY_CLUSTER}:
        url += f"?cluster={cluster}"
    if operation in {(m, p.removeprefix("/api/v1")) for m, p in BODY_CLUSTER}:
        body["cluster"] = cluster
    data = json.dumps(body).encode() if method in ("post", "put", "patch") else b""
    return client.generic(method.upper(), url, data, "application/json")


def _walked() -> list[tuple[str, str]]:
    ops = []
    for (method, path), _least in sorted(documented().items()):
        bound = "{cluster}" in path or any(i in path for i in OBJECT_IDS)
        if bound or (method, path) in QUERY_CLUSTER | BODY_CLUSTER:
            ops.append((method, path))
    return ops


@pytest.mark.parametrize("persona", sorted(HELD))
def test_every_operation_checks_the_role_on_the_cluster_it_touches(
    three_clusters, django_user_model, persona
):
    owner = django_user_model.objects.create_user("owner")
    ids = {cluster: _objects(cluster, owner) for cluster in CLUSTERS}
    user = _user(django_user_model, persona)
    walked = 0
    for method, path in _walked():
        least = documented()[(method, path)]
        for cluster in CLUSTERS:
            held = HELD[persona][cluster]
            allowed = held is not None and ROLES.index(held) >= ROLES.index(least)
            response = _request(_client(user), method, path, cluster, ids[cluster])
            where = (persona, method, path, cluster, response.status_code, response.content[:300])
            if allowed:
                assert response.status_code not in (401, 403), where
            else:
                assert response.status_code == 403, where
                assert (
                    cluster in response.json()["error"]["message"]
                    or "role" in (response.json()["error"]["message"])
                ), where
            walked += 1
    # Every operation that touches a cluster, on three clusters.
    assert walked == 3 * len(_walked()) >= 3 * 55


def test_lists_show_only_the_clusters_a_user_may_read(three_clusters, django_user_model):
    owner = django_user_model.objects.create_user("owner")
    for cluster in CLUSTERS:
        _objects(cluster, owner)
        AuditEntry.objects.create(actor="x", action="a", cluster=cluster, outcome="ok")
    AuditEntry.objects.create(actor="x", action="no-cluster", outcome="ok")
    split = _client(_user(django_user_model, "split"))
    lowered = _client(_user(django_user_model, "lowered"))

    def clusters(client, url: str) -> set[str]:
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.content[:300])
        key = "name" if url == "/api/v1/clusters" else "cluster"
        return {row[key] for row in answer.json()}

    for url in ("/api/v1/spark/jobs", "/api/v1/spark/schedules", "/api/v1/alerts/rules"):
        assert clusters(split, url) == {"alpha", "beta"}, url
        assert clusters(lowered, url) == set(CLUSTERS), url
    assert clusters(split, "/api/v1/spark/models") == {"alpha", "beta"}
    # The limit counts the models the user may see: the newest (gamma's) is not one of them.
    assert clusters(split, "/api/v1/spark/models?limit=1") == {"beta"}
    # The audit log is the operator's: alpha only for split (viewer on beta); every entry
    # with a cluster but beta's for lowered, and the cluster-less ones (an all-clusters role).
    assert clusters(split, "/api/v1/audit") == {"alpha"}
    assert clusters(lowered, "/api/v1/audit") == {"alpha", "gamma", ""}
    me = split.get("/api/v1/me").json()
    assert me["role"] == "operator"
    assert me["cluster_roles"] == {"alpha": "operator", "beta": "viewer"}
    assert lowered.get("/api/v1/me").json()["cluster_roles"] == {
        "alpha": "admin", "beta": "viewer", "gamma": "admin",
    }  # fmt: skip


def test_a_cluster_role_replaces_the_all_clusters_role_there(django_user_model):
    user = django_user_model.objects.create_user("u")
    assert role_of(user) is None and role_of(user, "alpha") is None
    grant_role(user, "viewer")
    grant_cluster_role(user, "alpha", "admin")
    grant_cluster_role(user, "beta", "viewer")
    assert role_of(user, "alpha") == "admin" and role_of(user, "gamma") == "viewer"
    assert role_of(user) == "admin"  # the highest anywhere
    scope = scope_of(user, "operator")
    assert scope.allows("alpha") and not scope.allows("beta") and not scope.allows("gamma")
    grant_role(user, "operator")
    scope = scope_of(user, "operator")
    assert scope.allows("gamma") and not scope.allows("beta")
    grant_cluster_role(user, "beta", None)
    assert role_of(user, "beta") == "operator"
    user.is_active = False
    assert role_of(user, "alpha") is None
