"""Benchmark: a filtered scan of 1,000,000 JSON records, the console against kcat + jq, and the
web process's memory while the scan streams to a slow socket.

    .venv/bin/python bench/messages_scan.py [--records 1000000] [--keep]

Fills `bench-scan` (10 partitions, replication factor 1, JSON values of about 300 bytes; a
topic left by --keep with that many records is reused), then, in one run, side by side:

1. kcat + jq, the operator's shell baseline (Debian's packages):
   `kcat -C -b ... -t bench-scan -o beginning -e -q -f '%s\\n' | jq -c 'select(.amount == 42)'`
   wall time and matches.
2. The console's streamed scan: `/ws/clusters/local/topics/bench-scan/messages` with
   `{"scan": {"position": "earliest", "filter": "value.amount == 42", "limit": 10000}}`,
   through the real ASGI stack in this process (channels' WebsocketCommunicator: no network,
   the same consumer, browse, decoding and CEL code as a browser's scan), read as fast as
   it comes; wall time to `done`, records/s, matches. Repeated with "Go on" (the cursor)
   while the socket's budget (1,000,000 records or 60 s a scan) stops it.
3. The same scan with a filter that matches 1 % of the records read by a slow client (one
   message every 20 ms): this process's peak RSS while it streams, sampled every 50 ms.

Both paths must find the same number of matches. Prints one JSON report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import threading
import time

import psutil
from _harness import load_average, produce_waiting, setup_django

TOPIC = "bench-scan"
PARTITIONS = 10
FILTER = "value.amount == 42"
JQ = "select(.amount == 42)"
SLOW_FILTER = "value.i % 100 == 7"  # 1 % of the records
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1")]


def _value(i: int) -> bytes:
    return json.dumps(
        {
            "i": i,
            "customer": {"id": f"c-{i % 997}", "tier": ("gold", "silver", "bronze")[i % 3]},
            "amount": i % 10007,
            "currency": "EUR",
            "items": [{"sku": f"sku-{(i * 7) % 1000}", "qty": i % 5 + 1}],
            "note": "x" * 150,
        },
        separators=(",", ":"),
    ).encode()


def fill(admin, records: int, topic: str = TOPIC) -> float | None:
    """`records` JSON values of about 300 bytes into `topic` (10 partitions, replication
    factor 1); a topic that already has exactly that many is reused (None)."""
    from console.kafka import dev

    tps = [(topic, p) for p in range(PARTITIONS)]
    if topic in {t.name for t in admin.topic_metadata()}:
        ends = admin.list_offsets(tps, "latest")
        if sum(getattr(o, "offset", 0) for o in ends.values()) == records:
            return None
        admin.delete_topics([topic])
        time.sleep(3)
    dev.create_topics(admin, [(topic, PARTITIONS, 1, {"min.insync.replicas": "1"})], timeout=120)
    producer = dev.make_producer(
        admin, **{"acks": "1", "linger.ms": 50, "batch.size": 1_000_000, "compression.type": "lz4"}
    )
    started = time.perf_counter()
    for i in range(records):
        produce_waiting(producer, topic, value=_value(i), partition=i % PARTITIONS)
        if i % 100_000 == 0:
            producer.poll(0)
    assert producer.flush(300) == 0
    return round(time.perf_counter() - started, 1)


def kcat_jq(bootstrap: str) -> dict:
    started = time.perf_counter()
    kcat = subprocess.Popen(
        ["kcat", "-C", "-b", bootstrap, "-t", TOPIC, "-o", "beginning", "-e", "-q"]
        + ["-f", "%s\\n"],
        stdout=subprocess.PIPE,
    )
    jq = subprocess.run(["jq", "-c", JQ], stdin=kcat.stdout, capture_output=True, check=True)
    kcat.wait(timeout=600)
    wall = time.perf_counter() - started
    return {"wall_s": round(wall, 2), "matches": len(jq.stdout.splitlines())}


class PeakRss:
    """This process's peak resident memory while the block runs (sampled every 50 ms)."""

    def __init__(self) -> None:
        self.proc = psutil.Process(os.getpid())
        self.before = self.peak = self.proc.memory_info().rss
        self.stop = threading.Event()

    def _sample(self) -> None:
        while not self.stop.wait(0.05):
            self.peak = max(self.peak, self.proc.memory_info().rss)

    def __enter__(self) -> PeakRss:
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def report(self) -> dict:
        return {
            "rss_before_mb": round(self.before / 2**20, 1),
            "peak_rss_mb": round(self.peak / 2**20, 1),
            "growth_mb": round((self.peak - self.before) / 2**20, 1),
        }


