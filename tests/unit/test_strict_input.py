"""Strict request bodies: an unknown key or a coerced value is a 400 naming it, never dropped.

No service is needed: every request here is refused before any Kafka call (the cluster named
is the registry's `local`, but nothing reaches it), and the test checks that nothing was
written but the audit entry saying "refused".
"""

from __future__ import annotations

import copy
import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework import serializers

from alerts.models import AlertRule
from approvals.models import ApprovalRequest
from console.api.strict import check_body
from console.errors import BadInput
from console.models import AuditEntry
from groups.models import OffsetReset
from sparkjobs.models import Schedule, SparkJob
from tests.conftest import assert_error

pytestmark = pytest.mark.django_db

RESETS = "/api/v1/clusters/local/groups/g/offset-resets"


def _post(client, path: str, body: Any, method: str = "post"):
    return getattr(client, method)(path, json.dumps(body), content_type="application/json")


def _nothing_changed(before_resets: int = 0) -> None:
    assert OffsetReset.objects.count() == before_resets
    assert SparkJob.objects.count() == 0
    assert set(AuditEntry.objects.values_list("outcome", flat=True)) <= {"refused"}


# --- what was seen -------------------------------------------------------------------------


def test_a_misspelt_partitions_key_is_refused_not_read_as_all(operator_client):
    body = {
        "scope": {"topics": [{"topic": "t", "partition": [0]}]},
        "strategy": {"type": "to_offset", "offset": 50},
        "dry_run": False,
    }
    error = assert_error(_post(operator_client, RESETS, body), 400, "invalid")
    assert error["details"]["field"] == "scope.topics[0].partition"
    assert "unknown field" in error["message"] and "partitions" in error["message"]
    _nothing_changed()
    assert AuditEntry.objects.get().action == "offsets.reset"


@pytest.mark.parametrize("value", ["no", "off", "f", "0", 0, "False", "false", 1, "true", None])
def test_dry_run_is_a_json_boolean_only(operator_client, value):
    body = {
        "scope": {"topics": [{"topic": "t", "partitions": [0]}]},
        "strategy": {"type": "to_offset", "offset": 50},
        "dry_run": value,
    }
    error = assert_error(_post(operator_client, RESETS, body), 400, "invalid")
    assert error["details"]["field"] == "dry_run"
    _nothing_changed()


@pytest.mark.parametrize(
    ("strategy", "field"),
    [
        ({"type": "to_offset", "offset": "50"}, "strategy.offset"),
        ({"type": "to_offset", "offset": 50.0}, "strategy.offset"),
        ({"type": "to_offset", "offset": True}, "strategy.offset"),
        ({"type": "shift_by", "shift": "-5"}, "strategy.shift"),
        ({"type": ["earliest"]}, "strategy.type"),
        ({"type": "earliest", "offest": 3}, "strategy.offest"),
    ],
)
def test_reset_strategy_values_are_not_coerced(operator_client, strategy, field):
    body = {"scope": {"topics": [{"topic": "t", "partitions": None}]}, "strategy": strategy}
    error = assert_error(_post(operator_client, RESETS, body), 400, "invalid")
    assert error["details"]["field"] == field
    _nothing_changed()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": 5, "partitions": 1, "replication_factor": 1}, "name"),
        ({"name": "t", "partitions": "3", "replication_factor": 1}, "partitions"),
        ({"name": "t", "partitions": 3, "replication_factor": 1.0}, "replication_factor"),
        (
            {"name": "t", "partitions": 1, "replication_factor": 1, "config": {"a": "b"}},
            "config",
        ),
        ({"name": "t", "partitions": 1, "replication_factor": 1, "configs": {"a": 1}}, "configs.a"),
    ],
)
def test_topic_create_refuses_unknown_keys_and_coercion(admin_client_api, body, field):
    error = assert_error(_post(admin_client_api, "/api/v1/clusters/local/topics", body), 400)
    assert error["details"]["field"] == field
    _nothing_changed()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"delet": ["retention.ms"]}, "delet"),
        ({"delete": [0]}, "delete[0]"),
        ({"set": {"retention.ms": 1000}}, "set.retention.ms"),
        ({"set": ["retention.ms"]}, "set"),
    ],
)
def test_config_patch_refuses_unknown_keys_and_coercion(admin_client_api, body, field):
    path = "/api/v1/clusters/local/topics/t/configs"
    error = assert_error(_post(admin_client_api, path, body, method="patch"), 400)
    assert error["details"]["field"] == field
    _nothing_changed()


