"""GET /metrics: kafka-lag-exporter's metrics rendered from stored evaluations (parsed back
with prometheus_client's own parser), the scrape guard, and the view without Redis (the
store is replaced by a stub; tests/integration covers the real one)."""

from __future__ import annotations

import ipaddress
import os

import pytest
from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.parser import text_string_to_metric_families

from groups.lag import metrics
from groups.lag import store as lag_store
from tests.conftest import assert_error
from tests.unit.conftest import manage_check


def _part(topic: str, partition: int, committed, lag, **extra) -> dict:
    return {
        "topic": topic, "partition": partition, "committed_offset": committed,
        "log_start_offset": 0, "log_end_offset": None if lag is None else committed + lag,
        "lag": lag, "lag_seconds": 2.5 if lag else 0.0, "lag_seconds_method": "timestamp",
        "status": "WARN", "retention_risk": "none",
        "member_id": "m-1", "client_id": "c-1", "host": "/127.0.0.1", **extra,
    }  # fmt: skip


def _evaluation(
    group: str, partitions: list[dict], status: str = "WARN", ts=1.7e9, simple: bool = False
) -> dict:
    lags = [p["lag"] for p in partitions if p["lag"] is not None]
    topics: dict[str, dict] = {}
    for p in partitions:
        topics.setdefault(p["topic"], {"lag": 0})["lag"] += p["lag"] or 0
    return {
        "group_id": group, "ts": ts, "state": "Stable", "member_count": 1, "status": status,
        "is_simple_consumer": simple,
        "total_lag": sum(lags), "max_lag": max(lags, default=None), "max_lag_seconds": 2.5,
        "catch_up_seconds": None, "retention_risk": "none", "topics": topics,
        "partitions": partitions,
    }  # fmt: skip


def _parse(data: bytes) -> dict[str, list[tuple[dict[str, str], float]]]:
    """metric name -> [(labels, value)] of every sample in the exposition."""
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(data.decode()):
        assert family.type == "gauge", family.name
        for sample in family.samples:
            out.setdefault(sample.name, []).append((sample.labels, sample.value))
    return out


def _value(parsed, name: str, **labels: str) -> float:
    found = [
        v for lbl, v in parsed.get(name, []) if all(lbl.get(k) == x for k, x in labels.items())
    ]
    assert len(found) == 1, (name, labels, parsed.get(name))
    return found[0]


PARTITION = {"member_host": "/127.0.0.1", "consumer_id": "m-1", "client_id": "c-1"}


# --- render ------------------------------------------------------------------------------


def test_render_gives_kafka_lag_exporter_metrics_equal_to_the_evaluation():
    ev = _evaluation("g1", [_part("t", 0, 10, 80), _part("t", 1, 5, 40), _part("u", 0, 7, 0)])
    parsed = _parse(metrics.render({"prod": {"g1": ev}}))

    grp = {"cluster_name": "prod", "group": "g1"}
    p1 = {**grp, "topic": "t", "partition": "1", **PARTITION}
    assert _value(parsed, "kafka_consumergroup_group_offset", **p1) == 5
    assert _value(parsed, "kafka_consumergroup_group_lag", **p1) == 40
    assert _value(parsed, "kafka_consumergroup_group_lag_seconds", **p1) == 2.5
    assert _value(parsed, "kafka_consumergroup_group_max_lag", **grp) == 80
    assert _value(parsed, "kafka_consumergroup_group_max_lag_seconds", **grp) == 2.5
    assert _value(parsed, "kafka_consumergroup_group_sum_lag", **grp) == 120
    assert _value(parsed, "kafka_consumergroup_group_topic_sum_lag", **grp, topic="t") == 120
    assert _value(parsed, "kafka_consumergroup_group_topic_sum_lag", **grp, topic="u") == 0
    tp = {"cluster_name": "prod", "topic": "t", "partition": "0"}
    assert _value(parsed, "kafka_partition_latest_offset", **tp) == 90
    assert _value(parsed, "kafka_partition_earliest_offset", **tp) == 0
    assert _value(parsed, "kafka_console_lag_sample_timestamp_seconds", cluster_name="prod") == (
        1.7e9
    )
    assert len(parsed["kafka_consumergroup_group_lag"]) == 3


