"""Class-data sharing archives: named by JVM and jars, used only when built, kept only when
complete, and accepted by a real JVM with `-Xshare:on` (which refuses to start otherwise)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from console import jvm_archive
from sparkjobs import class_archive


def _jars(tmp_path: Path) -> list[Path]:
    jars = []
    for name in ("a.jar", "b.jar"):
        jar = tmp_path / name
        jar.write_bytes(b"jar " + name.encode())
        jars.append(jar)
    return jars


def test_the_archive_name_follows_the_jvm_and_every_jar(tmp_path):
    jars = _jars(tmp_path)
    java = Path("/usr/lib/jvm/x/bin/java")
    first = jvm_archive.archive_path(tmp_path, "tools", java, jars)
    assert first == jvm_archive.archive_path(tmp_path, "tools", java, list(reversed(jars)))
    assert first.parent == tmp_path and first.name.startswith("tools-")
    assert first != jvm_archive.archive_path(tmp_path, "tools", Path("/other/java"), jars)
    jars[1].write_bytes(b"a jar of another size")
    assert first != jvm_archive.archive_path(tmp_path, "tools", java, jars)
    os.utime(jars[0], ns=(0, 0))
    changed = jvm_archive.archive_path(tmp_path, "tools", java, jars)
    os.utime(jars[0], ns=(10**18, 10**18))
    assert changed != jvm_archive.archive_path(tmp_path, "tools", java, jars)


def test_flags_map_an_archive_only_once_it_exists(tmp_path):
    archive = tmp_path / "x.jsa"
    assert jvm_archive.use_flags(None) == []
    assert jvm_archive.use_flags(archive) == []
    archive.write_bytes(b"built")
    assert jvm_archive.use_flags(archive) == [f"-XX:SharedArchiveFile={archive}", "-Xshare:auto"]


def test_only_a_complete_dump_replaces_the_archive(tmp_path):
    archive = tmp_path / "sub" / "x.jsa"
    target = jvm_archive.dump_target(archive)
    assert target.parent == archive.parent and not target.exists()
    assert jvm_archive.keep(target, archive) is False  # the JVM wrote nothing
    target.write_bytes(b"")
    assert jvm_archive.keep(target, archive) is False and not target.exists()
    target.write_bytes(b"classes")
    assert jvm_archive.keep(target, archive) is True
    assert archive.read_bytes() == b"classes" and not target.exists()


# The JDK comes with the dev stack (bin/setup without --fast), hence the integration tier.
@pytest.mark.integration
def test_a_real_jvm_dumps_and_then_maps_the_archive(tmp_path):
    archive = tmp_path / "probe.jsa"
    target = jvm_archive.dump_target(archive)
    java = str(jvm_archive.java_binary())
    subprocess.run(
        [java, *jvm_archive.dump_flags(target), "-version"], check=True, capture_output=True
    )
    assert jvm_archive.keep(target, archive)
    # -Xshare:on: the JVM exits with an error if it cannot map the archive.
    flags = [f for f in jvm_archive.use_flags(archive) if f != "-Xshare:auto"]
    run = subprocess.run([java, *flags, "-Xshare:on", "-version"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_the_driver_options_keep_what_the_conf_already_says():
    conf = {"spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1", "spark.x": "1"}
    merged = class_archive.with_options(conf, ["-XX:SharedArchiveFile=/a.jsa", "-Xshare:auto"])
    assert merged == {
        "spark.driver.extraJavaOptions": (
            "-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=/a.jsa -Xshare:auto"
        ),
        "spark.x": "1",
    }
    assert class_archive.with_options({"spark.x": "1"}, ["-Xf"]) == {
        "spark.x": "1",
        "spark.driver.extraJavaOptions": "-Xf",
    }
    assert class_archive.with_options(conf, []) == conf


def test_jobs_map_the_drivers_archive_once_built_and_not_when_switched_off(settings, tmp_path):
    settings.SPARK_CLASS_ARCHIVE_DIR = str(tmp_path)
    archive = class_archive.archive()
    assert archive is not None and archive.parent == tmp_path
    assert class_archive.with_archive({}) == {}
    archive.write_bytes(b"built")
    assert class_archive.with_archive({}) == {
        "spark.driver.extraJavaOptions": f"-XX:SharedArchiveFile={archive} -Xshare:auto"
    }
    settings.SPARK_CLASS_ARCHIVE_DIR = ""
    assert class_archive.archive() is None and class_archive.with_archive({}) == {}
