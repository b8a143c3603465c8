"""Client quotas from the console against kafka-configs.sh on the same cluster: what the
console sets the CLI lists and the other way round, for users, client ids, their pairs and
defaults; deletes as the CLI's; a change Kafka or the CLI would refuse is a 400 naming the
field and changes nothing."""

from __future__ import annotations

import re
import uuid

import pytest

from console.audit import AuditEntry
from tests.stack import cluster_client, kafka_tool, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

URL = "/api/v1/clusters/local/quotas"
# Large enough never to throttle the other tests' clients, which the default user covers.
HUGE = 10**12
LINE = re.compile(r"^Quota configs for (.+) are (.+)$")


def _cli(*types: str) -> set[tuple[str, frozenset]]:
    """kafka-configs.sh --describe --entity-type ...: (entity as it prints it, its values)."""
    args = [a for t in types for a in ("--entity-type", t)]
    out = kafka_tool("kafka-configs", "--describe", *args)
    assert out.returncode == 0, out.stdout + out.stderr
    found = set()
    for line in out.stdout.splitlines():
        if match := LINE.match(line.strip()):
            pairs = (kv.split("=", 1) for kv in match.group(2).split(", "))
            found.add((match.group(1), frozenset((k, float(v)) for k, v in pairs)))
    return found


def _words(entity: dict) -> str:
    """An API entity as kafka-configs.sh prints it."""
    words = {"user": "user-principal", "client_id": "client-id", "ip": "ip"}
    return ", ".join(
        f"the default {words[k]}" if isinstance(v, dict) else f"{words[k]} '{v}'"
        for k, v in entity.items()
    )


def _console(client, *types: str) -> set[tuple[str, frozenset]]:
    answer = client.get(URL, {"entity_type": ",".join(types)} if types else {})
    assert answer.status_code == 200, answer.content
    return {
        (_words(row["entity"]), frozenset((k, float(v)) for k, v in row["values"].items()))
        for row in answer.json()
    }


def _mine(rows: set, tag: str) -> set:
    return {r for r in rows if tag in r[0] or "the default" in r[0]}


def _patch(client, body: dict):
    return client.patch(URL, body, format="json")


@pytest.fixture
def tag():
    tag = uuid.uuid4().hex[:8]
    yield tag
    # Whatever a test left (the default user's quota above all), by the console's own client:
    # three CLI runs per test would cost seconds.
    client = cluster_client()
    for entity, values in client.describe_client_quotas().items():
        if any(name is None or tag in name for _kind, name in entity):
            client.alter_client_quotas(entity, {}, list(values))


