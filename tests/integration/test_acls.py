"""Kafka ACLs from the console, checked with kafka-acls.sh on the same cluster (whose brokers run
KRaft's StandardAuthorizer): the list for literal, prefixed, match and any filters with allow,
deny and wildcard bindings; the --producer / --consumer sets; a delete preview against what
the CLI's --remove deletes; and a real SASL client refused before a binding and allowed after.
"""

from __future__ import annotations

import re
import uuid

import pytest

from console.audit import AuditEntry
from console.kafka import dev
from console.kafka.types import AclFilter
from tests.stack import cluster_client, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/api/v1/clusters/local/acls"
_PATTERN = re.compile(r"ResourcePattern\(resourceType=(\w+), name=(.*), patternType=(\w+)\)")
_ENTRY = re.compile(r"\(principal=(.+), host=(.+), operation=(\w+), permissionType=(\w+)\)")


def _cli_list(*args: str) -> set[tuple[str, ...]]:
    """`kafka-acls.sh --list ARGS`, parsed into (type, name, pattern, principal, host, op,
    permission) rows."""
    out = kafka_tool("kafka-acls", "--list", *args)
    assert out.returncode == 0, out.stdout + out.stderr
    rows, resource = set(), None
    for line in out.stdout.splitlines():
        if m := _PATTERN.search(line):
            resource = m.groups()
        elif (m := _ENTRY.search(line)) and resource:
            rows.add((*resource, *m.groups()))
    return rows


def _rows(answer: list[dict]) -> set[tuple[str, ...]]:
    keys = (
        "resource_type",
        "resource_name",
        "pattern_type",
        "principal",
        "host",
        "operation",
        "permission",
    )
    return {tuple(a[k] for k in keys) for a in answer}


def _binding(kind, name, principal, op, pattern="LITERAL", permission="ALLOW", host="*"):
    return {
        "resource_type": kind,
        "resource_name": name,
        "pattern_type": pattern,
        "principal": principal,
        "host": host,
        "operation": op,
        "permission": permission,
    }


@pytest.fixture
def names(stack):
    """Names of this test's own (the cluster's ACLs are shared by every test)."""
    tag = uuid.uuid4().hex[:8]
    yield {
        "topic": f"acl-t-{tag}",
        "prefix": f"acl-t-{tag[:4]}",
        "group": f"acl-g-{tag}",
        "tag": tag,
    }
    client = cluster_client()
    for kind, name in (
        ("TOPIC", f"acl-t-{tag}"),
        ("TOPIC", f"acl-t-{tag[:4]}"),
        ("GROUP", f"acl-g-{tag}"),
    ):
        client.delete_acls([AclFilter(kind, name, "ANY")])
    client.delete_acls([AclFilter("TOPIC", "*", "LITERAL", f"User:deny-{tag}")])


def test_the_list_equals_kafka_acls_for_literal_prefixed_match_and_any(
    admin_client_api, viewer_client, names
):
    tag, topic, prefix = names["tag"], names["topic"], names["prefix"]
    wanted = [
        _binding("TOPIC", topic, f"User:a-{tag}", "READ"),
        _binding("TOPIC", topic, f"User:a-{tag}", "WRITE", host="10.0.0.7"),
        _binding("TOPIC", prefix, f"User:b-{tag}", "WRITE", pattern="PREFIXED"),
        _binding("TOPIC", topic, f"User:b-{tag}", "DESCRIBE", pattern="PREFIXED"),
        _binding("TOPIC", "*", f"User:deny-{tag}", "READ", permission="DENY"),
        _binding("GROUP", names["group"], f"User:a-{tag}", "READ"),
    ]
    preview = admin_client_api.post(URL, {"bindings": wanted}, format="json")
    assert preview.status_code == 200, preview.content
    assert preview.json()["dry_run"] is True and len(preview.json()["bindings"]) == 6
    assert _cli_list("--topic", topic) == set()  # a preview changes nothing
    created = admin_client_api.post(URL, {"bindings": wanted, "dry_run": False}, format="json")
    assert created.status_code == 200, created.content
    assert _rows(created.json()["bindings"]) == _rows(wanted)
    entry = AuditEntry.objects.filter(action="acl.create").latest("id")
    assert entry.outcome == "ok" and len(entry.details["created"]) == 6
    # Asked again: all six exist already, nothing is new (the CLI's "already exists").
    again = admin_client_api.post(URL, {"bindings": wanted}, format="json").json()
    assert again["bindings"] == [] and _rows(again["existing"]) == _rows(wanted)

    for pattern in ("literal", "prefixed", "match", "any"):
        for name in (topic, prefix):
            mine = viewer_client.get(
                URL, {"resource_type": "TOPIC", "resource_name": name, "pattern_type": pattern}
            )
            assert mine.status_code == 200, mine.content
            cli = _cli_list("--topic", name, "--resource-pattern-type", pattern)
            # Other tests' wildcard bindings may show up under match: compare ours.
            ours = {r for r in cli if tag in r[1] or tag in r[3]}
            assert {r for r in _rows(mine.json()) if tag in r[1] or tag in r[3]} == ours, (
                pattern,
                name,
            )
            if pattern == "match" and name == topic:
                # literal, prefixed on a prefix of the name, the wildcard deny
                assert {r[2] for r in ours} == {"LITERAL", "PREFIXED"}
                assert any(r[1] == "*" and r[6] == "DENY" for r in ours)
    by_principal = viewer_client.get(URL, {"principal": f"User:a-{tag}"}).json()
    assert _rows(by_principal) == _cli_list("--principal", f"User:a-{tag}") & _rows(by_principal)
    assert {r[0] for r in _rows(by_principal)} == {"TOPIC", "GROUP"}


