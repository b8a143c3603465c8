"""`devstack up|down|status|stop-broker|start-broker|tool|fetch|spark-up|spark-down`: the
command-line front end.

Used both as `python manage.py devstack ...` and, without Django, `python -m devtools.devstack`.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import time
from typing import Any

from devtools.devstack import (
    config,
    jars,
    kafka_cluster,
    oidc_server,
    postgres_server,
    procs,
    redis_server,
    schema_registry,
    secure_listener,
    spark_cluster,
    tls,
    tools,
)
from devtools.devstack.errors import DevstackError

# Created in every state dir we make; `down --wipe` refuses to delete a directory without it.
STATE_MARKER = ".devstack-state"


def _log(msg: str) -> None:
    print(msg, flush=True)


def _warn(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _lock():
    return procs.locked(config.state_dir() / ".lock")


def _init_state_dir() -> None:
    state = config.state_dir()
    state.mkdir(parents=True, exist_ok=True)
    (state / STATE_MARKER).touch()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="devstack",
        description=(
            "Local 3-broker KRaft Kafka cluster, Redis and PostgreSQL for Kafka Console "
            "development."
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    up = sub.add_parser(
        "up", help="fetch jars if needed, start Redis, PostgreSQL, Kafka and the Schema Registry"
    )
    up.add_argument("--timeout", type=float, default=config.READY_TIMEOUT_S, help="seconds")
    down = sub.add_parser("down", help="stop everything (data is kept)")
    down.add_argument("--wipe", action="store_true", help="also delete all data and logs")
    status = sub.add_parser("status", help="show processes and connection settings")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    stop = sub.add_parser("stop-broker", help="stop one Kafka node (graceful SIGTERM)")
    stop.add_argument("node", type=int, choices=config.BROKER_IDS)
    stop.add_argument("--kill", action="store_true", help="SIGKILL instead (a crash)")
    start = sub.add_parser("start-broker", help="start one Kafka node, wait until it is back")
    start.add_argument("node", type=int, choices=config.BROKER_IDS)
    start.add_argument("--timeout", type=float, default=config.READY_TIMEOUT_S, help="seconds")
    tool = sub.add_parser(
        "tool",
        help="run a Kafka CLI tool: tool NAME ARGS... (adds --bootstrap-server)",
        description="Tools: " + ", ".join(sorted(tools.TOOLS)),
    )
    tool.add_argument("name", choices=sorted(tools.TOOLS), metavar="NAME")
    tool.add_argument("args", nargs=argparse.REMAINDER)
    sub.add_parser(
        "fetch", help="fetch the Kafka, Spark Kafka-source and Schema Registry jars, start nothing"
    )
    spark_up = sub.add_parser(
        "spark-up",
        help=f"start a Spark standalone master and worker ({config.SPARK_MASTER_URL})",
    )
    spark_up.add_argument(
        "--timeout", type=float, default=config.SPARK_READY_TIMEOUT_S, help="seconds"
    )
    sub.add_parser("spark-down", help="stop the Spark standalone master and worker")
    oidc_env = sub.add_parser(
        "oidc-env",
        help="print the console's environment for single sign-on through the dev provider",
    )
    oidc_env.add_argument("--users", action="store_true", help="list the provider's users")
    return parser


def parse_args(argv: list[str]) -> argparse.Namespace:
    # `tool` takes everything after its name verbatim (argparse would eat `--help`, `-h`, or
    # options that look like ours), so split it off before argparse sees it.
    if argv and argv[0] == "tool" and len(argv) >= 2 and not argv[1].startswith("-"):
        if argv[1] not in tools.TOOLS:
            build_parser().error(
                f"unknown tool {argv[1]!r}; choose from {', '.join(sorted(tools.TOOLS))}"
            )
        return argparse.Namespace(command="tool", name=argv[1], args=list(argv[2:]))
    return build_parser().parse_args(argv)


# --- commands -------------------------------------------------------------------------------
def status_data() -> dict[str, Any]:
    spark = spark_cluster.status()
    return {
        "bootstrap_servers": config.BOOTSTRAP_SERVERS,
        "secure_bootstrap_servers": config.SECURE_BOOTSTRAP_SERVERS,
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": config.SASL_MECHANISM,
        "sasl_username": config.SASL_USERNAME,
        "sasl_password_file": str(tls.console_password_file()),
        "tls_ca_location": str(tls.ca_pem()),
        "brokers": [kafka_cluster.node_status(n) for n in config.BROKER_IDS],
        "redis_url": config.REDIS_URL,
        "redis": redis_server.status(),
        "schema_registry_url": config.SCHEMA_REGISTRY_URL,
        "schema_registry": schema_registry.status(),
        "oidc_provider": oidc_server.status(),
        "postgres_url": config.POSTGRES_URL,
        "postgres": postgres_server.status(),
        "kafka_version": config.KAFKA_VERSION,
        "state_dir": str(config.state_dir()),
        "spark_kafka_jars": [str(p) for p in jars.spark_kafka_jars()],
        "spark": spark,
        # SPARK_MASTER for the console's workers while `spark-up` runs, else None.
        "spark_master_url": spark["master_url"] if spark["running"] else None,
    }


def cmd_status(as_json: bool) -> int:
    data = status_data()
    if as_json:
        print(json.dumps(data))
        return 0
    for b in data["brokers"]:
        state = f"running (pid {b['pid']})" if b["running"] else "stopped"
        print(f"broker {b['id']}  {config.HOST}:{b['port']}  {state}")
    r = data["redis"]
    state = f"running (pid {r['pid']})" if r["running"] else "stopped"
    print(f"redis     {config.HOST}:{config.REDIS_PORT}  {state}")
    p = data["postgres"]
    state = f"running (pid {p['pid']})" if p["running"] else "stopped"
    print(f"postgres  {config.HOST}:{config.POSTGRES_PORT}  {state}")
    sr = data["schema_registry"]
    state = f"running (pid {sr['pid']})" if sr["running"] else "stopped"
    print(f"registry  {config.HOST}:{config.SCHEMA_REGISTRY_PORT}  {state}")
    o = data["oidc_provider"]
    state = f"running (pid {o['pid']})" if o["running"] else "stopped"
    print(f"oidc      {config.HOST}:{config.OIDC_PORT}  {state}")
    print(f"bootstrap servers: {data['bootstrap_servers']}")
    print(
        f"secure (SASL_SSL): {data['secure_bootstrap_servers']}  user {data['sasl_username']}"
        f" ({data['sasl_mechanism']}), password in {data['sasl_password_file']},"
        f" CA {data['tls_ca_location']}"
    )
    print(f"  Kafka's tools:   --command-config {tls.client_properties_file()}")
    print(f"redis url:         {data['redis_url']}")
    print(f"postgres url:      {data['postgres_url']}  (data in {config.postgres_dir()})")
    print(f"schema registry:   {data['schema_registry_url']}  (in memory: empty after a restart)")
    print(f"kafka {data['kafka_version']}, state in {data['state_dir']}")
    n_jars = len(data["spark_kafka_jars"])
    print(f"spark kafka jars:  {n_jars or 'not fetched (run: devstack fetch)'}")
    s = data["spark"]
    if s["running"]:
        print(
            f"spark standalone:  {s['master_url']} (UI {s['master_ui']}), worker "
            f"{s['cores']} cores {s['memory_mb']} MB (pids {s['master_pid']}, {s['worker_pid']})"
        )
    elif s["master_pid"] or s["worker_pid"]:
        print(f"spark standalone:  starting or broken (see {config.spark_dir()}/*.out)")
    else:
        print("spark standalone:  stopped (devstack spark-up)")
    return 0


def cmd_up(timeout: float) -> int:
    t0 = time.monotonic()
    with _lock():
        libs = jars.ensure_kafka_jars(_log)
        _init_state_dir()
        redis_server.ensure_running(_log)
        postgres_server.ensure_running(_log)
        started = kafka_cluster.start_nodes(config.BROKER_IDS, libs)
        if started:
            pids = ", ".join(f"{n}: {p.pid}" for n, p in started.items())
            _log(f"Started Kafka {config.KAFKA_VERSION} node(s) {pids}; waiting until ready")
        registry_pid = schema_registry.start(_log)  # boots beside the brokers
        # Maven runs while the JVMs boot: both are slow, neither needs the other.
        spark_problem = None
        try:
            jars.ensure_spark_kafka_jars(_log)
        except DevstackError as exc:
            spark_problem = exc
        desc = kafka_cluster.wait_ready(started, timeout=timeout, progress=_log, libs=libs)
        secure_listener.ensure_ready(config.BROKER_IDS, progress=_log)
        tools.build_class_archive(libs, _log)
        schema_registry.wait_ready(registry_pid)
        oidc_server.ensure_running(_log)
    ids = [b.id for b in desc.brokers]
    verb = "ready" if started else "already running"
    _log(
        f"Kafka {verb}: brokers {ids}, controller {desc.controller_id}, "
        f"cluster {desc.cluster_id} ({time.monotonic() - t0:.1f} s)"
    )
    _log(f"  bootstrap servers: {config.BOOTSTRAP_SERVERS}")
    _log(f"  SASL_SSL:          {config.SECURE_BOOTSTRAP_SERVERS} (see devstack status)")
    _log(f"  redis:             {config.REDIS_URL}")
    _log(f"  postgres:          {config.POSTGRES_URL}")
    _log(f"  schema registry:   {config.SCHEMA_REGISTRY_URL}")
    _log(f"  OIDC provider:     {config.OIDC_URL} (users: devstack oidc-env --users)")
    if spark_problem:
        _warn(f"warning: Spark's Kafka source jars are missing: {spark_problem}")
    return 0


def cmd_down(wipe: bool) -> int:
    state = config.state_dir()
    with _lock():
        pids = spark_cluster.stop()
        pids += kafka_cluster.stop_nodes(config.BROKER_IDS)
        pids += schema_registry.stop()
        pids += oidc_server.stop()
        pids += redis_server.stop()
        pids += postgres_server.stop()
        _log(f"Stopped {len(pids)} process(es)." if pids else "Nothing was running.")
        if wipe and state.is_dir():
            if not (state / STATE_MARKER).is_file():
                raise DevstackError(f"{state} does not look like a dev stack dir; not deleting it.")
            if config.postgres_dir().parent != state and config.postgres_dir().is_dir():
                shutil.rmtree(config.postgres_dir().parent)  # its own dir in /var/tmp, as root
            for child in state.iterdir():
                if child.name in (".lock", STATE_MARKER):
                    continue
                if child.is_dir():
                    shutil.rmtree(child)
                else:
                    child.unlink()
            _log(f"Wiped {state}.")
    return 0


def cmd_stop_broker(node: int, kill: bool) -> int:
    with _lock():
        pids = kafka_cluster.stop_nodes([node], kill=kill)
    how = "killed" if kill else "stopped"
    _log(f"Broker {node} {how} (pid {pids[0]})." if pids else f"Broker {node} was not running.")
    return 0


def cmd_start_broker(node: int, timeout: float) -> int:
    with _lock():
        libs = jars.ensure_kafka_jars(_log)
        _init_state_dir()
        started = kafka_cluster.start_nodes([node], libs)
        if started:
            _log(f"Started broker {node} (pid {started[node].pid}); waiting until it is back")
        kafka_cluster.wait_ready(started, need=[node], timeout=timeout, progress=_log, libs=libs)
        # The SCRAM credential is cluster-wide and already in place, yet a restarted broker has
        # come back refusing it (every login "invalid credentials" for as long as it ran, the
        # other brokers fine): so the console user's login on it is checked, and the
        # credential stored again when refused, which the broker then applies.
        secure_listener.ensure_ready([node], progress=_log)
    _log(f"Broker {node} is up." if started else f"Broker {node} was already running.")
    return 0


def cmd_tool(name: str, args: list[str]) -> int:
    # stdin/stdout/stderr are inherited, so producers/consumers work interactively too.
    return subprocess.run(tools.tool_command(name, args)).returncode


def cmd_fetch() -> int:
    t0 = time.monotonic()
    with _lock():
        libs = jars.ensure_kafka_jars(_log)
        spark = jars.ensure_spark_kafka_jars(_log)
        registry = schema_registry.ensure_distribution(_log)
    _log(f"Kafka {config.KAFKA_VERSION}: {len(list(libs.glob('*.jar')))} jars in {libs}")
    _log(f"Schema Registry: Apicurio {config.APICURIO_VERSION} in {registry}")
    _log(f"Spark Kafka source: {len(spark)} jars in {jars.spark_kafka_dir()}")
    _log(f"({time.monotonic() - t0:.1f} s)")
    return 0


def cmd_spark_up(timeout: float) -> int:
    t0 = time.monotonic()
    with _lock():
        _init_state_dir()
        info = spark_cluster.ensure_running(_log, timeout=timeout)
    _log(
        f"Spark standalone ready: {info['master_url']}, worker {info['cores']} cores "
        f"{info['memory_mb']} MB ({time.monotonic() - t0:.1f} s)"
    )
    _log(f"  master UI: {info['master_ui']}   logs: {config.spark_dir()}")
    _log(f"  for the console's workers: SPARK_MASTER={info['master_url']}")
    return 0


def cmd_spark_down() -> int:
    with _lock():
        pids = spark_cluster.stop()
    _log(f"Stopped the Spark master and worker {pids}." if pids else "Spark was not running.")
    return 0


def cmd_oidc_env(users: bool) -> int:
    if users:
        for name, groups in config.OIDC_USERS.items():
            print(f"{name}  groups {', '.join(groups)}  password {config.OIDC_USER_PASSWORD}")
        return 0
    for name, value in config.oidc_console_env().items():
        print(f"export {name}={shlex.quote(value)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # --help or a usage error; argparse already printed it
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "up":
            return cmd_up(args.timeout)
        if args.command == "down":
            return cmd_down(args.wipe)
        if args.command == "status":
            return cmd_status(args.json)
        if args.command == "stop-broker":
            return cmd_stop_broker(args.node, args.kill)
        if args.command == "start-broker":
            return cmd_start_broker(args.node, args.timeout)
        if args.command == "tool":
            return cmd_tool(args.name, args.args)
        if args.command == "fetch":
            return cmd_fetch()
        if args.command == "spark-up":
            return cmd_spark_up(args.timeout)
        if args.command == "spark-down":
            return cmd_spark_down()
        if args.command == "oidc-env":
            return cmd_oidc_env(args.users)
    except DevstackError as exc:
        _warn(f"devstack {args.command}: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    raise AssertionError(args.command)
