"""`from_file` rows against Apache Kafka's ConsumerGroupCommand `--from-file`: the rows the tool
refuses are a 400 naming the line here; the rows it reads give the same plan."""

from __future__ import annotations

import uuid

import pytest

from console.kafka import dev
from tests.conftest import assert_error
from tests.stack import cluster_client, commit_and_wait, kafka_tool, log_ends

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

TOPIC = "from-file-parity"

REFUSED = {
    "spaces-around-values": " {t} , 0 , 5 \n",
    "decimal": "{t},0,5.0\n",
    "underscore": "{t},0,1_0\n",
    "hex": "{t},0,0x10\n",
    "offset-beyond-int64": "{t},0,99999999999999999999\n",
    "negative-offset": "{t},0,-4\n",
    "blank-line-between-rows": "{t},0,5\n\n{t},1,6\n",
    "header-line": "topic,partition,offset\n{t},0,5\n",
    "five-columns": "{t},0,5,1,2\n",
}
READ_ALIKE = {
    "plain": "{t},0,5\n{t},1,6\n",
    "plus-signs": "{t},+1,+5\n",
    "quoted-topic": '"{t}",0,5\n',
    "windows-line-ends": "{t},0,5\r\n{t},1,6\r\n",
    "unicode-digit": "{t},0,\u0665\n",
    "duplicate-row-last-wins": "{t},0,5\n{t},0,6\n",
    "trailing-blank-lines": "{t},1,7\n\n\n",
}


@pytest.fixture(scope="module")
def topic(stack):
    client = cluster_client()
    dev.create_topics(client, [(TOPIC, 2, 3, {})])
    if any(end < 10 for end in log_ends(client, [(TOPIC, 0), (TOPIC, 1)]).values()):
        producer = dev.make_producer(client, acks="all")
        for partition in (0, 1):
            for i in range(10):
                producer.produce(TOPIC, value=b"%d" % i, partition=partition)
        assert producer.flush(30) == 0
    return TOPIC


def _group(client) -> str:
    group = f"ffp-{uuid.uuid4().hex[:8]}"
    commit_and_wait(client, group, {(TOPIC, 0): 3, (TOPIC, 1): 3})
    return group


def _tool_plan(group: str, csv_text: str, tmp_path) -> dict | None:
    """The tool's dry-run plan, or None when it refused the file."""
    path = tmp_path / "plan.csv"
    path.write_bytes(csv_text.encode())
    run = kafka_tool(
        "kafka-consumer-groups", "--reset-offsets", "--group", group,
        "--from-file", str(path), "--dry-run",
    )  # fmt: skip
    if run.returncode != 0 or "Error" in run.stdout:
        return None
    rows = {}
    for line in run.stdout.splitlines():
        cells = line.split()
        if len(cells) == 4 and cells[0] == group:
            rows[(cells[1], int(cells[2]))] = int(cells[3])
    return rows


def _api(operator_client, group: str, csv_text: str):
    return operator_client.post(
        f"/api/v1/clusters/local/groups/{group}/offset-resets",
        {"strategy": {"type": "from_file", "csv": csv_text}},
        format="json",
    )


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_rows_the_tool_refuses_are_a_400_naming_the_line(operator_client, topic, tmp_path, name):
    client = cluster_client()
    group = _group(client)
    text = REFUSED[name].format(t=topic)
    assert _tool_plan(group, text, tmp_path) is None, "the tool read it after all"
    error = assert_error(_api(operator_client, group, text), 400)
    assert error["details"]["field"] == "strategy.csv"
    assert "line" in error["details"], error


@pytest.mark.parametrize("name", sorted(READ_ALIKE))
def test_rows_the_tool_reads_give_the_same_plan(operator_client, topic, tmp_path, name):
    client = cluster_client()
    group = _group(client)
    text = READ_ALIKE[name].format(t=topic)
    expected = _tool_plan(group, text, tmp_path)
    assert expected, "the tool refused it"
    response = _api(operator_client, group, text)
    assert response.status_code == 201, response.content
    plan = {(r["topic"], r["partition"]): r["new_offset"] for r in response.json()["plan"]}
    assert plan == expected