def test_label_sets_are_kafka_lag_exporters():
    parsed = _parse(metrics.render({"c": {"g": _evaluation("g", [_part("t", 0, 1, 1)])}}))
    labels = {name: set(samples[0][0]) for name, samples in parsed.items()}
    per_partition = {"cluster_name", "group", "topic", "partition", *PARTITION}
    assert labels == {
        "kafka_consumergroup_group_offset": per_partition,
        "kafka_consumergroup_group_lag": per_partition,
        "kafka_consumergroup_group_lag_seconds": per_partition,
        # As kafka-lag-exporter's README documents them (its Metrics.scala dropped the label
        # in 0.4.1; dashboards written against the README filter on it).
        "kafka_consumergroup_group_max_lag": {"cluster_name", "group", "is_simple_consumer"},
        "kafka_consumergroup_group_max_lag_seconds": {
            "cluster_name",
            "group",
            "is_simple_consumer",
        },
        "kafka_consumergroup_group_sum_lag": {"cluster_name", "group"},
        "kafka_consumergroup_group_topic_sum_lag": {"cluster_name", "group", "topic"},
        "kafka_partition_latest_offset": {"cluster_name", "topic", "partition"},
        "kafka_partition_earliest_offset": {"cluster_name", "topic", "partition"},
        "kafka_console_group_status": {"cluster_name", "group", "status"},
        "kafka_console_lag_sample_timestamp_seconds": {"cluster_name"},
    }


def test_null_values_are_left_out_and_null_ids_are_empty_labels():
    unassigned = _part("t", 0, None, None, member_id=None, client_id=None, host=None)
    unassigned["lag_seconds"] = None
    ev = _evaluation("g", [unassigned, _part("t", 1, 3, 2)])
    ev["max_lag_seconds"] = None
    parsed = _parse(metrics.render({"c": {"g": ev}}))

    assert [lbl["partition"] for lbl, _ in parsed["kafka_consumergroup_group_offset"]] == ["1"]
    assert [lbl["partition"] for lbl, _ in parsed["kafka_consumergroup_group_lag"]] == ["1"]
    assert "kafka_consumergroup_group_max_lag_seconds" not in parsed
    assert _value(parsed, "kafka_partition_earliest_offset", partition="0") == 0  # still known
    assert [lbl["partition"] for lbl, _ in parsed["kafka_partition_latest_offset"]] == ["1"]

    with_lag_unknown_seconds = _part("t", 0, 1, 5, member_id=None, client_id=None, host=None)
    with_lag_unknown_seconds["lag_seconds"] = None
    parsed = _parse(metrics.render({"c": {"g": _evaluation("g", [with_lag_unknown_seconds])}}))
    ((labels, value),) = parsed["kafka_consumergroup_group_lag"]
    assert value == 5
    assert (labels["member_host"], labels["consumer_id"], labels["client_id"]) == ("", "", "")
    assert "kafka_consumergroup_group_lag_seconds" not in parsed


def test_a_partition_read_by_several_groups_has_its_log_offsets_once_the_newest_wins():
    old = _evaluation("a", [_part("t", 0, 10, 5)], ts=100.0)  # log end 15
    new = _evaluation("b", [_part("t", 0, 12, 8)], ts=105.0)  # log end 20
    other = _evaluation("x", [_part("t", 0, 1, 1)], ts=99.0)  # another cluster's "t"
    parsed = _parse(metrics.render({"c": {"a": old, "b": new}, "d": {"x": other}}))

    latest = parsed["kafka_partition_latest_offset"]
    assert sorted((lbl["cluster_name"], v) for lbl, v in latest) == [("c", 20), ("d", 2)]
    assert len(parsed["kafka_partition_earliest_offset"]) == 2
    assert len(parsed["kafka_consumergroup_group_lag"]) == 3
    assert _value(parsed, "kafka_console_lag_sample_timestamp_seconds", cluster_name="c") == 105