def test_every_problem_is_reported_at_once(operator_client):
    body = {
        "scope": {"topics": [{"topic": 7, "partition": [0]}]},
        "strategy": {"type": "to_offset", "offset": "1"},
        "dry_run": "no",
        "why": "x",
    }
    error = assert_error(_post(operator_client, RESETS, body), 400)
    assert set(error["details"]["errors"]) == {
        "scope.topics[0].topic",
        "scope.topics[0].partition",
        "strategy.offset",
        "dry_run",
        "why",
    }
    assert "(and 4 more)" in error["message"]


def test_operations_without_a_body_refuse_one(admin_client_api):
    for method, path in [
        ("delete", "/api/v1/clusters/local/topics/t"),
        ("delete", "/api/v1/clusters/local/groups/g"),
    ]:
        response = _post(admin_client_api, path, {"confirm": "t"}, method=method)
        assert assert_error(response, 400)["details"]["field"] == "body"
    _nothing_changed()


def test_job_cancel_refuses_a_body(operator_client):
    job = SparkJob.objects.create(job_type="topic-export", cluster="local", params={})
    response = _post(operator_client, f"/api/v1/spark/jobs/{job.pk}/cancel", {"force": True})
    assert assert_error(response, 400)["details"]["field"] == "body"
    job.refresh_from_db()
    assert job.state == "queued" and not job.cancel_requested


# --- the walk: every operation with a body, an unknown key at every depth ------------------

EXAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/v1/clusters/{cluster}/elect-leaders"): {
        "election": "preferred",
        "partitions": [{"topic": "t", "partition": 0}],
    },
    ("post", "/api/v1/clusters/{cluster}/groups/{group}/offset-resets"): {
        "scope": {"topics": [{"topic": "t", "partitions": [0]}]},
        "strategy": {"type": "to_offset", "offset": 5},
        "dry_run": True,
        "reason": "x",
    },
    ("post", "/api/v1/clusters/{cluster}/topics"): {
        "name": "t",
        "partitions": 1,
        "replication_factor": 1,
        "configs": {"retention.ms": "1000"},
    },
    ("patch", "/api/v1/clusters/{cluster}/topics/{topic}/configs"): {
        "set": {"retention.ms": "1000"},
        "delete": ["segment.ms"],
    },
    ("patch", "/api/v1/clusters/{cluster}/brokers/{broker}/configs"): {
        "set": {"log.cleaner.backoff.ms": "20000"},
        "delete": ["log.cleaner.threads"],
    },
    ("post", "/api/v1/clusters/{cluster}/acls"): {
        "producer": {
            "principal": "User:p",
            "topics": ["t"],
            "transactional_ids": ["x"],
            "idempotent": True,
        },
        "consumer": {"principal": "User:c", "topics": ["t"], "groups": ["g"]},
        "dry_run": True,
    },
    ("post", "/api/v1/approvals/{approval_id}/approve"): {"reason": "checked the plan"},
    ("post", "/api/v1/approvals/{approval_id}/reject"): {"reason": "not now"},
    ("post", "/api/v1/users"): {
        "username": "new-user",
        "password": "a long enough passphrase",
        "role": "viewer",
        "cluster_roles": {"local": "operator"},
    },
    ("patch", "/api/v1/users/{user_id}"): {
        "is_active": True,
        "role": "operator",
        "cluster_roles": {"local": "viewer"},
    },
    ("post", "/api/v1/users/{user_id}/tokens"): {"name": "ci", "expires_in_days": 30},
    ("patch", "/api/v1/clusters/{cluster}/quotas"): {
        "entity": {"user": "alice", "client_id": "c1"},
        "set": {"producer_byte_rate": 1024},
        "delete": ["consumer_byte_rate"],
    },
    ("put", "/api/v1/clusters/{cluster}/scram-users/{user}"): {
        "mechanism": "SCRAM-SHA-512",
        "password": "pw",
        "iterations": 8192,
    },
    ("post", "/api/v1/clusters/{cluster}/acls/import"): {
        "format": "csv",
        "content": "resource_type,resource_name,principal,operation\nTOPIC,t,User:a,READ\n",
        "dry_run": True,
    },
    ("post", "/api/v1/clusters/{cluster}/acls/delete"): {
        "filter": {"resource_type": "TOPIC", "resource_name": "t", "principal": "User:a"},
        "dry_run": True,
    },
    ("patch", "/api/v1/clusters/{cluster}/broker-defaults"): {
        "set": {"log.cleaner.backoff.ms": "20000"},
        "delete": ["log.cleaner.threads"],
    },
    ("post", "/api/v1/clusters/{cluster}/reassignments"): {
        "plan": {"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [1]}]},
        "throttle_bytes_per_s": 1048576,
        "reason": "decommission broker 3",
    },
    ("patch", "/api/v1/clusters/{cluster}/reassignments/{reassignment_id}"): {
        "throttle_bytes_per_s": 1048576
    },
    ("post", "/api/v1/clusters/{cluster}/reassignments/plan"): {
        "topics": ["t"],
        "brokers": [1, 2],
        "throttle_bytes_per_s": 1048576,
    },
    ("post", "/api/v1/clusters/{cluster}/topics/{topic}/partitions"): {"count": 2},
    ("post", "/api/v1/clusters/{cluster}/topics/{topic}/messages"): {
        "partition": 0,
        "key": {"format": "text", "data": "k"},
        "value": {"format": "json", "data": {"a": 1}},
        "headers": [{"key": "h", "value": {"format": "text", "data": "v"}}],
    },
    ("post", "/api/v1/offset-resets/{reset_id}/execute"): {"reason": "x"},
    ("post", "/api/v1/offset-resets/{reset_id}/undo"): {"reason": "x"},
    ("post", "/api/v1/spark/jobs"): {
        "job_type": "topic-export",
        "cluster": "local",
        "params": {"topic": "t"},
    },
    ("post", "/api/v1/spark/schedules"): {
        "job_type": "topic-export",
        "cluster": "local",
        "params": {"topic": "t"},
        "cron": "0 3 * * *",
        "timezone": "Europe/Paris",
    },
    ("patch", "/api/v1/spark/schedules/{schedule_id}"): {"cron": "30 4 * * *"},
    ("post", "/api/v1/spark/models/{model_id}/promote"): {"reason": "better recall"},
    ("post", "/api/v1/maintenance/worklist/{equipment_id}"): {
        "status": "acknowledged",
        "note": "crew on site tomorrow",
    },
    ("post", "/api/v1/alerts/rules"): {
        "name": "r",
        "cluster": "local",
        "statuses": ["ERR"],
        "channel": "webhook",
        "target": "http://127.0.0.1:9/x",
        "silences": [{"starts_at": "2026-12-24T18:00:00Z", "ends_at": "2026-12-25T18:00:00Z"}],
    },
    ("patch", "/api/v1/alerts/rules/{rule_id}"): {
        "silences": [{"starts_at": "2026-12-24T18:00:00Z", "ends_at": "2026-12-25T18:00:00Z"}],
    },
}


