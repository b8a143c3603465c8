"""The Spark drivers' class-data sharing archive (console/jvm_archive.py): where it is, the
driver options that map it, and its one-off build (`manage.py sparkarchive`).

Only the driver JVMs that spark-submit starts on the worker's machine use it (in local mode
they also run the executors); executors of a remote cluster start as they always did.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from django.conf import settings

from console import jvm_archive
from sparkjobs import spark_submit

WARMUP_SCRIPT = Path(__file__).resolve().parent / "warmup" / "class_warmup.py"
DRIVER_OPTIONS = "spark.driver.extraJavaOptions"
LABEL = "spark-driver"


def spark_jars() -> list[Path]:
    """The jars on a driver's class path: those of the installed pyspark."""
    return sorted((spark_submit.spark_home() / "jars").glob("*.jar"))


def archive() -> Path | None:
    """This JVM's and this pyspark's archive path (built or not); None when switched off."""
    directory = settings.SPARK_CLASS_ARCHIVE_DIR
    java = jvm_archive.java_binary()
    if not directory or java is None:
        return None
    return jvm_archive.archive_path(Path(directory), LABEL, java, spark_jars())


def with_options(conf: Mapping[str, str], flags: list[str]) -> dict[str, str]:
    """`conf` with `flags` appended to the driver's Java options (kept, not replaced)."""
    out = dict(conf)
    if flags:
        out[DRIVER_OPTIONS] = " ".join(filter(None, [out.get(DRIVER_OPTIONS, ""), *flags]))
    return out


def with_archive(conf: Mapping[str, str]) -> dict[str, str]:
    """A job's Spark conf, mapping the archive when it has been built."""
    return with_options(conf, jvm_archive.use_flags(archive()))


def build(log: Callable[[str], None] = print, timeout: float = 600) -> Path:
    """Build the archive unless it exists: one warm-up driver in local mode, dumping the
    classes it loaded at its exit. Raises RuntimeError when the JVM wrote no archive."""
    path = archive()
    if path is None:
        raise RuntimeError("SPARK_CLASS_ARCHIVE_DIR is empty or no java was found")
    if path.is_file():
        log(f"Spark class archive: {path} (already built)")
        return path
    target = jvm_archive.dump_target(path)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="spark-warmup-") as out:
        cmd = spark_submit.build_command(
            script=WARMUP_SCRIPT,
            spec_path=Path(out),  # the warm-up's one argument: where it may write
            master="local[2]",
            jars=[],
            ui_port=spark_submit.free_port(),
            app_name="kafka-console class warm-up",
            conf=with_options({"spark.ui.enabled": "false"}, jvm_archive.dump_flags(target)),
        )
        run = subprocess.run(
            cmd,
            cwd=out,
            env=spark_submit.driver_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
        )
    if run.returncode != 0 or not jvm_archive.keep(target, path):
        target.unlink(missing_ok=True)
        tail = "\n".join((run.stdout + run.stderr).splitlines()[-20:])
        raise RuntimeError(f"the warm-up driver wrote no archive (exit {run.returncode}):\n{tail}")
    log(f"Spark class archive: {path} ({time.monotonic() - started:.0f} s)")
    return path