@pytest.mark.parametrize(
    "stored, current", [("STALL", "STALL"), ("OK", "OK"), ("bogus", "UNKNOWN"), (None, "UNKNOWN")]
)
def test_group_status_is_a_state_set(stored, current):
    parsed = _parse(metrics.render({"c": {"g": _evaluation("g", [], status=stored)}}))
    states = {lbl["status"]: v for lbl, v in parsed["kafka_console_group_status"]}
    assert set(states) == {"OK", "WARN", "STALL", "STOP", "ERR", "REWIND", "UNKNOWN"}
    assert {s for s, v in states.items() if v == 1} == {current}
    assert sum(states.values()) == 1


def test_names_with_any_text_are_escaped_and_read_back():
    group = 'we"ird\ngroup\\x'
    ev = _evaluation(group, [_part('to"pic', 0, 1, 4, client_id="ü")])
    parsed = _parse(metrics.render({"clüster": {group: ev}}))
    labels, value = parsed["kafka_consumergroup_group_lag"][0]
    assert (labels["cluster_name"], labels["group"], labels["topic"]) == (
        "clüster",
        group,
        'to"pic',
    )
    assert labels["client_id"] == "ü" and value == 4


def test_is_simple_consumer_labels_the_max_lag_gauges():
    old = _evaluation("old", [_part("t", 0, 1, 7)])
    del old["is_simple_consumer"]  # stored before the sampler recorded it
    groups = {
        "simple": _evaluation("simple", [_part("t", 0, 1, 5)], simple=True),
        "joined": _evaluation("joined", [_part("t", 0, 1, 6)]),
        "old": old,
    }
    parsed = _parse(metrics.render({"c": groups}))
    for name in ("kafka_consumergroup_group_max_lag", "kafka_consumergroup_group_max_lag_seconds"):
        got = {lbl["group"]: lbl.get("is_simple_consumer") for lbl, _ in parsed[name]}
        # "" is how Prometheus stores a label that is absent.
        assert got == {"simple": "true", "joined": "false", "old": ""}
    assert _value(parsed, "kafka_consumergroup_group_max_lag", group="simple") == 5
    # Only there, as in kafka-lag-exporter: the sums and the partition series do not have it.
    for name in ("kafka_consumergroup_group_sum_lag", "kafka_consumergroup_group_lag"):
        assert all("is_simple_consumer" not in lbl for lbl, _ in parsed[name])


# --- one Kafka cluster, one set of series -------------------------------------------------


def _entries(*specs: tuple[str, str | None, bool]) -> list[metrics.Entry]:
    """(name, cluster id, has groups) in registry order."""
    return [
        metrics.Entry(name, cid, {"g": _evaluation("g", [_part("t", 0, 1, 2)])} if full else {})
        for name, cid, full in specs
    ]


@pytest.mark.parametrize(
    "specs, exported, left_out",
    [
        # The dev registry: local (PLAINTEXT) and local-secure (SASL_SSL), one cluster.
        (
            [("local", "MkU3", True), ("local-secure", "MkU3", True)],
            ["local"],
            {"local-secure": "local"},
        ),
        # The first in registry order wins, whatever the names' order.
        ([("b", "X", True), ("a", "X", True), ("c", "Y", True)], ["b", "c"], {"a": "b"}),
        # ... unless it has no evaluations stored and another one has.
        ([("a", "X", False), ("b", "X", True), ("c", "X", True)], ["b"], {"a": "b", "c": "b"}),
        ([("a", "X", False), ("b", "X", False)], ["a"], {"b": "a"}),
        # An entry whose sampler recorded no id yet is a cluster of its own.
        ([("a", None, True), ("b", "X", True), ("c", None, True)], ["a", "b", "c"], {}),
    ],
)
def test_one_entry_per_kafka_cluster_is_exported(specs, exported, left_out):
    data, skipped = metrics.one_per_cluster(_entries(*specs))
    assert list(data) == exported
    assert skipped == left_out


