"""Consumer groups, lag and the safety of offset resets, against the real cluster."""

from __future__ import annotations

import threading
import uuid

import pytest

from console.clusters import get_cluster
from console.kafka import dev
from console.models import AuditEntry
from groups.models import GroupResetLock, OffsetReset
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def topic(stack) -> str:
    name = f"grp-{uuid.uuid4().hex[:8]}"
    client = cluster_client()
    dev.create_topics(client, [(name, 3, 3, {})])
    producer = dev.make_producer(client)
    for partition in range(3):
        for i in range(10 + partition):
            producer.produce(name, value=str(i), partition=partition)
    assert producer.flush(30) == 0
    return name


def _group() -> str:
    return f"it-group-{uuid.uuid4().hex[:8]}"


def _committed(stack, group: str) -> dict:
    return cluster_client().committed_offsets({group: None})[group]


def _reset_url(group: str) -> str:
    return f"/api/v1/clusters/local/groups/{group}/offset-resets"


@pytest.fixture
def idle_group(stack, topic):
    """A group with no members, committed on partitions 0 and 1 (not 2)."""
    group = _group()
    commit_and_wait(cluster_client(), group, {(topic, 0): 4, (topic, 1): 2})
    return group


@pytest.fixture
def active_group(stack, topic):
    """A group with one live member consuming `topic`."""
    group = _group()
    stop = threading.Event()
    joined = threading.Event()

    def consume():
        consumer = dev.make_consumer(cluster_client(), group, **{"auto.offset.reset": "earliest"})
        consumer.subscribe([topic], on_assign=lambda c, parts: joined.set())
        while not stop.is_set():
            consumer.poll(0.2)
        consumer.close()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    assert joined.wait(30), "consumer did not join"
    yield group
    stop.set()
    thread.join(15)


@pytest.fixture
def demo_traffic(stack, demo_topics):
    """The demo's producer and its lagging group `mygroup` (3 members), as `bin/run` runs them."""
    from devtools.demo import traffic

    stop = threading.Event()
    runner = threading.Thread(target=traffic.run, args=(get_cluster("local"), stop), daemon=True)
    runner.start()

    def stable_with_three():
        desc = cluster_client().describe_groups([traffic.DEMO_GROUP])
        group = desc[traffic.DEMO_GROUP]
        return group.state == "Stable" and len(group.members) == 3

    wait_for(stable_with_three, timeout=60, what="mygroup to be Stable with 3 members")
    yield traffic.DEMO_GROUP
    stop.set()
    runner.join(30)


def _refused_reset_to_earliest(client, group: str, reason: str) -> dict:
    """An executed reset of every topic to earliest, which an active group refuses: the error
    of its 409."""
    body = {
        "scope": {"all_topics": True},
        "strategy": {"type": "earliest"},
        "dry_run": False,
        "reason": reason,
    }
    return assert_error(client.post(_reset_url(group), body, format="json"), 409, "group_active")


def test_the_demo_group_cannot_be_reset_while_consuming(operator_client, demo_traffic, stack):
    before = wait_for(
        lambda: (c := _committed(stack, demo_traffic)) and any(o for o in c.values()) and c,
        timeout=60,
        what="mygroup to commit",
    )
    error = _refused_reset_to_earliest(operator_client, demo_traffic, "replay everything")
    assert error["message"].startswith("Group 'mygroup' is Stable with 3 members")
    # The members keep committing forward; a reset to earliest would have moved them back.
    after = _committed(stack, demo_traffic)
    assert all((after[tp] or 0) >= (offset or 0) for tp, offset in before.items())
    assert not OffsetReset.objects.filter(group_id="mygroup").exists()
    assert AuditEntry.objects.filter(target="mygroup", outcome="refused").count() == 1
    rows = {g["group_id"]: g for g in operator_client.get("/api/v1/clusters/local/groups").json()}
    assert rows["mygroup"]["member_count"] == 3
    assert rows["mygroup"]["total_lag"] is not None


def test_group_list_and_detail_show_lag(viewer_client, idle_group, topic):
    rows = {g["group_id"]: g for g in viewer_client.get("/api/v1/clusters/local/groups").json()}
    row = rows[idle_group]
    assert row["state"] == "Empty"
    assert row["member_count"] == 0
    assert row["topics"] == [topic]
    # Log ends are 10 and 11; committed 4 and 2.
    assert row["total_lag"] == (10 - 4) + (11 - 2)
    assert row["max_lag"] == 9

    detail = viewer_client.get(f"/api/v1/clusters/local/groups/{idle_group}").json()
    offsets = {(o["topic"], o["partition"]): o for o in detail["offsets"]}
    assert offsets[(topic, 0)]["lag"] == 6
    assert offsets[(topic, 0)]["log_end_offset"] == 10
    assert offsets[(topic, 0)]["log_start_offset"] == 0
    assert detail["members"] == []


