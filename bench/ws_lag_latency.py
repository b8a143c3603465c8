"""Benchmark: live lag pushed to many WebSocket clients, delivery latency and web server cost.

    .venv/bin/python bench/ws_lag_latency.py [--clients 500] [--duration 60] [--interval 1]
    .venv/bin/python bench/ws_lag_latency.py --clients 500 --procs 4  # clients over 4 processes
    .venv/bin/python bench/ws_lag_latency.py --clients 2000 --procs 4 --web-procs 2

With `--web-procs N`, N web processes of one console (one database, one Redis) serve the
sockets, each client process talking to one of them in turn: a push crosses Redis to every
web process, as behind a load balancer.

Starts a real console (daphne, its own SQLite file) and a lag sampler (`manage.py lagsampler
--interval 1`, LAG_SAMPLE_SECONDS the same) with tests/live_server.py, makes a lagging group on
a fresh topic with tests/traffic.py (producer 20 records/s, consumer 5/s, so every pass
differs), then opens `--clients` WebSockets on /ws/clusters/local/lag, authenticated by a
viewer's token (one user for all), each subscribed to that group (`--subscribe all`: to every
group of the cluster, which also pushes every other group on the dev stack).

Once every client is subscribed, each pass whose sample time `ts` falls in the next
`--duration` seconds is measured. Latency of one message = the client's wall clock when
`recv()` hands it over − the `ts` the message carries (groups.lag.sampler stamps it, with
`time.time()`, when the pass starts, before its Kafka reads). All processes share one host
clock. The same pass is also received by a reference listener straight from the channel layer
(the console's channel layer in its own process, in the group's Channels group like a socket), so
the latency splits into sample → publish (Kafka reads, evaluation, Redis writes, the send)
and publish → client (Redis → daphne → consumer → socket → client), and the sampler's pass
duration (its Redis `meta`) shows how much of the first part is Kafka.

Reported: passes, messages, latency p50/p95/p99/max, the split, each daphne process's CPU
(user + system time over wall time, 100 % = one core) and RSS over the window, the sampler's
and the clients' CPU, the whole machine's and its load average, the clients' event-loop lag,
clients that missed a pass, passes the sampler stored as failed, and whether Redis restarted
meanwhile (its run id: other work on the dev stack may restart it). Clients run in `--procs`
child processes (this script with `--worker`), so the traffic threads of this process do not
share their event loop. Results: docs/live-lag.md, "WebSocket delivery".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from _harness import ROOT, setup_django

CLUSTER = "local"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20
# After the window, how long clients may take to get its last pass before it counts missing.
DRAIN_TIMEOUT_S = 30


# --- measurement helpers ---------------------------------------------------------------------


def raise_fd_limit(wanted: int) -> int:
    """Raise the soft open-files limit to `wanted` (at most the hard limit); the new soft one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc, no psutil in the venv)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def proc_rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_MB


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all cores since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return float(sum(values[:8]) - idle), float(sum(values[:8]))


