"""Benchmark: the `topic-search` Spark job against the web process's streamed scan of the same
5,000,000 JSON records, and the size from which the Spark path wins.

    .venv/bin/python bench/topic_search.py [--records 5000000] [--master local[2]] [--keep]

Fills `bench-search-<records>` (10 partitions, replication factor 1, the JSON values of
bench/messages_scan.py, about 300 bytes; reused with --keep), then side by side:

1. The web path: `/ws/clusters/local/topics/<topic>/messages` scans with the filter
   `value.amount == 42`, going on with the cursor after each socket budget, in this process
   (channels' WebsocketCommunicator, the same consumer code a browser's scan runs).
2. The Spark path: `POST /api/v1/spark/jobs` `topic-search` with the same filter, run by the
   Procfile's Celery worker on `--master`, followed to its end (bench/spark_export.py's
   `run_job`: wall time, start-up, records/s).

Both must count the same matches. The crossover is the size at which both take as long:
start-up / (1 / web rate - 1 / Spark rate after start-up), when Spark reads faster.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os

from _harness import api_client, load_average, running_worker, setup_django, spark_worker_env
from messages_scan import FILTER, PARTITIONS, fill, scan
from spark_export import run_job

REDIS_DB = 8  # the worker's own Celery database: no other worker takes the job


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=5_000_000)
    parser.add_argument("--master", default="local[2]", help="SPARK_MASTER of the worker")
    parser.add_argument("--keep", action="store_true", help="leave the topic in place")
    args = parser.parse_args()
    scratch = spark_worker_env("bench-topic-search-", REDIS_DB, args.master)
    setup_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from console import kafka
    from console.clusters import get_cluster
    from console.roles import grant_role

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    admin = kafka.for_cluster(get_cluster("local"), timeout=120)
    topic = f"bench-search-{args.records}"
    fill_s = fill(admin, args.records, topic)
    user, _ = get_user_model().objects.get_or_create(username="bench-search")
    grant_role(user, "viewer")
    token = Token.objects.get_or_create(user=user)[0].key

    load = {"before": load_average()}
    web = asyncio.run(scan(token, FILTER, topic=topic))
    with running_worker(scratch / "worker.log"):
        spark = run_job(api_client(), topic, "topic-search", filter=FILTER, max_matches=10_000)
    load["after"] = load_average()
    from sparkjobs.models import SparkJob

    result = SparkJob.objects.get(pk=spark["job_id"]).result
    if result["matched"] != web["matches"] or result["records"] != web["scanned"]:
        raise SystemExit(f"different answers: web {web}, spark {result}")
    web_rate, spark_rate = web["records_per_s"], spark["records_per_s_after_startup"]
    crossover = None
    if spark["startup_s"] and spark_rate and spark_rate > web_rate:
        crossover = round(spark["startup_s"] / (1 / web_rate - 1 / spark_rate))
    print(
        json.dumps(
            {
                "records": args.records,
                "partitions": PARTITIONS,
                "filter": FILTER,
                "matches": web["matches"],
                "fill_s": fill_s if fill_s is not None else "reused topic",
                "web_scan": web,
                "spark": {
                    k: spark[k]
                    for k in (
                        "wall_s",
                        "startup_s",
                        "records_per_s_wall",
                        "records_per_s_after_startup",
                        "startup_split_s",
                    )
                },
                "master": args.master,
                "spark_vs_web_wall": round(web["wall_s"] / spark["wall_s"], 2),
                "crossover_records": crossover,
                "cpus": os.cpu_count(),
                "load_average_1_5_15": load,
            },
            indent=2,
        )
    )
    if not args.keep:
        admin.delete_topics([topic])


if __name__ == "__main__":
    main()