async def scan(token: str, filter_: str, delay_s: float = 0.0, topic: str = TOPIC) -> dict:
    """Scan the whole topic through the socket, going on after each budget stop."""
    from channels.testing import WebsocketCommunicator

    from project.asgi import application

    socket = WebsocketCommunicator(
        application, f"/ws/clusters/local/topics/{topic}/messages?token={token}", headers=HEADERS
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    started = time.perf_counter()
    scanned = matched = rounds = 0
    frame: dict = {"position": "earliest", "filter": filter_, "limit": 10_000}
    while True:
        rounds += 1
        await socket.send_json_to({"scan": frame})
        while True:
            message = await socket.receive_json_from(timeout=120)
            if delay_s:
                await asyncio.sleep(delay_s)
            if message["type"] == "records":
                matched += len(message["records"])
            elif message["type"] == "progress":
                round_scanned = message["scanned"]
            elif message["type"] == "done":
                break
            elif message["type"] == "error":
                raise SystemExit(message)
        scanned += round_scanned
        if message["stopped_by"] == "end":
            break
        frame = {"cursor": message["next_cursor"], "filter": filter_, "limit": 10_000}
    wall = time.perf_counter() - started
    await socket.disconnect()
    return {
        "wall_s": round(wall, 2),
        "scanned": scanned,
        "matches": matched,
        "records_per_s": round(scanned / wall),
        "socket_scans": rounds,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true", help="leave the topic in place")
    parser.add_argument("--skip-slow", action="store_true", help="no slow-socket run")
    args = parser.parse_args()
    setup_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from console import kafka
    from console.clusters import get_cluster
    from console.roles import grant_role

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    cfg = get_cluster("local")
    admin = kafka.for_cluster(cfg, timeout=120)
    fill_s = fill(admin, args.records)
    user, _ = get_user_model().objects.get_or_create(username="bench-scan")
    grant_role(user, "viewer")
    token = Token.objects.get_or_create(user=user)[0].key

    load = {"before": load_average()}
    baseline = kcat_jq(cfg.bootstrap_servers)
    console = asyncio.run(scan(token, FILTER))
    if console["matches"] != baseline["matches"]:
        raise SystemExit(f"different matches: console {console}, kcat+jq {baseline}")
    slow = None
    if not args.skip_slow:
        with PeakRss() as rss:
            slow = asyncio.run(scan(token, SLOW_FILTER, delay_s=0.02))
        slow = {**slow, "client_delay_per_message_s": 0.02, **rss.report()}
    load["after"] = load_average()
    report = {
        "records": args.records,
        "partitions": PARTITIONS,
        "value_bytes": len(_value(args.records // 2)),
        "fill_s": fill_s if fill_s is not None else "reused topic",
        "filter": FILTER,
        "kcat_jq": {
            **baseline,
            "records_per_s": round(args.records / baseline["wall_s"]),
            "command": f"kcat -C -b ... -t {TOPIC} -o beginning -e -q | jq -c '{JQ}'",
        },
        "console_scan": console,
        "console_vs_kcat_jq": round(baseline["wall_s"] / console["wall_s"], 2),
        "slow_socket": slow,
        "cpus": os.cpu_count(),
        "load_average_1_5_15": load,
    }
    print(json.dumps(report, indent=2))
    if not args.keep:
        admin.delete_topics([TOPIC])


if __name__ == "__main__":
    main()
