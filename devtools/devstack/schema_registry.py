"""A Schema Registry for the dev stack: Apicurio Registry, whose `ccompat/v7` API is
Confluent's, on 127.0.0.1:18085.

Its runnable distribution (`apicurio-registry-app-<v>-all.tar.gz`, a Quarkus app) comes from
Maven Central through Maven (so ~/.m2 keeps it across clones) and is unpacked into `.cache/`.
Storage is Apicurio's default in-memory database: the registry starts empty each time, and
whoever needs a schema (a test, `demotraffic`) registers it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from devtools.devstack import config, procs
from devtools.devstack.errors import DevstackError

STAMP = ".complete"
ARTIFACT = f"io.apicurio:apicurio-registry-app:{config.APICURIO_VERSION}:tar.gz:all"


def pid_file() -> Path:
    return config.schema_registry_dir() / "registry.pid"


def out_file() -> Path:
    return config.schema_registry_dir() / "registry.out"


def runner_jar() -> Path:
    return config.apicurio_home() / f"apicurio-registry-app-{config.APICURIO_VERSION}-runner.jar"


def markers() -> list[str]:
    return [runner_jar().name, f"quarkus.http.port={config.SCHEMA_REGISTRY_PORT}"]


def running_pid() -> int | None:
    return procs.running_pid(pid_file(), markers())


def status() -> dict[str, Any]:
    pid = running_pid()
    return {"pid": pid, "running": pid is not None, "url": config.SCHEMA_REGISTRY_URL}


def ensure_distribution(log=print) -> Path:
    """The unpacked Apicurio distribution, fetched with Maven the first time."""
    home = config.apicurio_home()
    if (home / STAMP).is_file() and runner_jar().is_file():
        return home
    mvn = shutil.which("mvn")
    if not mvn:
        raise DevstackError("Maven (mvn) is not on PATH; bin/setup installs it.")
    log(f"Fetching Apicurio Registry {config.APICURIO_VERSION} with Maven (once; into {home})")
    download = home.parent / "download"
    shutil.rmtree(download, ignore_errors=True)
    cmd = [mvn, "-q", "-B", "dependency:copy", f"-Dartifact={ARTIFACT}"]
    cmd += [f"-DoutputDirectory={download}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=home.parent.parent)
    archives = list(download.glob("*.tar.gz"))
    if proc.returncode != 0 or not archives:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise DevstackError(f"Maven could not fetch {ARTIFACT}:\n{tail}")
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    with tarfile.open(archives[0]) as tar:
        tar.extractall(home, filter="data")
    shutil.rmtree(download, ignore_errors=True)
    if not runner_jar().is_file():
        raise DevstackError(f"{archives[0].name} holds no {runner_jar().name}")
    (home / STAMP).write_text(json.dumps({"artifact": ARTIFACT}) + "\n")
    return home


def ready(timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"{config.SCHEMA_REGISTRY_URL}/subjects", timeout=timeout):
            return True
    except (urllib.error.URLError, OSError):
        return False


def start(log=print) -> int:
    """Start the registry unless ours runs; returns its pid (not waiting: see wait_ready)."""
    pid = running_pid()
    if pid is not None:
        return pid
    if procs.port_open(config.HOST, config.SCHEMA_REGISTRY_PORT):
        raise DevstackError(
            f"Port {config.SCHEMA_REGISTRY_PORT} is taken by a process that is not the dev "
            "stack's Schema Registry; stop it and retry."
        )
    ensure_distribution(log)
    config.schema_registry_dir().mkdir(parents=True, exist_ok=True)
    cmd = [
        shutil.which("java") or "java",
        *config.SCHEMA_REGISTRY_HEAP,
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",  # starts in half the time; its load is a few requests
        f"-Dquarkus.http.port={config.SCHEMA_REGISTRY_PORT}",
        f"-Dquarkus.http.host={config.HOST}",
        "-Dquarkus.log.level=WARN",
        "-jar",
        str(runner_jar()),
    ]
    proc = procs.spawn(cmd, out_file(), pid_file(), config.schema_registry_dir())
    log(f"Started the Schema Registry on {config.SCHEMA_REGISTRY_URL} (pid {proc.pid})")
    return proc.pid


def wait_ready(pid: int, timeout: float = config.SCHEMA_REGISTRY_READY_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if not procs.is_alive(pid) or time.monotonic() > deadline:
            raise DevstackError(
                f"The Schema Registry did not answer on {config.SCHEMA_REGISTRY_URL}.\n"
                + procs.tail(out_file(), 20)
            )
        time.sleep(0.3)


def stop(timeout: float = 20.0) -> list[int]:
    return procs.stop_many([(pid_file(), markers())], timeout=timeout)
