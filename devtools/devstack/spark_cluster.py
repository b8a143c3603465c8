"""A Spark standalone cluster for the dev stack: one master and one worker on 127.0.0.1.

Both run from the installed pyspark's own launcher (`<pyspark>/bin/spark-class`), so nothing is
downloaded and the cluster's Spark is exactly the version spark-submit uses. Files, all under
`.devstack/spark/`:

    master.pid  master.out    the master (spark://127.0.0.1:17077, web UI :18080)
    worker.pid  worker.out    the worker (web UI :18081, 2 cores, 1g for executors)
    worker/                   the worker's application dirs (executor logs, shipped jars)
    local/                    the executors' scratch space (shuffle, spill)

The jobs' own dirs (`work/`, `output/`, settings SPARK_WORK_DIR and SPARK_OUTPUT_DIR) live
beside them and are not touched here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from devtools.devstack import config, procs
from devtools.devstack.errors import DevstackError

MASTER_CLASS = "org.apache.spark.deploy.master.Master"
WORKER_CLASS = "org.apache.spark.deploy.worker.Worker"
STOP_TIMEOUT_S = 20.0


# --- paths ----------------------------------------------------------------------------------
def pid_file(role: str) -> Path:
    return config.spark_dir() / f"{role}.pid"


def out_file(role: str) -> Path:
    return config.spark_dir() / f"{role}.out"


def worker_dir() -> Path:
    return config.spark_dir() / "worker"


def local_dir() -> Path:
    return config.spark_dir() / "local"


def markers(role: str) -> list[str]:
    """Command-line fragments of our master or worker JVM, for this state dir."""
    main_class = MASTER_CLASS if role == "master" else WORKER_CLASS
    return [main_class, f"-Ddevstack.spark={config.spark_dir()}"]


def running_pid(role: str) -> int | None:
    return procs.running_pid(pid_file(role), markers(role))


def master_ui() -> str:
    return f"http://{config.HOST}:{config.SPARK_MASTER_WEBUI_PORT}"


# --- the launcher ---------------------------------------------------------------------------
def spark_home() -> Path:
    """The installed pyspark package: bin/spark-class and jars/ (a complete Spark runtime)."""
    import importlib.util

    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise DevstackError("pyspark is not installed in this Python; run bin/setup.")
    home = Path(next(iter(spec.submodule_search_locations)))
    if not (home / "bin" / "spark-class").is_file():
        raise DevstackError(f"{home} has no bin/spark-class; reinstall pyspark.")
    return home


def command(role: str, home: Path) -> list[str]:
    launcher = str(home / "bin" / "spark-class")
    if role == "master":
        return [
            launcher,
            MASTER_CLASS,
            "--host",
            config.HOST,
            "--port",
            str(config.SPARK_MASTER_PORT),
            "--webui-port",
            str(config.SPARK_MASTER_WEBUI_PORT),
        ]
    return [
        launcher,
        WORKER_CLASS,
        config.SPARK_MASTER_URL,
        "--host",
        config.HOST,
        "--cores",
        str(config.SPARK_WORKER_CORES),
        "--memory",
        config.SPARK_WORKER_MEMORY,
        "--webui-port",
        str(config.SPARK_WORKER_WEBUI_PORT),
        "--work-dir",
        str(worker_dir()),
    ]


def environment(role: str, home: Path) -> dict[str, str]:
    """spark-class reads its JVM options from the environment (SPARK_*_OPTS)."""
    env = {
        **os.environ,
        "SPARK_HOME": str(home),
        "SPARK_LOCAL_IP": config.HOST,  # bind the daemons (and executors) to loopback only
        "SPARK_DAEMON_MEMORY": config.SPARK_DAEMON_MEMORY,
        "SPARK_LOCAL_DIRS": str(local_dir()),
        # Python workers of executors: this Python (it has pyspark), unless a job says otherwise.
        "PYSPARK_PYTHON": os.environ.get("PYSPARK_PYTHON") or sys.executable,
    }
    # The marker that tells our JVMs apart from any other Spark on the machine.
    opts = f"-Ddevstack.spark={config.spark_dir()}"
    key = "SPARK_MASTER_OPTS" if role == "master" else "SPARK_WORKER_OPTS"
    env[key] = f"{os.environ.get(key, '')} {opts}".strip()
    return env


# --- readiness ------------------------------------------------------------------------------
def master_state(timeout: float = 2.0) -> dict[str, Any] | None:
    """The master web UI's JSON (`/json/`), or None when it does not answer."""
    try:
        with urllib.request.urlopen(f"{master_ui()}/json/", timeout=timeout) as answer:
            data = json.load(answer)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def our_worker(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """Our worker (by its web UI port) if the master lists it ALIVE."""
    for worker in (state or {}).get("workers") or []:
        address = str(worker.get("webuiaddress", ""))
        if worker.get("state") == "ALIVE" and address.endswith(
            f":{config.SPARK_WORKER_WEBUI_PORT}"
        ):
            return worker
    return None


def status() -> dict[str, Any]:
    master, worker = running_pid("master"), running_pid("worker")
    state = master_state(timeout=1.0) if master is not None else None
    registered = our_worker(state)
    return {
        "running": master is not None and worker is not None and registered is not None,
        "master_url": config.SPARK_MASTER_URL,
        "master_ui": master_ui(),
        "master_pid": master,
        "worker_pid": worker,
        "worker_alive": registered is not None,
        "cores": registered.get("cores") if registered else None,
        "memory_mb": registered.get("memory") if registered else None,
    }


# --- start / stop ---------------------------------------------------------------------------
def _spawn(role: str, home: Path) -> subprocess.Popen:
    out = out_file(role)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "ab") as f:
        f.write(f"\n==== devstack start {time.strftime('%Y-%m-%d %H:%M:%S')} ====\n".encode())
    cmd = command(role, home)
    # spark-class execs java, so the pid we record is the JVM's.
    with open(out, "ab") as log:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=config.spark_dir(),
            env=environment(role, home),
            start_new_session=True,
        )
    procs.write_pid(pid_file(role), proc.pid)
    return proc