def test_entries_of_one_cluster_are_counted_once_and_a_comment_says_so():
    ev = _evaluation("g", [_part("t", 0, 10, 80), _part("t", 1, 5, 40)])
    entries = [
        metrics.Entry("local", "MkU3", {"g": ev}),
        metrics.Entry("local-secure", "MkU3", {"g": ev}),
        metrics.Entry("prod", "UHJv", {"g": ev}),
    ]
    data = metrics.render(*metrics.one_per_cluster(entries))
    parsed = _parse(data)
    sums = parsed["kafka_consumergroup_group_sum_lag"]
    assert sorted(lbl["cluster_name"] for lbl, _ in sums) == ["local", "prod"]
    assert sum(v for _, v in sums) == 2 * 120  # each Kafka cluster once
    assert {lbl["cluster_name"] for name in parsed for lbl, _ in parsed[name]} == {"local", "prod"}
    first = data.decode().splitlines()[0]
    assert first == (
        "# kafka-console: cluster_name='local-secure' is the same Kafka cluster as "
        "cluster_name='local': its series are exported once, as 'local'"
    )


def test_an_empty_store_renders_the_help_lines_only():
    data = metrics.render({"c": {}})
    assert _parse(data) == {}
    assert b"# TYPE kafka_consumergroup_group_lag gauge" in data


# --- guard ---------------------------------------------------------------------------------

LOCAL = metrics.parse_networks(["127.0.0.0/8", "::1/128"])


def _allowed(token="", networks=LOCAL, authorization="", remote_addr="127.0.0.1") -> bool:
    return metrics.allowed(
        token=token, networks=networks, authorization=authorization, remote_addr=remote_addr
    )


@pytest.mark.parametrize(
    "address, ok",
    [
        ("127.0.0.1", True),
        ("127.9.9.9", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),  # IPv4 client on a dual-stack socket
        ("10.0.0.1", False),
        ("::2", False),
        ("", False),  # no peer address (Unix socket)
        ("not-an-ip", False),
    ],
)
def test_without_a_token_the_address_decides(address, ok):
    assert _allowed(remote_addr=address) is ok


def test_networks_are_cidrs_and_bare_addresses():
    nets = metrics.parse_networks(["10.0.0.0/8", " 192.168.1.7 ", "10.0.0.1/8"])
    assert nets[1] == ipaddress.ip_network("192.168.1.7/32")
    assert nets[2] == ipaddress.ip_network("10.0.0.0/8")  # host bits are forgiven
    assert _allowed(networks=nets, remote_addr="10.20.30.40")
    assert not _allowed(networks=nets, remote_addr="192.168.1.8")
    assert not _allowed(networks=(), remote_addr="127.0.0.1")
    with pytest.raises(ValueError):
        metrics.parse_networks(["10.0.0.0/33"])


@pytest.mark.parametrize(
    "authorization, ok",
    [
        ("Bearer s3cret", True),
        ("bearer s3cret", True),  # the scheme is case-insensitive (RFC 9110)
        ("Bearer  s3cret ", True),
        ("Bearer s3cret2", False),
        ("Bearer S3CRET", False),
        ("Bearer ", False),
        ("Token s3cret", False),
        ("s3cret", False),
        ("", False),
        ("Bearer sécret", False),  # non-ASCII is compared too, not an exception
    ],
)
def test_with_a_token_only_the_bearer_token_decides(authorization, ok):
    assert _allowed(token="s3cret", authorization=authorization) is ok
    # ... from any address, and an allowed address without the token is not enough.
    assert _allowed(token="s3cret", authorization=authorization, remote_addr="8.8.8.8") is ok


# --- the view ------------------------------------------------------------------------------

STORE = {
    "local": {"g": _evaluation("g", [_part("t", 0, 10, 80)])},
    "local-secure": {},
}
# The sampler's last pass record of each cluster (None: none stored).
META: dict[str, dict | None] = {"local": {"ok": True}, "local-secure": None}


@pytest.fixture
def store(monkeypatch):
    """lag_store.read_latest_and_meta over STORE and META; the view must read nothing else."""
    calls: list[str] = []

    def read_latest_and_meta(cluster: str) -> tuple[dict, dict | None]:
        calls.append(cluster)
        return STORE.get(cluster, {}), META.get(cluster)

    monkeypatch.setattr(lag_store, "read_latest_and_meta", read_latest_and_meta)
    return calls