def _schema(client) -> dict[str, Any]:
    return client.get("/api/v1/schema/?format=json").json()


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    if "allOf" in node and len(node["allOf"]) == 1:
        return _resolve(schema, node["allOf"][0])
    return node


def _closed_objects(
    schema: dict[str, Any], node: dict[str, Any], example: Any, path: list[Any]
) -> list[list[Any]]:
    """Paths (key and index lists) of each object in `example` that the schema closes."""
    node = _resolve(schema, node)
    if isinstance(example, list) and "items" in node:
        return [
            found
            for i, item in enumerate(example)
            for found in _closed_objects(schema, node["items"], item, [*path, i])
        ]
    if not isinstance(example, dict) or "properties" not in node:
        return []
    found = [path] if node.get("additionalProperties") is False else []
    for key, value in example.items():
        if key in node["properties"]:
            found += _closed_objects(schema, node["properties"][key], value, [*path, key])
    return found


def _field_name(path: list[Any]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _cases(schema: dict[str, Any]) -> list[tuple[str, str, list[Any]]]:
    cases = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if "requestBody" in operation:
                body = operation["requestBody"]["content"]["application/json"]["schema"]
                example = EXAMPLES[(method, path)]
                for where in _closed_objects(schema, body, example, []):
                    cases.append((method, path, where))
    return cases


def test_the_examples_cover_every_operation_with_a_body(viewer_client):
    schema = _schema(viewer_client)
    with_body = {
        (method, path)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if "requestBody" in operation
    }
    assert with_body == set(EXAMPLES)
    # Every object of every request body is closed, nested ones included.
    cases = _cases(schema)
    assert len(cases) >= 12
    assert ("post", "/api/v1/clusters/{cluster}/groups/{group}/offset-resets", ["strategy"]) in [
        (m, p, w) for m, p, w in cases
    ]


def test_an_unknown_key_anywhere_in_any_body_is_a_400_naming_it(admin_client_api):
    schema = _schema(admin_client_api)
    reset = OffsetReset.objects.create(cluster="local", group_id="g", strategy={}, plan=[])
    rule = AlertRule.objects.create(name="r", cluster="local", channel="webhook", target="x")
    schedule = Schedule.objects.create(
        job_type="topic-export", cluster="local", params={"topic": "t"}, every_minutes=60
    )
    approval = ApprovalRequest.objects.create(
        cluster="local", action="topic.delete", target="t", summary="s", plan={"topic": "t"},
        requested_by=admin_client_api.user, expires_at=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    for method, path, where in _cases(schema):
        body = copy.deepcopy(EXAMPLES[(method, path)])
        target = body
        for part in where:
            target = target[part]
        target["surplus"] = 1
        url = (
            path.replace("{cluster}", "local")
            .replace("{topic}", "t")
            .replace("{broker}", "1")
            .replace("{reassignment_id}", "999999")
            .replace("{group}", "g")
            .replace("{reset_id}", str(reset.pk))
            .replace("{rule_id}", str(rule.pk))
            .replace("{schedule_id}", str(schedule.pk))
            .replace("{model_id}", "999999")
            .replace("{equipment_id}", "eq-none")
            .replace("{user_id}", str(admin_client_api.user.pk))
            .replace("{approval_id}", str(approval.pk))
        )
        response = _post(admin_client_api, url, body, method=method)
        expected = _field_name([*where, "surplus"])
        error = assert_error(response, 400, "invalid")
        assert error["details"]["field"] == expected, (method, path, error)
    _nothing_changed(before_resets=1)
    assert AuditEntry.objects.count() == len(_cases(schema))
    schedule.refresh_from_db()
    assert schedule.cron is None and schedule.every_minutes == 60  # the PATCH changed nothing


# --- the reader itself ---------------------------------------------------------------------


class _Inner(serializers.Serializer):
    n = serializers.IntegerField()
    ok = serializers.BooleanField(required=False)
    names = serializers.ListField(child=serializers.CharField(), required=False)
    kind = serializers.ChoiceField(choices=["a", "b"], required=False)
    ratio = serializers.FloatField(required=False)


class _Outer(serializers.Serializer):
    inner = _Inner(required=False)
    many = _Inner(many=True, required=False)
    free = serializers.JSONField(required=False)
    id = serializers.IntegerField(read_only=True)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"inner": {"n": True}}, "inner.n"),
        ({"inner": {"n": "1"}}, "inner.n"),
        ({"inner": {"n": 1.5}}, "inner.n"),
        ({"inner": {"n": 1, "ok": "yes"}}, "inner.ok"),
        ({"inner": {"n": 1, "names": "a"}}, "inner.names"),
        ({"inner": {"n": 1, "names": ["a", 2]}}, "inner.names[1]"),
        ({"inner": {"n": 1, "kind": 1}}, "inner.kind"),
        ({"inner": {"n": 1, "ratio": "0.5"}}, "inner.ratio"),
        ({"inner": {"n": 1, "ratio": False}}, "inner.ratio"),
        ({"inner": [1]}, "inner"),
        ({"many": {"n": 1}}, "many"),
        ({"many": [{"n": 1}, {"m": 1}]}, "many[1].m"),
        ({"id": 3}, "id"),  # read-only: not something a request sets
    ],
)
def test_the_reader_names_the_first_problem(data, field):
    with pytest.raises(BadInput) as caught:
        check_body(_Outer(data=data), data)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"inner": {"n": 1, "ok": False, "names": [], "kind": "a", "ratio": 1}},
        {"inner": None, "many": [{"n": -3, "ratio": 0.5}]},
        {"free": {"anything": ["goes", 1, 2.5, True]}},  # checked by its own schema
    ],
)
def test_the_reader_lets_exact_bodies_through(data):
    check_body(_Outer(data=data), data)