def test_quotas_equal_kafka_configs_for_users_clients_pairs_and_defaults(admin_client_api, tag):
    user, client = f"q-user-{tag}", f"q-client-{tag}"
    changes = [
        ({"user": user}, {"producer_byte_rate": 1024, "request_percentage": 12.5}),
        ({"client_id": client}, {"consumer_byte_rate": 2048}),
        ({"user": user, "client_id": client}, {"producer_byte_rate": 4096}),
        ({"user": user, "client_id": {"default": True}}, {"consumer_byte_rate": 512}),
        ({"user": {"default": True}}, {"producer_byte_rate": HUGE}),
    ]
    for entity, values in changes:
        done = _patch(admin_client_api, {"entity": entity, "set": values})
        assert done.status_code == 200, done.content
        assert done.json() == {"entity": entity, "values": values, "before": {}}
    # One set by the CLI, read by the console.
    out = kafka_tool(
        "kafka-configs", "--alter", "--entity-type", "users", "--entity-name", f"cli-{tag}",
        "--add-config", "controller_mutation_rate=2.5,consumer_byte_rate=300",
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr

    def agree(*types: str) -> set | None:
        cli, mine = _mine(_cli(*types), tag), _mine(_console(admin_client_api, *types), tag)
        return mine if cli == mine else None

    users = wait_for(lambda: agree("users"), timeout=15, what="the users to agree", every=0.5)
    assert {row[0] for row in users} == {
        f"user-principal '{user}'",
        f"user-principal 'cli-{tag}'",
        "the default user-principal",
    }
    assert (f"user-principal 'cli-{tag}'", frozenset(
        {("controller_mutation_rate", 2.5), ("consumer_byte_rate", 300.0)}
    )) in users  # fmt: skip
    clients = agree("clients")
    assert clients == {(f"client-id '{client}'", frozenset({("consumer_byte_rate", 2048.0)}))}
    pairs = agree("users", "clients")
    assert {row[0] for row in pairs} == {
        f"user-principal '{user}', client-id '{client}'",
        f"user-principal '{user}', the default client-id",
    }
    # Without a filter: every entity, pairs included.
    assert _mine(_console(admin_client_api), tag) == users | clients | pairs

    # The answer's numbers: whole for byte rates, as given for the percentage.
    listed = admin_client_api.get(URL, {"entity_type": "users"}).json()
    mine = next(r for r in listed if r["entity"] == {"user": user})
    assert mine["values"] == {"producer_byte_rate": 1024, "request_percentage": 12.5}
    assert isinstance(mine["values"]["producer_byte_rate"], int)


def test_a_delete_removes_the_key_and_the_last_one_the_entity(admin_client_api, tag):
    user = f"q-del-{tag}"
    entity = {"user": user}
    body = {"entity": entity, "set": {"producer_byte_rate": 1000, "consumer_byte_rate": 2000}}
    assert _patch(admin_client_api, body).status_code == 200
    one = _patch(admin_client_api, {"entity": entity, "delete": ["consumer_byte_rate"]})
    assert one.status_code == 200, one.content
    assert one.json()["values"] == {"producer_byte_rate": 1000}
    assert one.json()["before"] == {"producer_byte_rate": 1000, "consumer_byte_rate": 2000}
    wait_for(
        lambda: (
            _mine(_cli("users"), tag)
            == {(f"user-principal '{user}'", frozenset({("producer_byte_rate", 1000.0)}))}
        ),
        timeout=15,
        what="the CLI to list one key",
        every=0.5,
    )
    # Both in one change: set one, remove the other; then the last one goes.
    both = {"entity": entity, "set": {"request_percentage": 50}, "delete": ["producer_byte_rate"]}
    assert _patch(admin_client_api, both).json()["values"] == {"request_percentage": 50.0}
    last = _patch(admin_client_api, {"entity": entity, "delete": ["request_percentage"]})
    assert last.status_code == 200 and last.json()["values"] == {}
    wait_for(lambda: not _mine(_cli("users"), tag), timeout=15, what="the entity to go", every=0.5)

    entry = AuditEntry.objects.filter(action="quota.alter", target=f"user-principal '{user}'")
    latest = entry.latest("id")
    assert latest.outcome == "ok"
    assert latest.details == {"before": {"request_percentage": 50.0}, "after": {}}


RATE = {"producer_byte_rate": 10}


@pytest.mark.parametrize(
    "body, field",
    [
        pytest.param({"set": {"producer_byte_rate": 1.5}}, "set.producer_byte_rate", id="fraction"),
        pytest.param({"set": {"producer_byte_rate": 0}}, "set.producer_byte_rate", id="zero"),
        pytest.param({"set": {"producer_byte_rate": "10"}}, "set.producer_byte_rate", id="text"),
        pytest.param(
            {"set": {"connection_creation_rate": 5}}, "set.connection_creation_rate", id="ip-key"
        ),
        pytest.param({"set": {"producer_byte_rte": 10}}, "set.producer_byte_rte", id="misspelt"),
        pytest.param({"delete": ["consumer_byte_rate"]}, "delete[0]", id="delete-unset"),
        pytest.param({"set": RATE, "delete": ["producer_byte_rate"]}, "delete[0]", id="both"),
        pytest.param({}, "set", id="nothing"),
        pytest.param({"entity": {"users": "x"}, "set": RATE}, "entity.users", id="entity-key"),
        pytest.param({"entity": {"user": None}, "set": RATE}, "entity.user", id="null-user"),
        pytest.param(
            {"entity": {"user": {"default": False}}, "set": RATE}, "entity.user", id="not-default"
        ),
        pytest.param(
            {"entity": {"user": "x", "ip": "10.0.0.1"}, "set": RATE}, "entity", id="ip-and-user"
        ),
        pytest.param(
            {"entity": {"ip": "no-ip"}, "set": {"connection_creation_rate": 9}},
            "entity.ip",
            id="bad-ip",
        ),
        pytest.param({"entity": {}, "set": RATE}, "entity", id="no-entity"),
        pytest.param({"set": RATE, "dry_run": True}, "dry_run", id="unknown-field"),
    ],
)
def test_a_change_kafka_or_the_cli_would_refuse_is_a_400_naming_the_field(
    admin_client_api, tag, body, field
):
    user = f"q-bad-{tag}"
    seeded = {"entity": {"user": user}, "set": {"producer_byte_rate": 777}}
    assert _patch(admin_client_api, seeded).status_code == 200
    answer = _patch(admin_client_api, {"entity": {"user": user}} | body)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["details"]["field"] == field
    # Read from Kafka by the console's own client: a CLI run per case would cost a JVM start.
    assert cluster_client().describe_client_quotas(entity=(("user", user),)) == {
        (("user", user),): {"producer_byte_rate": 777.0}
    }


def test_ip_quotas_and_the_entity_type_query(admin_client_api, viewer_client, tag):
    ip = f"10.{int(tag[:2], 16)}.{int(tag[2:4], 16)}.{int(tag[4:6], 16)}"
    done = _patch(admin_client_api, {"entity": {"ip": ip}, "set": {"connection_creation_rate": 40}})
    assert done.status_code == 200, done.content
    try:
        wait_for(
            lambda: (
                (f"ip '{ip}'", frozenset({("connection_creation_rate", 40.0)}))
                in _console(admin_client_api, "ips")
            ),
            timeout=15,
            what="the ip quota",
            every=0.5,
        )
        assert (f"ip '{ip}'", frozenset({("connection_creation_rate", 40.0)})) in _cli("ips")
    finally:
        _patch(admin_client_api, {"entity": {"ip": ip}, "delete": ["connection_creation_rate"]})
    for bad in ("ips,users", "user", "users,users"):
        answer = admin_client_api.get(URL, {"entity_type": bad})
        assert (
            answer.status_code == 400
            and answer.json()["error"]["details"]["field"] == "entity_type"
        )
    # Quotas are the admin's: a viewer neither reads nor changes them.
    assert viewer_client.get(URL).status_code == 403
