"""A change can never widen: every malformed variant of a valid, narrow request (each key
misspelt or dropped, each value replaced by a look-alike of another type, an extra key at every
depth; tests/mutations.py) is either refused or does no more than a valid request would, and
the real cluster is read after each to check that nothing outside the narrow request changed.

The only variants set aside are the documented spellings of "all" (`partitions: null`), which
are not malformed: they say "all" explicitly.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from typing import Any

import pytest

from console.kafka import dev
from console.kafka.types import Acl, AclFilter
from tests.mutations import variants
from tests.stack import cluster_client, commit_and_wait, log_ends, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

PARTITIONS = 4
START = 10


@pytest.fixture(autouse=True)
def _no_write_limit(monkeypatch):
    from console.api.throttle import WriteRateThrottle

    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "100000/min"})


@pytest.fixture(scope="module")
def topic(stack) -> str:
    client = cluster_client()
    name = f"widen-{uuid.uuid4().hex[:8]}"
    dev.create_topics(client, [(name, PARTITIONS, 3, {})])
    tps = [(name, p) for p in range(PARTITIONS)]
    log_ends(client, tps)
    producer = dev.make_producer(client, acks="all")
    for partition in range(PARTITIONS):
        for i in range(100):
            producer.produce(name, value=b"%d" % i, partition=partition)
    assert producer.flush(30) == 0
    yield name
    client.delete_topics([name])


def _send(client, method: str, path: str, body: Any):
    return getattr(client, method)(path, json.dumps(body), content_type="application/json")


def _tally(statuses: Counter, response) -> int:
    statuses[response.status_code] += 1
    assert response.status_code < 500, response.content
    return response.status_code


def test_an_offset_reset_never_touches_a_partition_it_did_not_name(operator_client, topic):
    client = cluster_client()
    group = f"widen-g-{uuid.uuid4().hex[:8]}"
    tps = [(topic, p) for p in range(PARTITIONS)]
    start = dict.fromkeys(tps, START)
    commit_and_wait(client, group, start)
    narrow = {
        "scope": {"topics": [{"topic": topic, "partitions": [1]}]},
        "strategy": {"type": "to_offset", "offset": 50},
        "dry_run": False,
        "reason": "narrow",
    }
    path = f"/api/v1/clusters/local/groups/{group}/offset-resets"
    statuses: Counter = Counter()
    changed = 0
    for what, body in variants(narrow):
        if what == "('scope', 'topics', 0, 'partitions')=None":
            continue  # `null` is the documented "every partition"
        response = _send(operator_client, "post", path, body)
        _tally(statuses, response)
        committed = _after(client, group, response)
        moved = {tp for tp in tps if committed.get(tp) != START}
        # Whatever a variant changed, it named: partitions of its own explicit list only.
        assert moved <= _named_partitions(body), (what, body, committed)
        if moved:
            changed += 1
            commit_and_wait(client, group, start)
    # The narrow request itself, for contrast: it changes partition 1 only.
    assert _send(operator_client, "post", path, narrow).status_code == 201
    assert client.committed_offsets({group: None})[group] == {**start, (topic, 1): 50}
    print("reset variants:", dict(statuses), "changed partition 1:", changed)
    assert statuses[400] > 100 and changed >= 1  # the walk did run both ways


def _after(client: Any, group: str, response: Any) -> dict:
    """The group's committed offsets once what `response` says it committed can be read: right
    after a commit, a read can still reach the coordinator's previous answer (a red run read
    the old offset of a partition a variant had just reset, and blamed the next variant)."""
    answer = response.json() if response.status_code in (200, 201) else {}
    # Only what the answer says was committed: a row can say Kafka did not take it (its
    # coordinator moving after a broker restart earlier in the run), and the read must not
    # wait for it.
    applied = {
        (row["topic"], row["partition"]): row["new_offset"]
        for row in (answer.get("plan") or [] if answer.get("executed") else [])
        if row.get("committed", True)
    }

    def read() -> dict | None:
        committed = client.committed_offsets({group: None})[group]
        return committed if all(committed.get(tp) == o for tp, o in applied.items()) else None

    what = f"the committed offsets {applied} (the answer: {answer})"
    return wait_for(read, timeout=15, what=what, every=0.2)


def _named_partitions(body: Any) -> set[tuple[str, int]]:
    """The (topic, partition) pairs a reset body lists explicitly, read as leniently as
    anything could read them: a variant may change these and nothing else."""
    try:
        return {
            (item["topic"], p)
            for item in body["scope"]["topics"]
            for p in item["partitions"]
            if isinstance(p, int)
        }
    except (KeyError, TypeError):
        return set()


def test_a_config_change_never_touches_another_key(admin_client_api, topic):
    client = cluster_client()
    baseline = {"retention.ms": "86400000", "segment.bytes": "1048576"}
    client.alter_topic_configs(topic, baseline, [])

    def dynamic() -> dict[str, str]:
        values = client.describe_topic_configs([topic])[topic]
        return {k: v.value for k, v in values.items() if v.source == "DYNAMIC_TOPIC_CONFIG"}

    narrow = {"set": {"retention.ms": "3600000"}}
    path = f"/api/v1/clusters/local/topics/{topic}/configs"
    statuses: Counter = Counter()
    for what, body in variants(narrow):
        _tally(statuses, _send(admin_client_api, "patch", path, body))
        now = dynamic()
        # Only retention.ms may differ (set to something else, or deleted); nothing else.
        assert {k: v for k, v in now.items() if k != "retention.ms"} == {
            "segment.bytes": "1048576"
        }, (what, body, now)
        if now.get("retention.ms") != baseline["retention.ms"]:
            client.alter_topic_configs(topic, baseline, [])
    print("config variants:", dict(statuses))
    assert statuses[400] > 20


def test_a_topic_create_never_creates_another_topic_or_config(admin_client_api, stack):
    client = cluster_client()
    name = f"widen-new-{uuid.uuid4().hex[:8]}"
    narrow = {
        "name": name,
        "partitions": 2,
        "replication_factor": 3,
        "configs": {"retention.ms": "3600000"},
    }
    before = {t.name for t in client.topic_metadata()}
    statuses: Counter = Counter()
    for what, body in variants(narrow):
        status = _tally(
            statuses, _send(admin_client_api, "post", "/api/v1/clusters/local/topics", body)
        )
        now = {t.name for t in client.topic_metadata()}
        new = now - before
        asked = body.get("name") if isinstance(body.get("name"), str) else name
        assert new <= {asked}, (what, body, new)
        if status == 201:
            created = body["name"]
            configs = client.describe_topic_configs([created])[created]
            dynamic = {k for k, v in configs.items() if v.source == "DYNAMIC_TOPIC_CONFIG"}
            assert dynamic <= set(body.get("configs") or {}), (what, body, dynamic)
            client.delete_topics([created])
            before -= {created}
    print("create variants:", dict(statuses))
    assert statuses[400] > 20


def test_an_election_never_reaches_a_partition_it_did_not_name(admin_client_api, topic):
    narrow = {"election": "preferred", "partitions": [{"topic": topic, "partition": 0}]}
    statuses: Counter = Counter()
    for what, body in variants(narrow):
        if what == "('partitions',)=None":
            continue  # `null` is the documented "every partition"
        response = _send(admin_client_api, "post", "/api/v1/clusters/local/elect-leaders", body)
        if _tally(statuses, response) == 200:
            named = {(p["topic"], p["partition"]) for p in body["partitions"]}
            reached = {(r["topic"], r["partition"]) for r in response.json()}
            assert reached <= named, (what, body, reached)
    print("election variants:", dict(statuses))
    assert statuses[400] > 20


def test_an_acl_delete_never_removes_a_binding_its_filter_did_not_select(admin_client_api, stack):
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    topic = f"widen-acl-{tag}"

    def acl(name: str, principal: str, operation: str, pattern: str = "LITERAL") -> Acl:
        return Acl("TOPIC", name, pattern, f"User:{principal}-{tag}", "*", operation, "ALLOW")

    target = acl(topic, "a", "READ")
    others = [
        acl(topic, "b", "READ"),  # another principal on the same topic
        acl(topic, "a", "WRITE"),  # another operation of the same principal
        acl(f"{topic}-longer", "a", "READ"),
        acl(topic[:-2], "a", "READ", pattern="PREFIXED"),  # applies to the topic
    ]
    every = {target, *others}
    assert not any(client.create_acls(sorted(every)).values())

    def ours() -> set[Acl]:
        return {a for a in client.describe_acls(AclFilter()) if tag in a.principal}

    wait_for(lambda: ours() == every, timeout=15, what="the bindings", every=0.2)
    narrow = {
        "filter": {
            "resource_type": "TOPIC",
            "resource_name": topic,
            "pattern_type": "literal",
            "principal": target.principal,
            "operation": "READ",
        },
        "dry_run": False,
    }
    statuses: Counter = Counter()
    deleted_target = 0
    try:
        for what, body in variants(narrow):
            if what in ("('filter',)-principal", "('filter',)-operation"):
                continue  # an absent filter key is the documented "any" (kafka-acls.sh --remove)
            response = _send(admin_client_api, "post", "/api/v1/clusters/local/acls/delete", body)
            _tally(statuses, response)
            gone = every - ours()
            assert gone <= {target}, (what, body, gone)
            if gone:
                deleted_target += 1
                assert not any(client.create_acls([target]).values())
                wait_for(lambda: ours() == every, timeout=15, what="the target back", every=0.2)
    finally:
        client.delete_acls([AclFilter(principal=p) for p in {a.principal for a in every}])
    print("acl delete variants:", dict(statuses), "deleted the target:", deleted_target)
    assert statuses[400] > 50 and deleted_target >= 1


def test_a_quota_change_never_touches_another_entity_or_key(admin_client_api, stack):
    client = cluster_client()
    tag = uuid.uuid4().hex[:8]
    user, other = f"widen-q-{tag}", f"widen-q-other-{tag}"
    baseline = {
        (("user", user),): {"producer_byte_rate": 1000.0, "consumer_byte_rate": 1000.0},
        (("user", other),): {"producer_byte_rate": 1000.0},
    }

    def quotas() -> dict:
        return client.describe_client_quotas()

    def restore() -> None:
        for entity, values in quotas().items():
            if entity not in baseline:
                client.alter_client_quotas(entity, {}, list(values))
        for entity, values in baseline.items():
            client.alter_client_quotas(entity, values, [])
        wait_for(lambda: quotas() == {**before, **baseline}, timeout=15, what="the baseline")

    before = quotas()
    restore()
    narrow = {"entity": {"user": user}, "set": {"producer_byte_rate": 2048}}
    statuses: Counter = Counter()
    try:
        for what, body in variants(narrow):
            response = _send(admin_client_api, "patch", "/api/v1/clusters/local/quotas", body)
            _tally(statuses, response)
            now = quotas()
            changed = {
                e for e in {*now, *before, *baseline} if now.get(e) != {**before, **baseline}.get(e)
            }
            if not changed:
                continue
            # Only the entity the body names, and only the keys it sets.
            named = (
                body.get("entity", {}).get("user") if isinstance(body.get("entity"), dict) else None
            )
            assert changed == {(("user", named),)}, (what, body, changed)
            keys = set(body["set"]) if isinstance(body.get("set"), dict) else set()
            old = {**before, **baseline}.get((("user", named),), {})
            new = now[(("user", named),)]
            assert {k for k in {*old, *new} if old.get(k) != new.get(k)} <= keys, (what, body)
            restore()
    finally:
        for entity, values in quotas().items():
            if entity not in before:
                client.alter_client_quotas(entity, {}, list(values))
    print("quota variants:", dict(statuses))
    assert statuses[400] > 30 and statuses[200] >= 1