# --- one date-time range for every endpoint ------------------------------------------------

OUT_OF_RANGE = [
    "9999-12-31T23:59:59-05:00",  # year 10000 in UTC (an OverflowError, a 500, before)
    "0001-01-01T00:00:00+01:00",  # year 0 in UTC (the same)
    "1969-12-31T23:59:59.999Z",
]


@pytest.mark.parametrize("text", OUT_OF_RANGE)
def test_a_reset_date_time_outside_the_range_is_a_400(operator_client, text):
    body = {
        "scope": {"topics": [{"topic": "t", "partitions": None}]},
        "strategy": {"type": "to_datetime", "datetime": text},
    }
    error = assert_error(_post(operator_client, RESETS, body), 400)
    assert error["details"]["field"] == "strategy.datetime"
    assert "1970-01-01 .. 9999-12-31" in error["message"]
    _nothing_changed()


@pytest.mark.parametrize("text", OUT_OF_RANGE)
@pytest.mark.parametrize("job_type", ["topic-export", "topic-profile"])
def test_a_job_date_time_outside_the_range_is_a_400(job_type, text):
    import time

    from console import kafka
    from console.metadata import ClusterSnapshot
    from sparkjobs.catalog import get_job_type
    from sparkjobs.job_types import check_params, validate_params

    topic = kafka.TopicMeta("t", False, [kafka.PartitionMeta(0, 1, [1], [1])])
    snap = ClusterSnapshot(time.monotonic(), kafka.ClusterDescription("c", 1, []), {"t": topic})
    kind = get_job_type(job_type)
    with pytest.raises(BadInput) as caught:
        check_params(kind, snap, validate_params(kind, {"topic": "t", "start_time": text}))
    assert caught.value.field == "params.start_time"
    assert "1970-01-01 .. 9999-12-31" in caught.value.message


