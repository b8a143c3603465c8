"""Two registry entries, one Kafka cluster: the dev stack's `local` (PLAINTEXT) and
`local-secure` (SASL_SSL) share the cluster id. The clusters list names each from the other,
and /metrics, with a sampler on each entry, exports every series once (as `local`)."""

from __future__ import annotations

import urllib.request
import uuid
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from console.kafka import dev
from groups.lag import store as lag_store
from tests.live_server import start_console, start_sampler, stop_process
from tests.stack import cluster_client, commit_and_wait, wait_for

pytestmark = [pytest.mark.integration]


@pytest.mark.django_db
def test_the_clusters_list_names_the_entries_of_one_cluster(viewer_client, stack):
    rows = {r["name"]: r for r in viewer_client.get("/api/v1/clusters").json()}
    assert rows["local"]["cluster_id"] == rows["local-secure"]["cluster_id"] is not None
    assert rows["local"]["same_cluster_as"] == ["local-secure"]
    assert rows["local-secure"]["same_cluster_as"] == ["local"]


@pytest.fixture(scope="module")
def console_with_two_samplers(tmp_path_factory, stack) -> Any:
    workdir = tmp_path_factory.mktemp("same-cluster")
    live = start_console(workdir)
    samplers = [
        start_sampler(live.env, workdir / f"sampler-{name}.log", 1.0, cluster=name)
        for name in ("local", "local-secure")
    ]
    yield live
    for sampler in samplers:
        stop_process(sampler)
    live.stop()


def test_metrics_export_the_cluster_once(console_with_two_samplers):
    live = console_with_two_samplers
    topic = f"same-cluster-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-g"
    client = cluster_client()
    dev.create_topics(client, [(topic, 2, 3, {})])
    producer = dev.make_producer(client, acks="all")
    for i in range(10):
        producer.produce(topic, value=b"x", partition=i % 2)
    assert producer.flush(30) == 0
    commit_and_wait(client, group, {(topic, 0): 1, (topic, 1): 2})

    def ids() -> tuple[Any, Any]:
        metas = [lag_store.read_meta(name) or {} for name in ("local", "local-secure")]
        return metas[0].get("cluster_id"), metas[1].get("cluster_id")

    local_id, secure_id = wait_for(lambda: all(ids()) and ids(), 30, "both samplers' passes")
    assert local_id == secure_id  # the id comes from the pass record, not from a scrape

    def scrape() -> tuple[str, dict[str, set[str]]]:
        with urllib.request.urlopen(f"{live.base}/metrics", timeout=30) as response:
            text = response.read().decode()
        names: dict[str, set[str]] = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.labels.get("group") == group:
                    names.setdefault(sample.name, set()).add(sample.labels["cluster_name"])
        return text, names

    # Both samplers have evaluated the group (each stores its own evaluations) ...
    wait_for(
        lambda: all(group in lag_store.read_latest(n) for n in ("local", "local-secure")),
        30,
        f"{group} in both entries' stores",
    )
    text, names = scrape()
    # ... and every series of it is exported once, under the first entry in registry order.
    assert names["kafka_consumergroup_group_lag"] == {"local"}
    assert names["kafka_consumergroup_group_sum_lag"] == {"local"}
    assert names["kafka_consumergroup_group_max_lag"] == {"local"}
    assert "cluster_name='local-secure' is the same Kafka cluster as cluster_name='local'" in text
    assert 'cluster_name="local-secure"' not in text
