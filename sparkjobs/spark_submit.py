"""spark-submit: the command (a list, never a shell string), its masked form for logs, and
small pure parsers of the driver's output and of its monitoring REST API."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import sys
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sparkjobs.job_types import JOBS_DIR
from sparkjobs.jobs import job_errors

# The modules every job script may import, shipped with --py-files.
DRIVER_MODULES = ("common.py", "job_errors.py")
# Printed by sparkjobs/jobs/common.py once the SparkContext is up.
APP_MARKER = "KAFKA_CONSOLE_SPARK_APP"
MASK = "******"
# Conf keys whose values are secrets (Spark's own redaction list, plus JAAS lines).
SECRET_KEY = re.compile(r"(?i)secret|password|token|access[.]?key|jaas|credential")

# Spark also hides these in its UI, event logs and plans (a `kafka.sasl.jaas.config` option
# matches none of Spark's default patterns).
REDACTION_CONF = {
    "spark.redaction.regex": r"(?i)secret|password|token|access[.]?key|jaas",
    "spark.sql.redaction.options.regex": r"(?i)url|jaas|password|keystore\.key",
}


def spark_home() -> Path:
    """The installed pyspark package: it carries bin/spark-submit and the jars."""
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyspark is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def driver_env() -> dict[str, str]:
    """spark-submit's environment: this one, with this interpreter (which has pyspark) as the
    driver's and local executors' Python."""
    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    return env


def kafka_jars(jars_dir: Path) -> list[Path]:
    """spark-sql-kafka and its dependencies (commons-pool2, kafka-clients, ...)."""
    jars = sorted(jars_dir.glob("*.jar"))
    if not any(j.name.startswith("spark-sql-kafka") for j in jars):
        raise FileNotFoundError(
            f"Spark's Kafka source jars are not in {jars_dir}; run bin/setup "
            "(manage.py devstack fetch) or set SPARK_KAFKA_JARS_DIR."
        )
    return jars


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def build_command(
    *,
    script: Path,
    spec_path: Path,
    master: str,
    jars: Iterable[Path],
    ui_port: int,
    app_name: str,
    conf: Mapping[str, str] | None = None,
    home: Path | None = None,
    py_files: Iterable[Path] = (),
) -> list[str]:
    """The spark-submit command of one job. Secrets are never in it: they are in the spec."""
    home = home or spark_home()
    all_conf = {
        # A known port, so the runner can poll the driver's REST API (stages -> progress).
        "spark.ui.port": str(ui_port),
        # Progress bars would fill the log with carriage returns.
        "spark.ui.showConsoleProgress": "false",
        **REDACTION_CONF,
        **(conf or {}),
    }
    cmd = [str(home / "bin" / "spark-submit"), "--master", master, "--name", app_name]
    jar_list = [str(j) for j in jars]
    if jar_list:
        cmd += ["--jars", ",".join(jar_list)]
    # Shipped so that executors on other machines can import the helpers too (and scripts
    # outside sparkjobs/jobs/ find them on the driver).
    shipped = [*(JOBS_DIR / name for name in DRIVER_MODULES), *py_files]
    cmd += ["--py-files", ",".join(str(p) for p in shipped)]
    for key, value in all_conf.items():
        cmd += ["--conf", f"{key}={value}"]
    return [*cmd, str(script), str(spec_path)]


def mask(cmd: list[str]) -> list[str]:
    """The command as it may be logged: values of secret-looking conf keys hidden."""
    out: list[str] = []
    for arg in cmd:
        key, sep, _ = arg.partition("=")
        if sep and SECRET_KEY.search(key) and not key.startswith("spark.redaction"):
            out.append(f"{key}={MASK}")
        else:
            out.append(arg)
    return out


# --- the driver's output ----------------------------------------------------------------------
_MARKER_RE = re.compile(re.escape(APP_MARKER) + r" app_id=(?P<app>\S+) ui=(?P<ui>\S*)")
# Spark's own lines, for drivers started without our marker (or before it is printed).
_APP_ID_RES = (
    re.compile(r"Connected to Spark cluster with app ID (?P<app>\S+)"),
    re.compile(r"Submitted application (?P<app>application_\d+_\d+)"),
)
_UI_RE = re.compile(r"Bound SparkUI to \S+, and started at (?P<ui>https?://\S+)")


def parse_app_id(line: str) -> str | None:
    if match := _MARKER_RE.search(line):
        return match["app"]
    for regex in _APP_ID_RES:
        if match := regex.search(line):
            return match["app"]
    return None


def parse_ui_url(line: str) -> str | None:
    match = _MARKER_RE.search(line) or _UI_RE.search(line)
    return (match["ui"] or None) if match else None


def parse_error(lines: Iterable[str]) -> str | None:
    """The error a failed driver's output shows, named by its root cause
    (sparkjobs/jobs/job_errors.py): the innermost exception of its last Python traceback (a
    Java `Caused by:` in py4j's text, or a Python exception a UDF raised), else of the JVM's
    `Exception in thread "main"`, else the last ERROR log line; None when there is none."""
    return job_errors.from_log(lines)


def stage_progress(stages: Any) -> float | None:
    """Completed / total tasks over the stages the driver's REST API lists (skipped ones
    never run and do not count); None when there is nothing to measure yet."""
    if not isinstance(stages, list):
        return None
    total = done = 0
    for stage in stages:
        if not isinstance(stage, dict) or stage.get("status") == "SKIPPED":
            continue
        total += int(stage.get("numTasks") or 0)
        done += int(stage.get("numCompleteTasks") or 0)
    return None if total == 0 else min(done / total, 1.0)


def product_zip(modules: Iterable[str], root: Path, out: Path) -> Path:
    """The product modules a job script imports, zipped at their package paths."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for module in sorted(modules):
            zf.write(root / module, module)
    return out