def test_the_range_ends_are_taken():
    from console.api.limits import MAX_TIMESTAMP_MS, iso_millis

    assert iso_millis("1970-01-01T00:00:00Z", "f", zone_required=True, example="") == 0
    end = iso_millis("9999-12-31T23:59:59.999Z", "f", zone_required=True, example="")
    assert end == MAX_TIMESTAMP_MS
    with pytest.raises(BadInput):
        iso_millis("2026-01-01T00:00:00", "f", zone_required=True, example="")


# --- job params: JSON integers, whole-text patterns ----------------------------------------


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"topic": "t", "start_offset": 5.0}, "params.start_offset"),
        ({"topic": "t", "partitions": [1.0]}, "params.partitions[0]"),
        ({"topic": "t", "output_name": "x\n"}, "params.output_name"),
        ({"topic": "t\n"}, "params.topic"),
        ({"topic": "t", "start_offset": {"0\n": 1}}, "params.start_offset"),
    ],
)
def test_job_params_take_json_integers_and_whole_patterns(params, field):
    from sparkjobs.catalog import get_job_type
    from sparkjobs.job_types import validate_params

    with pytest.raises(BadInput) as caught:
        validate_params(get_job_type("topic-export"), params)
    assert caught.value.field == field


def test_a_reset_scope_names_its_partitions_or_null_for_all(operator_client):
    """A missing `partitions` is a 400, never "all"; `null` says "all" explicitly."""
    body = {"scope": {"topics": [{"topic": "t"}]}, "strategy": {"type": "earliest"}}
    error = assert_error(_post(operator_client, RESETS, body), 400)
    assert error["details"]["field"] == "scope.topics[0].partitions"
    _nothing_changed()


# --- query strings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("filtr=under_replicated", "filtr"),  # read as no filter: every topic
        ("filter=under_replicated&filter=unavailable", "filter"),
        ("include_internal=true&include_internal=false", "include_internal"),
    ],
)
def test_an_undeclared_or_repeated_query_parameter_is_a_400(viewer_client, query, field):
    response = viewer_client.get(f"/api/v1/clusters/no-such-cluster/topics?{query}")
    assert assert_error(response, 400)["details"]["field"] == field


def test_every_operation_takes_exactly_its_declared_query_parameters(viewer_client):
    from console.api.query import declared, schema_path

    schema = _schema(viewer_client)
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            assert set(declared()[(method.upper(), path)]) == names
    assert schema_path("api/v1/clusters/<str:cluster>/groups/<group_id:group>") == (
        "/api/v1/clusters/{cluster}/groups/{group}"
    )
    # A declared parameter still works.
    assert viewer_client.get("/api/v1/audit?limit=5").status_code == 403  # viewer: no audit
    assert viewer_client.get("/api/v1/me?").status_code == 200


def test_the_declared_parameters_are_read_once_under_parallel_first_requests(monkeypatch):
    """The first requests of a process come in parallel; drf-spectacular's generator is not
    thread-safe (a storm of submits got 500s): one build, under a lock."""
    import threading

    from console.api import query

    monkeypatch.setattr(query, "_declared", None)
    builds = []
    real = query._read_schema

    def slow_build():
        builds.append(1)
        return real()

    monkeypatch.setattr(query, "_read_schema", slow_build)
    results = []
    threads = [threading.Thread(target=lambda: results.append(query.declared())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1 and len(results) == 8
    assert all(r is results[0] for r in results)