@pytest.mark.django_db
def test_metrics_view_serves_the_store_without_a_session(client, store):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"] == CONTENT_TYPE_LATEST
    assert "Set-Cookie" not in response and not response.cookies
    parsed = _parse(response.content)
    labels = {"cluster_name": "local", "group": "g", "topic": "t", "partition": "0"}
    assert _value(parsed, "kafka_consumergroup_group_lag", **labels) == 80
    assert sorted(store) == ["local", "local-secure"]  # every registered cluster, once


@pytest.mark.django_db
def test_metrics_view_exports_the_dev_registry_s_one_cluster_once(client, store, monkeypatch):
    """local (PLAINTEXT) and local-secure (SASL_SSL) reach the same brokers: the samplers of
    both store the same cluster id, and each series is exported once, as the first entry."""
    ev = _evaluation("g", [_part("t", 0, 10, 80)])
    monkeypatch.setitem(STORE, "local-secure", {"g": ev})
    monkeypatch.setitem(META, "local", {"ok": True, "cluster_id": "MkU3OEVBNTcwNTJENDM2Qg"})
    monkeypatch.setitem(META, "local-secure", {"ok": True, "cluster_id": "MkU3OEVBNTcwNTJENDM2Qg"})
    response = client.get("/metrics")
    parsed = _parse(response.content)
    assert [lbl["cluster_name"] for lbl, _ in parsed["kafka_consumergroup_group_lag"]] == ["local"]
    assert sum(v for _, v in parsed["kafka_consumergroup_group_sum_lag"]) == 80
    assert b"cluster_name='local-secure' is the same Kafka cluster as" in response.content
    assert sorted(store) == ["local", "local-secure"]  # one Redis round trip each, no Kafka

    monkeypatch.setitem(META, "local-secure", {"ok": True, "cluster_id": "another"})
    parsed = _parse(client.get("/metrics").content)
    names = [lbl["cluster_name"] for lbl, _ in parsed["kafka_consumergroup_group_lag"]]
    assert names == ["local", "local-secure"]


@pytest.mark.django_db
def test_metrics_view_refuses_other_addresses_and_ignores_x_forwarded_for(client, store):
    response = client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert_error(response, 403, "permission_denied")
    assert store == []  # refused before reading anything


@pytest.mark.django_db
def test_metrics_view_with_a_token(client, store, settings):
    settings.METRICS_BEARER_TOKEN = "t0ken"
    response = client.get("/metrics")  # from an allowed address, but no token
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert_error(client.get("/metrics", HTTP_AUTHORIZATION="Bearer nope"), 401)
    ok = client.get("/metrics", HTTP_AUTHORIZATION="Bearer t0ken", REMOTE_ADDR="203.0.113.9")
    assert ok.status_code == 200


@pytest.mark.django_db
def test_metrics_view_follows_the_networks_setting(client, store, settings):
    settings.METRICS_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert_error(client.get("/metrics"), 403)


@pytest.mark.django_db
def test_metrics_view_answers_503_when_redis_is_down(client, monkeypatch):
    def down(cluster: str) -> tuple:
        raise lag_store.StoreUnavailable("Redis: connection refused")

    monkeypatch.setattr(lag_store, "read_latest_and_meta", down)
    assert_error(client.get("/metrics"), 503, "lag_store_unavailable")


@pytest.mark.django_db
def test_metrics_view_is_read_only_and_needs_no_csrf(client, store):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/metrics", b"{}", content_type="application/json")
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"
    assert strict.head("/metrics").status_code == 200


def test_a_bad_network_setting_stops_the_start():
    env = {**os.environ, "DEBUG": "true", "METRICS_ALLOWED_NETWORKS": "127.0.0.0/8,10.0.0/99"}
    run = manage_check(env)
    assert run.returncode != 0
    assert "METRICS_ALLOWED_NETWORKS" in run.stderr