def test_active_group_detail_and_refusals(operator_client, active_group, stack, topic):
    detail = operator_client.get(f"/api/v1/clusters/local/groups/{active_group}").json()
    assert detail["state"] == "Stable"
    assert len(detail["members"]) == 1
    assigned = {(a["topic"], a["partition"]) for a in detail["members"][0]["assignments"]}
    assert assigned == {(topic, p) for p in range(3)}
    before = _committed(stack, active_group)

    error = _refused_reset_to_earliest(operator_client, active_group, "should be refused")
    assert "Stable" in error["message"] and "1 member" in error["message"]
    assert error["details"] == {"state": "Stable", "member_count": 1}
    assert _committed(stack, active_group) == before
    entry = AuditEntry.objects.get(action="offsets.reset.execute", target=active_group)
    assert entry.outcome == "refused"

    error = assert_error(
        operator_client.delete(f"/api/v1/clusters/local/groups/{active_group}"), 409
    )
    assert "member" in error["message"]


def test_execute_then_undo_restores_exactly(operator_client, idle_group, stack, topic):
    before = _committed(stack, idle_group)
    body = {
        "scope": {"topics": [{"topic": topic, "partitions": None}]},
        "strategy": {"type": "to_offset", "offset": 8},
        "dry_run": False,
        "reason": "replay from 8",
    }
    response = operator_client.post(_reset_url(idle_group), body, format="json")
    assert response.status_code == 201, response.content
    reset = response.json()
    assert reset["executed"] and reset["state"] == "succeeded"
    assert reset["created_by"] == "otto-operator"
    assert all(r["committed"] for r in reset["result"])
    after = _committed(stack, idle_group)
    assert after == {(topic, 0): 8, (topic, 1): 8, (topic, 2): 8}

    response = operator_client.post(
        f"/api/v1/offset-resets/{reset['id']}/undo", {"reason": "oops"}, format="json"
    )
    assert response.status_code == 201, response.content
    undo = response.json()
    assert undo["undo_of"] == reset["id"]
    restored = _committed(stack, idle_group)
    # Partitions 0 and 1 are back exactly; partition 2 had nothing committed before, which
    # Kafka's admin API cannot take back, and the undo says so for that partition.
    assert restored[(topic, 0)] == before[(topic, 0)] == 4
    assert restored[(topic, 1)] == before[(topic, 1)] == 2
    failed = [r for r in undo["result"] if not r["committed"]]
    assert [(r["topic"], r["partition"]) for r in failed] == [(topic, 2)]
    assert undo["state"] == "partially_failed"

    history = operator_client.get(_reset_url(idle_group)).json()
    assert [h["id"] for h in history] == [undo["id"], reset["id"]]
    actions = list(
        AuditEntry.objects.filter(target=idle_group).order_by("id").values_list("action", "outcome")
    )
    assert actions == [("offsets.reset.execute", "ok"), ("offsets.reset.undo", "failed")]


def test_undo_of_a_fully_committed_reset_succeeds(operator_client, stack, topic):
    group = _group()
    commit_and_wait(cluster_client(), group, {(topic, p): 1 for p in range(3)})
    body = {"scope": {"all_topics": True}, "strategy": {"type": "latest"}, "dry_run": False}
    reset = operator_client.post(_reset_url(group), body, format="json").json()
    assert _committed(stack, group) == {(topic, 0): 10, (topic, 1): 11, (topic, 2): 12}
    undo = operator_client.post(f"/api/v1/offset-resets/{reset['id']}/undo", {}, format="json")
    assert undo.json()["state"] == "succeeded"
    assert _committed(stack, group) == {(topic, p): 1 for p in range(3)}


def test_dry_run_is_default_and_changes_nothing(operator_client, idle_group, stack):
    before = _committed(stack, idle_group)
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}}
    reset = operator_client.post(_reset_url(idle_group), body, format="json").json()
    assert reset["dry_run"] is True and reset["executed"] is False and reset["result"] is None
    assert {r["new_offset"] for r in reset["plan"]} == {0}
    assert _committed(stack, idle_group) == before
    assert AuditEntry.objects.get(target=idle_group).outcome == "preview"
    assert_error(
        operator_client.post(f"/api/v1/offset-resets/{reset['id']}/undo", {}, format="json"),
        409,
        "not_executed",
    )


def test_a_second_reset_at_once_is_refused(operator_client, idle_group, stack):
    GroupResetLock.objects.create(cluster="local", group_id=idle_group, holder="someone-else")
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}, "dry_run": False}
    before = _committed(stack, idle_group)
    error = assert_error(
        operator_client.post(_reset_url(idle_group), body, format="json"), 409, "reset_in_progress"
    )
    assert "someone-else" in error["message"]
    assert _committed(stack, idle_group) == before


def test_shift_by_without_commit_names_the_partition(operator_client, idle_group, topic):
    body = {
        "scope": {"topics": [{"topic": topic, "partitions": None}]},
        "strategy": {"type": "shift_by", "shift": 1},
    }
    error = assert_error(operator_client.post(_reset_url(idle_group), body, format="json"), 400)
    assert f"{topic}-2" in error["message"]