def redis_run_id(url: str) -> str | None:
    """The Redis server's run id: another after a restart (which empties the channel layer)."""
    import redis

    try:
        return str(redis.Redis.from_url(url, socket_timeout=5).info("server")["run_id"])
    except Exception:  # noqa: BLE001 (Redis down: reported as unknown)
        return None


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary_ms(seconds: list[float]) -> dict[str, float] | None:
    if not seconds:
        return None
    return {
        "n": len(seconds),
        "p50_ms": round(statistics.median(seconds) * 1000, 1),
        "p95_ms": round(pct(seconds, 0.95) * 1000, 1),
        "p99_ms": round(pct(seconds, 0.99) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
    }


def progress(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def epoch(iso_ts: str) -> float:
    return datetime.fromisoformat(iso_ts).timestamp()


# --- worker processes (clients, reference listener) ------------------------------------------


async def _loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late the event loop wakes a 10 ms sleep: its saturation."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - started - 0.01)


async def _read_command() -> str:
    return (await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)).strip()


def _emit(kind: str, payload: dict[str, Any]) -> None:
    sys.stdout.write(f"{kind} {json.dumps(payload)}\n")
    sys.stdout.flush()


async def client_worker(cfg: dict[str, Any]) -> None:
    """`cfg["clients"]` sockets; reports per client the (ts, receive time) of each `lag`."""
    from websockets.asyncio.client import connect

    group, url, origin = cfg["group"], cfg["url"], cfg["origin"]
    headers = {"Authorization": f"Token {cfg['token']}"}
    subscribe = json.dumps(
        {"subscribe": {"all": True} if cfg["subscribe"] == "all" else {"groups": [group]}}
    )
    gate = asyncio.Semaphore(cfg["connect_concurrency"])
    received: list[list[list[float]]] = [[] for _ in range(cfg["clients"])]
    problems: list[str] = []
    others = [0]
    statuses = [0]
    ready = [0]
    all_ready = asyncio.Event()
    stopping = asyncio.Event()
    sockets: list[Any] = []
    open_clients: set[int] = set()

    async def one(index: int) -> None:
        try:
            async with gate:
                ws = await connect(
                    url,
                    origin=origin,
                    additional_headers=headers,
                    proxy=None,
                    open_timeout=120,
                    ping_interval=None,
                    max_queue=None,
                )
                await ws.send(subscribe)
                first = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if first.get("type") != "status" or not first.get("live"):
                problems.append(f"client {index}: first message {first}")
        except Exception as exc:  # noqa: BLE001 (counted and reported)
            problems.append(f"client {index}: {exc!r}")
            ready[0] += 1
            if ready[0] == cfg["clients"]:
                all_ready.set()
            return
        ready[0] += 1
        if ready[0] == cfg["clients"]:
            all_ready.set()
        sockets.append(ws)
        open_clients.add(index)
        mine = received[index]
        try:
            async for raw in ws:
                now = time.time()
                message = json.loads(raw)
                if message.get("type") == "lag" and message.get("group_id") == group:
                    mine.append([epoch(message["ts"]), now])
                elif message.get("type") == "status":
                    statuses[0] += 1
                    if not message.get("live") and len(problems) < 100:
                        problems.append(f"client {index}: {message}")
                else:
                    others[0] += 1
        except Exception as exc:  # noqa: BLE001 (a socket that failed)
            problems.append(f"client {index}: {exc!r}")
        if not stopping.is_set():
            open_clients.discard(index)
            problems.append(f"client {index}: closed early ({ws.close_code})")

    started = time.perf_counter()
    tasks = [asyncio.ensure_future(one(i)) for i in range(cfg["clients"])]
    await all_ready.wait()
    _emit("ready", {"connect_s": round(time.perf_counter() - started, 2), "problems": problems})
    lag: list[float] = []
    await _read_command()  # "go": the window starts
    usage0 = resource.getrusage(resource.RUSAGE_SELF)
    lag_stop = asyncio.Event()
    lag_task = asyncio.ensure_future(_loop_lag(lag, lag_stop))
    await _read_command()  # "end": the window's time is over
    usage1 = resource.getrusage(resource.RUSAGE_SELF)
    lag_stop.set()
    # "drain <ts> <timeout>": wait for every client to have the window's last pass.
    _, last, timeout = (await _read_command()).split()
    deadline = time.monotonic() + float(timeout)
    while time.monotonic() < deadline and any(
        not received[i] or received[i][-1][0] < float(last) - 0.0005 for i in open_clients
    ):
        await asyncio.sleep(0.05)
    stopping.set()
    await asyncio.gather(*(ws.close() for ws in sockets))
    await asyncio.gather(*tasks, lag_task)
    cpu = (usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)
    _emit(
        "result",
        {
            "received": received,
            "other_messages": others[0],
            "status_messages": statuses[0],
            "problems": problems,
            "cpu_s": cpu,
            "loop_lag_p99_ms": round(pct(lag, 0.99) * 1000, 1) if lag else None,
            "loop_lag_max_ms": round(max(lag) * 1000, 1) if lag else None,
        },
    )


async def listener_worker(cfg: dict[str, Any]) -> None:
    """The channel layer's side: when each pass reaches a member of the group's Channels group."""
    sys.path.insert(0, str(ROOT))
    from console.channel_layer import PubSubChannelLayer  # the web server's layer
    from console.envvars import channel_prefix

    # The web server's prefix too: without it the listener hears another channel namespace.
    layer = PubSubChannelLayer(hosts=[cfg["redis_url"]], prefix=channel_prefix(cfg["redis_url"]))
    name = await layer.new_channel()
    await layer.group_add(cfg["channel_group"], name)
    _emit("ready", {})
    seen: dict[float, float] = {}
    failures = 0
    command = asyncio.ensure_future(_read_command())
    receive = asyncio.ensure_future(layer.receive(name))
    while True:
        done, _ = await asyncio.wait({receive, command}, return_when=asyncio.FIRST_COMPLETED)
        if receive in done and receive.exception() is not None:
            failures += 1
        elif receive in done:
            now = time.time()
            # [group id, JSON text] pairs (groups.lag.live.encode)
            for _, text in receive.result().get("messages") or []:
                message = json.loads(text)
                if message.get("type") == "lag" and message.get("group_id") == cfg["group"]:
                    seen.setdefault(epoch(message["ts"]), now)
        if receive in done:
            receive = asyncio.ensure_future(layer.receive(name))
        if command in done:
            if command.result() != "go":
                break
            command = asyncio.ensure_future(_read_command())
    receive.cancel()
    await layer.group_discard(cfg["channel_group"], name)
    _emit("result", {"seen": [[ts, at] for ts, at in seen.items()], "failures": failures})


def worker_main(raw: str) -> None:
    cfg = json.loads(raw)
    raise_fd_limit(cfg.get("clients", 0) + 256)
    run = listener_worker if cfg["role"] == "listener" else client_worker
    asyncio.run(run(cfg))


class Worker:
    """A child process of this script, answering one JSON line per step on stdout."""

    def __init__(self, cfg: dict[str, Any], log_path: Path):
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", json.dumps(cfg)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log_path.open("a"),
            text=True,
        )

    def expect(self, kind: str) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith(kind + " "):
            raise RuntimeError(f"worker said {line[:300]!r} instead of {kind!r}")
        return json.loads(line[len(kind) + 1 :])

    def command(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


# --- the run ---------------------------------------------------------------------------------


class Watch(threading.Thread):
    """Polls the sampler's meta (pass ts → duration) and the web server's RSS."""

    def __init__(self, server_pids: list[int]):
        super().__init__(daemon=True)
        self.server_pids = server_pids
        self.durations: dict[float, float] = {}
        self.phases: dict[float, dict[str, float]] = {}  # pass ts -> seconds per phase
        self.failed: set[float] = set()  # passes whose meta says not ok
        self.rss_max_mb = [0.0] * len(server_pids)
        self.measuring = False
        self.sizes: list[tuple[int, int]] = []  # (groups, partitions) of the passes seen
        self.lease_holders: set[str | None] = set()
        self.stopped = threading.Event()

    def run(self) -> None:
        from groups.lag import store as lag_store
        from groups.lag.live import iso

        while not self.stopped.wait(0.1):
            try:
                meta = lag_store.read_meta(CLUSTER) or {}
                if self.measuring:
                    self.lease_holders.add(lag_store.lease_holder(CLUSTER))
                for i, pid in enumerate(self.server_pids):
                    self.rss_max_mb[i] = max(self.rss_max_mb[i], proc_rss_mb(pid))
            except Exception:  # noqa: BLE001 (a missed poll; the next one comes)
                continue
            stamp = iso(meta.get("ts"))  # as the messages carry it: to the millisecond
            if meta.get("ok") and stamp is not None:
                self.durations[round(epoch(stamp), 3)] = float(meta.get("duration_s") or 0.0)
                if isinstance(meta.get("phases"), dict):
                    self.phases[round(epoch(stamp), 3)] = meta["phases"]
                self.sizes.append((int(meta.get("groups") or 0), int(meta.get("partitions") or 0)))
            elif stamp is not None:
                self.failed.add(round(epoch(stamp), 3))

    def newest_pass(self) -> float:
        return max(self.durations, default=0.0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of samples")
    parser.add_argument("--interval", type=float, default=1.0, help="LAG_SAMPLE_SECONDS")
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument(
        "--web-procs",
        type=int,
        default=1,
        help="web processes (one database and Redis); the client processes take turns",
    )
    parser.add_argument("--subscribe", choices=("group", "all"), default="group")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker)
        return
    if not 1 <= args.procs <= args.clients:
        parser.error("--procs: from 1 to --clients")
    if not 1 <= args.web_procs <= args.procs:
        parser.error("--web-procs: from 1 to --procs (each client process talks to one)")
    # Children (daphne, the client processes) inherit the limit: one descriptor per socket.
    fd_limit = raise_fd_limit(args.clients + 1024)
    if fd_limit < args.clients + 256:
        parser.error(f"open files limit {fd_limit} is too low for {args.clients} sockets")
    os.environ["LAG_SAMPLE_SECONDS"] = str(args.interval)
    setup_django()
    from django.conf import settings

    from console.kafka import KafkaAdapterError, dev
    from groups.lag import store as lag_store
    from groups.lag.live import group_channel
    from tests.live_server import start_console, start_sampler, stop_process
    from tests.stack import cluster_client, wait_for
    from tests.traffic import PARTITIONS, Consumer, Producer

    workdir = Path(tempfile.mkdtemp(prefix="bench-ws-lag-"))
    topic = f"bench-ws-lag-{uuid.uuid4().hex[:8]}"
    group = f"{topic}-group"
    client = cluster_client()
    console = sampler = producer = consumer = watch = None
    consoles: list[Any] = []
    workers: list[Worker] = []
    failed = True
    try:
        console = start_console(workdir)
        consoles.append(console)
        for i in range(1, args.web_procs):  # more web processes of the same console
            more = workdir / f"web{i}"
            more.mkdir()
            consoles.append(start_console(more, database_url=console.env["DATABASE_URL"]))
        progress(f"console at {[c.base for c in consoles]}, logs in {workdir}")
        server_pids = [c.process.pid for c in consoles]
        dev.create_topics(client, [(topic, PARTITIONS, 3, {})])
        producer = Producer(topic, rate=20)
        producer.start()
        consumer = Consumer(topic, group)
        consumer.rate = 5  # slower than the producer: the lag grows every pass
        consumer.start()
        sampler = start_sampler(console.env, workdir / "sampler.log", args.interval, CLUSTER)
        token = console.token("bench-ws-viewer", "viewer")
        progress("sampler started; waiting for the group's first sample")
        wait_for(lambda: lag_store.read_group(CLUSTER, group), 300, f"{group} sampled")
        progress("group sampled; connecting clients")
        watch = Watch(server_pids)
        watch.start()

        # Reference listener first, then the clients, spread over the processes.
        log_path = workdir / "workers.log"
        listener = Worker(
            {
                "role": "listener",
                "redis_url": settings.REDIS_URL,
                "channel_group": group_channel(CLUSTER, group),
                "group": group,
            },
            log_path,
        )
        workers.append(listener)
        listener.expect("ready")
        rss_idle_mb = [proc_rss_mb(pid) for pid in server_pids]
        shares = [
            args.clients // args.procs + (i < args.clients % args.procs) for i in range(args.procs)
        ]
        clients = []
        for index, share in enumerate(shares):
            web = consoles[index % len(consoles)]
            cfg = {
                "role": "clients",
                "clients": share,
                "url": web.base.replace("http://", "ws://") + f"/ws/clusters/{CLUSTER}/lag",
                "origin": web.base,
                "token": token,
                "group": group,
                "subscribe": args.subscribe,
                "connect_concurrency": max(1, args.connect_concurrency // args.procs),
            }
            clients.append(Worker(cfg, log_path))
        workers.extend(clients)
        connect_started = time.perf_counter()
        readies = [w.expect("ready") for w in clients]
        connect_s = time.perf_counter() - connect_started
        connect_problems = [p for r in readies for p in r["problems"]]
        progress(f"{args.clients} clients connected in {connect_s:.1f} s; measuring")

        # The window: passes sampled from t0 on, for `duration` seconds.
        time.sleep(max(2.0, args.interval))  # the snapshots after subscribe are out of the way
        t0 = time.time()
        load0 = os.getloadavg()
        redis0 = redis_run_id(settings.REDIS_URL)
        cpu0 = {"server": [proc_cpu_s(p) for p in server_pids], "sampler": proc_cpu_s(sampler.pid)}
        machine0 = machine_cpu()
        watch.measuring = True
        for w in workers:
            w.command("go")
        time.sleep(args.duration)
        t1 = time.time()
        load1 = os.getloadavg()
        for w in clients:
            w.command("end")
        cpu1 = {"server": [proc_cpu_s(p) for p in server_pids], "sampler": proc_cpu_s(sampler.pid)}
        machine1 = machine_cpu()
        watch.measuring = False
        rss_end_mb = [proc_rss_mb(pid) for pid in server_pids]
        # The window's last pass is published once a later pass is stored (passes are
        # sequential); then the clients wait for it (DRAIN_TIMEOUT_S at most).
        deadline = time.monotonic() + 120
        while watch.newest_pass() <= t1 and time.monotonic() < deadline:
            time.sleep(0.1)
        last = max((ts for ts in watch.durations if ts <= t1), default=t1)
        progress("window over; waiting for its last pass to reach every client")
        for w in clients:
            w.command(f"drain {last} {DRAIN_TIMEOUT_S}")
        listener.command("stop")
        heard = listener.expect("result")
        seen = {ts: at for ts, at in heard["seen"]}
        first_line = (workdir / "sampler.log").read_text().split("\n", 1)[0]
        owner = first_line.removeprefix("lagsampler ").split(": ", 1)[0]
        results = [w.expect("result") for w in clients]
        redis1 = redis_run_id(settings.REDIS_URL)
        failed = False
    finally:
        for w in workers:
            w.stop()
        if watch is not None:
            watch.stopped.set()
        if sampler is not None:
            stop_process(sampler)
        for web in reversed(consoles):
            web.stop()
        for thread in (producer, consumer):
            if thread is not None:
                thread.stopped.set()
                thread.join(timeout=15)
        for cleanup in (lambda: client.delete_group(group), lambda: client.delete_topics([topic])):
            try:
                cleanup()
            except KafkaAdapterError as exc:
                print(f"cleanup: {exc}", file=sys.stderr)
        if failed:
            print(f"logs kept in {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)

    def in_window(ts: float) -> bool:
        return t0 <= ts <= t1

    per_client = [
        {round(ts, 3): at for ts, at in received if in_window(ts)}
        for r in results
        for received in r["received"]
    ]
    # Every pass of the window: stored (the sampler's meta), heard by the listener or a client.
    stored = {ts for ts in watch.durations if in_window(ts)}
    passes = sorted({round(ts, 3) for ts in seen if in_window(ts)}.union(stored, *per_client))
    listener_at = {round(ts, 3): at for ts, at in seen.items()}
    latency, fanout, after_read = [], [], []
    arrivals: dict[float, list[float]] = {}
    for got in per_client:
        for ts, at in got.items():
            latency.append(at - ts)
            read_s = watch.phases.get(ts, {}).get("read")
            if read_s is not None:
                after_read.append(at - ts - read_s)
            arrivals.setdefault(ts, []).append(at)
            if ts in listener_at:
                fanout.append(at - listener_at[ts])
    # Per pass: the first client's delay after the listener, and first to last client.
    first = [min(a) - listener_at[ts] for ts, a in arrivals.items() if ts in listener_at]
    spread = [max(a) - min(a) for a in arrivals.values()]
    to_publish = [listener_at[ts] - ts for ts in passes if ts in listener_at]
    durations = [watch.durations[ts] for ts in passes if ts in watch.durations]
    missed = {
        i: len(passes) - len(got) for i, got in enumerate(per_client) if len(got) < len(passes)
    }
    wall = t1 - t0
    busy = (machine1[0] - machine0[0]) / max(1.0, machine1[1] - machine0[1])
    report = {
        "clients": args.clients,
        "client_processes": args.procs,
        "web_processes": args.web_procs,
        "subscribe": args.subscribe,
        "interval_s": args.interval,
        "duration_s": round(wall, 1),
        "connect_s": round(connect_s, 1),
        "connect_failures": len(connect_problems),
        "passes": len(passes),
        "failed_passes": sum(in_window(ts) for ts in watch.failed),
        "cluster_groups_sampled": max((g for g, _ in watch.sizes), default=None),
        "cluster_partitions_sampled": max((p for _, p in watch.sizes), default=None),
        "passes_seen_by_listener": sum(ts in listener_at for ts in passes),
        "messages": len(latency),
        "messages_expected": len(passes) * args.clients,
        "latency_sample_to_client": summary_ms(latency),
        # From the end of the pass's Kafka reads (the sample in hand) instead of its start.
        "latency_sample_read_to_client": summary_ms(after_read),
        "pass_phases": {
            name: summary_ms(
                [watch.phases[ts][name] for ts in passes if name in watch.phases.get(ts, {})]
            )
            for name in (
                "read",
                "windows",
                "timestamps",
                "evaluate",
                "store_latest",
                "publish",
                "store_history",
            )
        },
        "split": {
            "sample_to_publish": summary_ms(to_publish),
            "sampler_pass_duration": summary_ms(durations),
            "publish_to_client": summary_ms(fanout),
            "publish_to_first_client_per_pass": summary_ms(first),
            "first_to_last_client_per_pass": summary_ms(spread),
        },
        # One value per web process.
        "server_cpu_percent": [
            round((b - a) / wall * 100, 1)
            for a, b in zip(cpu0["server"], cpu1["server"], strict=True)
        ],
        "server_rss_mb": {
            "before_clients": [round(v, 1) for v in rss_idle_mb],
            "end": [round(v, 1) for v in rss_end_mb],
            "max": [round(v, 1) for v in watch.rss_max_mb],
        },
        "sampler_cpu_percent": round((cpu1["sampler"] - cpu0["sampler"]) / wall * 100, 1),
        "clients_cpu_percent": round(sum(r["cpu_s"] for r in results) / wall * 100, 1),
        "clients_loop_lag_ms": {
            "p99": max((r["loop_lag_p99_ms"] or 0) for r in results),
            "max": max((r["loop_lag_max_ms"] or 0) for r in results),
        },
        "our_sampler_held_the_lease": watch.lease_holders == {owner},
        "machine_cpu_percent": round(busy * 100, 1),
        "load_average_1_5_15": {
            "start": [round(v, 2) for v in load0],
            "end": [round(v, 2) for v in load1],
        },
        "redis_restarted": None if None in (redis0, redis1) else redis0 != redis1,
        "machine_cores": os.cpu_count(),
        "clients_missing_passes": len(missed),
        "missing_messages": sum(missed.values()),
        "other_messages": sum(r["other_messages"] for r in results),
        "status_messages_after_subscribe": sum(r["status_messages"] for r in results),
        "listener_receive_failures": heard["failures"],
        "problems": (connect_problems + [p for r in results for p in r["problems"]])[:10],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