def test_producer_and_consumer_sets_equal_the_clis(admin_client_api, names):
    tag, topic, group = names["tag"], names["topic"], names["group"]
    txn = f"acl-tx-{tag}"
    mine = admin_client_api.post(
        URL,
        {
            "producer": {
                "principal": f"User:pc-{tag}",
                "topics": [topic],
                "transactional_ids": [txn],
                "idempotent": True,
            },
            "consumer": {"principal": f"User:pc-{tag}", "topics": [topic], "groups": [group]},
        },
        format="json",
    )
    assert mine.status_code == 200, mine.content
    out = kafka_tool(
        "kafka-acls",
        "--add",
        "--producer",
        "--consumer",
        "--idempotent",
        "--allow-principal",
        f"User:cli-{tag}",
        "--topic",
        topic,
        "--group",
        group,
        "--transactional-id",
        txn,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    try:
        cli = _cli_list("--principal", f"User:cli-{tag}")
        cli = {r for r in cli if r[3] == f"User:cli-{tag}"}
        assert {r[:3] + r[4:] for r in _rows(mine.json()["bindings"])} == {
            r[:3] + r[4:] for r in cli
        }
        assert len(cli) == 3 + 1 + 1 + 2 + 1  # topic W/D/C + R, group R, txn W/D, cluster
    finally:
        kafka_tool("kafka-acls", "--remove", "--force", "--transactional-id", txn)
        cluster_client().delete_acls(
            [
                AclFilter("CLUSTER", "kafka-cluster", "LITERAL", f"User:{who}-{tag}")
                for who in ("cli", "pc")
            ]
        )


def test_a_delete_preview_names_exactly_what_the_clis_remove_deletes(
    admin_client_api, viewer_client, names
):
    tag, topic, prefix = names["tag"], names["topic"], names["prefix"]
    bindings = [
        _binding("TOPIC", topic, f"User:a-{tag}", "READ"),
        _binding("TOPIC", topic, f"User:b-{tag}", "ALL", permission="DENY"),
        _binding("TOPIC", prefix, f"User:a-{tag}", "WRITE", pattern="PREFIXED"),
        _binding("TOPIC", f"{topic}-longer", f"User:a-{tag}", "WRITE", pattern="PREFIXED"),
    ]
    assert (
        admin_client_api.post(URL, {"bindings": bindings, "dry_run": False}, format="json")
    ).status_code == 200
    flt = {"resource_type": "TOPIC", "resource_name": topic, "pattern_type": "match"}
    preview = admin_client_api.post(f"{URL}/delete", {"filter": flt}, format="json")
    assert preview.status_code == 200, preview.content
    previewed = {r for r in _rows(preview.json()["bindings"]) if tag in r[1] or tag in r[3]}
    before = _rows(viewer_client.get(URL).json())
    assert before >= previewed  # a preview deletes nothing
    # Literal on the name and the prefix of it; never the longer prefix.
    assert {(r[1], r[2]) for r in previewed} == {(topic, "LITERAL"), (prefix, "PREFIXED")}
    out = kafka_tool(
        "kafka-acls", "--remove", "--force", "--topic", topic, "--resource-pattern-type", "match"
    )
    assert out.returncode == 0, out.stdout + out.stderr

    # The CLI's delete was committed; the broker the console asks applies it a moment later.
    def removed() -> tuple[set] | None:  # a tuple: an empty list of rows is an answer too
        rows = _rows(viewer_client.get(URL).json())
        return (rows,) if not rows & previewed else None

    (after,) = wait_for(
        removed,
        timeout=15,
        what="the console to list none of the removed bindings",
        every=0.3,
    )
    assert {r for r in before - after if tag in r[1] or tag in r[3]} == previewed
    # The console's own delete of what is left of ours, by a principal filter: exactly that.
    flt = {
        "resource_type": "TOPIC",
        "resource_name": f"{topic}-longer",
        "pattern_type": "prefixed",
        "principal": f"User:a-{tag}",
    }
    done = admin_client_api.post(f"{URL}/delete", {"filter": flt, "dry_run": False}, format="json")
    assert done.status_code == 200, done.content
    assert [b["resource_name"] for b in done.json()["bindings"]] == [f"{topic}-longer"]
    assert not any(
        tag in r[1]
        for r in _cli_list("--topic", f"{topic}-longer", "--resource-pattern-type", "any")
    )
    assert AuditEntry.objects.filter(action="acl.delete", outcome="ok").exists()


def test_an_enforced_acl_refuses_a_client_then_a_binding_allows_it(admin_client_api, names):
    tag, topic = names["tag"], names["topic"]
    secure = cluster_client("local-secure")
    user, password = f"acl-user-{tag}", f"pw-{tag}"
    dev.upsert_scram_user(secure, user, "SCRAM-SHA-512", password)
    dev.create_topics(cluster_client(), [(topic, 1, 3, {})])
    # Someone else's binding makes the topic default-deny for everyone else.
    other = [_binding("TOPIC", topic, f"User:other-{tag}", "WRITE")]
    assert (
        admin_client_api.post(URL, {"bindings": other, "dry_run": False}, format="json").status_code
        == 200
    )

    def produce() -> str | None:
        producer = dev.make_producer(
            secure,
            **{"sasl.username": user, "sasl.password": password, "message.timeout.ms": 8000},
        )
        errors: list[str] = []
        producer.produce(
            topic, b"v", on_delivery=lambda err, _: errors.append(str(err)) if err else None
        )
        producer.flush(15)
        return errors[0] if errors else None

    refused = produce()
    assert refused is not None and "TOPIC_AUTHORIZATION_FAILED" in refused, refused
    mine = [_binding("TOPIC", topic, f"User:{user}", "WRITE")]
    assert (
        admin_client_api.post(URL, {"bindings": mine, "dry_run": False}, format="json").status_code
        == 200
    )
    # The authorizer applies new bindings as the brokers' metadata catches up.
    wait_for(
        lambda: True if produce() is None else None, timeout=30, what="the write to be allowed"
    )


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_an_export_imports_back_to_the_same_bindings(admin_client_api, viewer_client, names, fmt):
    tag, topic = names["tag"], names["topic"]
    bindings = [
        _binding("TOPIC", topic, f"User:x-{tag}", "READ"),
        _binding("TOPIC", names["prefix"], f"User:x-{tag}", "WRITE", pattern="PREFIXED"),
        _binding("GROUP", names["group"], f"User:x-{tag}", "READ", permission="DENY"),
    ]
    made = admin_client_api.post(URL, {"bindings": bindings, "dry_run": False}, format="json")
    assert made.status_code == 200, made.content
    exported = viewer_client.get(
        f"{URL}/export", {"file_format": fmt, "principal": f"User:x-{tag}"}
    )
    assert exported.status_code == 200, exported.content
    assert f"acls-local.{fmt}" in exported["Content-Disposition"]
    content = exported.content.decode()
    gone = cluster_client().delete_acls([AclFilter(principal=f"User:x-{tag}")])
    assert len(gone) == 3
    wait_for(
        lambda: not viewer_client.get(URL, {"principal": f"User:x-{tag}"}).json(),
        timeout=15,
        what="the bindings to go",
        every=0.3,
    )
    body = {"format": fmt, "content": content}
    preview = admin_client_api.post(f"{URL}/import", body, format="json")
    assert preview.status_code == 200, preview.content
    assert _rows(preview.json()["bindings"]) == _rows(bindings)  # all new again, none made yet
    assert viewer_client.get(URL, {"principal": f"User:x-{tag}"}).json() == []
    done = admin_client_api.post(f"{URL}/import", {**body, "dry_run": False}, format="json")
    assert done.status_code == 200, done.content
    assert _rows(viewer_client.get(URL, {"principal": f"User:x-{tag}"}).json()) == _rows(bindings)
    # A bad line: a 400 naming it, and nothing created.
    bad = "resource_type,resource_name,principal,operation\nTOPIC,t,User:y,READ\nTOPIC,t,y,READ\n"
    refused = admin_client_api.post(
        f"{URL}/import", {"format": "csv", "content": bad, "dry_run": False}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"]["details"]["line"] == 3
    assert viewer_client.get(URL, {"principal": "User:y"}).json() == []
    cluster_client().delete_acls([AclFilter(principal=f"User:x-{tag}")])