@pytest.mark.parametrize(
    "strategy, scope, field",
    [
        ({"type": "rewind"}, {"all_topics": True}, "strategy.type"),
        ({"type": "to_offset"}, {"all_topics": True}, "strategy.offset"),
        ({"type": "to_offset", "offset": "ten"}, {"all_topics": True}, "strategy.offset"),
        ({"type": "shift_by", "shift": 1.5}, {"all_topics": True}, "strategy.shift"),
        (
            {"type": "to_datetime", "datetime": "last tuesday"},
            {"all_topics": True},
            "strategy.datetime",
        ),
        (
            {"type": "by_duration", "duration": "15 minutes"},
            {"all_topics": True},
            "strategy.duration",
        ),
        ({"type": "by_duration", "duration": "P1W"}, {"all_topics": True}, "strategy.duration"),
        ({"type": "from_file", "csv": "a,b\n"}, None, "strategy.csv"),
        ({"type": "from_file", "csv": "{topic},0,1\n{topic},x,1\n"}, None, "strategy.csv"),
        ({"type": "from_file", "csv": "no-such-topic-zz,0,1\n"}, None, "strategy.csv"),
        (
            {"type": "earliest"},
            {"topics": [{"topic": "no-such-topic-zz", "partitions": None}]},
            "scope.topics[0].topic",
        ),
        (
            {"type": "earliest"},
            {"topics": [{"topic": "{topic}", "partitions": [7]}]},
            "scope.topics[0].partitions",
        ),
        ({"type": "earliest"}, None, "scope"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    operator_client, idle_group, stack, topic, strategy, scope, field
):
    fill = lambda v: v.replace("{topic}", topic) if isinstance(v, str) else v  # noqa: E731
    strategy = {k: fill(v) for k, v in strategy.items()}
    if scope and "topics" in scope:
        scope = {"topics": [{k: fill(v) for k, v in t.items()} for t in scope["topics"]]}
    body = {"strategy": strategy, "dry_run": False}
    if scope is not None:
        body["scope"] = scope
    before = _committed(stack, idle_group)
    error = assert_error(operator_client.post(_reset_url(idle_group), body, format="json"), 400)
    assert error["details"]["field"] == field, error
    assert _committed(stack, idle_group) == before
    assert not OffsetReset.objects.filter(group_id=idle_group).exists()
    assert AuditEntry.objects.get(target=idle_group).outcome == "refused"


def test_negative_to_offset_is_clamped_not_refused(operator_client, idle_group):
    body = {"scope": {"all_topics": True}, "strategy": {"type": "to_offset", "offset": -3}}
    plan = operator_client.post(_reset_url(idle_group), body, format="json").json()["plan"]
    assert all(r["new_offset"] == 0 and r["clamped"] for r in plan)


def test_export_then_from_file_round_trip(operator_client, idle_group, stack, topic):
    response = operator_client.get(f"/api/v1/clusters/local/groups/{idle_group}/offsets.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    exported = response.content.decode()
    assert exported == f"{topic},0,4\n{topic},1,2\n"
    commit_and_wait(cluster_client(), idle_group, {(topic, 0): 9, (topic, 1): 9})
    body = {"strategy": {"type": "from_file", "csv": exported}, "dry_run": False}
    assert operator_client.post(_reset_url(idle_group), body, format="json").status_code == 201
    assert _committed(stack, idle_group) == {(topic, 0): 4, (topic, 1): 2}


def test_roles(viewer_client, operator_client, idle_group):
    body = {"scope": {"all_topics": True}, "strategy": {"type": "earliest"}}
    assert_error(viewer_client.post(_reset_url(idle_group), body, format="json"), 403)
    assert_error(viewer_client.delete(f"/api/v1/clusters/local/groups/{idle_group}"), 403)
    assert viewer_client.get(_reset_url(idle_group)).status_code == 200
    assert_error(viewer_client.get("/api/v1/clusters/local/groups/no-such-group-zz"), 404)


def test_delete_idle_group(operator_client, idle_group, stack):
    assert operator_client.delete(f"/api/v1/clusters/local/groups/{idle_group}").status_code == 204
    wait_for(lambda: not _committed(stack, idle_group), timeout=10, what="group to be gone")


def test_batched_reads_are_one_request_per_broker_or_coordinator(idle_group, topic):
    # The wire client counts what it sends: committed offsets of a group are one OffsetFetch
    # (after one FindCoordinator), log ends of all its partitions one ListOffsets per leader.
    client = cluster_client()
    pool = client.wire.pool
    pool.requests.clear()
    client.committed_offsets({idle_group: None})
    assert pool.requests[9] == 1 and pool.requests[10] <= 1
    pool.requests.clear()
    ends = client.log_offsets([(topic, 0), (topic, 1)], "latest")
    assert ends == {(topic, 0): 10, (topic, 1): 11}
    meta = client.topic_metadata(topic)
    leaders = {p.leader for t in meta for p in t.partitions if p.partition in (0, 1)}
    assert pool.requests[2] == len(leaders)