def _check_port_free(port: int, what: str) -> None:
    if procs.port_open(config.HOST, port):
        raise DevstackError(
            f"Port {port} ({what}) is taken by a process that is not the dev stack's Spark in "
            f"{config.spark_dir()}; stop it and retry."
        )


def _wait(probe: Callable[[], Any], pid: int, role: str, deadline: float, what: str) -> Any:
    while True:
        found = probe()
        if found:
            return found
        if not procs.is_alive(pid):
            raise DevstackError(
                f"The Spark {role} exited while starting.\n" + procs.tail(out_file(role), 25)
            )
        if time.monotonic() > deadline:
            raise DevstackError(f"Timed out waiting for {what}.\n" + procs.tail(out_file(role), 25))
        time.sleep(0.3)


def ensure_running(log=print, timeout: float = config.SPARK_READY_TIMEOUT_S) -> dict[str, Any]:
    """Start the master and the worker unless ours run; wait until the worker is registered
    (listed ALIVE by the master). Returns `status()`."""
    deadline = time.monotonic() + timeout
    home: Path | None = None
    for path in (worker_dir(), local_dir()):
        path.mkdir(parents=True, exist_ok=True)
    master = running_pid("master")
    if master is None:
        _check_port_free(config.SPARK_MASTER_PORT, "Spark master")
        _check_port_free(config.SPARK_MASTER_WEBUI_PORT, "Spark master web UI")
        home = spark_home()
        master = _spawn("master", home).pid
        log(f"Started the Spark master on {config.SPARK_MASTER_URL} (pid {master})")
    _wait(master_state, master, "master", deadline, f"the Spark master's UI at {master_ui()}")
    worker = running_pid("worker")
    if worker is None:
        _check_port_free(config.SPARK_WORKER_WEBUI_PORT, "Spark worker web UI")
        worker = _spawn("worker", home or spark_home()).pid
        log(
            f"Started a Spark worker ({config.SPARK_WORKER_CORES} cores, "
            f"{config.SPARK_WORKER_MEMORY}) (pid {worker}); waiting until it registers"
        )
    _wait(
        lambda: our_worker(master_state()),
        worker,
        "worker",
        deadline,
        f"the Spark worker to register with {config.SPARK_MASTER_URL}",
    )
    return status()


def stop(timeout: float = STOP_TIMEOUT_S) -> list[int]:
    """Stop the worker (its shutdown hook kills the executors it started), then the master."""
    pids = procs.stop_many([(pid_file("worker"), markers("worker"))], timeout=timeout)
    pids += procs.stop_many([(pid_file("master"), markers("master"))], timeout=timeout)
    return pids
