"""Class-data sharing archives for the short-lived JVMs the console starts.

A Spark driver or a Kafka tool spends most of its start loading and verifying the same few
thousand classes from the same jars. The JVM can dump those classes once into an archive
(`-XX:ArchiveClassesAtExit`) and map it at later starts (`-XX:SharedArchiveFile`): on this
project's 2-core machine a small Spark job then starts about 2.5 s sooner with half the CPU,
and a Kafka tool in half the time. An archive is only valid for the JVM and the exact jars it
was dumped with, so its file name carries a digest of both: after an upgrade the old one is
simply not found (the JVM would also refuse a stale one and start as usual, only slower).

Archives are built explicitly (`manage.py sparkarchive`, `devstack up`) into a temporary file
that replaces the final name only when complete, so a JVM never maps a half-written one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

# The JVM prints a warning when it cannot map an archive; it then starts as it would have
# without one. `-Xshare:auto` says so explicitly (it is the default).
_USE = ["-Xshare:auto"]


def java_binary(java_home: str | None = None) -> Path | None:
    """The `java` a launcher would run: $JAVA_HOME/bin/java, else the one on PATH."""
    home = java_home if java_home is not None else os.environ.get("JAVA_HOME")
    if home:
        candidate = Path(home) / "bin" / "java"
        return candidate.resolve() if candidate.is_file() else None
    found = shutil.which("java")
    return Path(found).resolve() if found else None


def archive_path(directory: Path, label: str, java: Path, jars: Iterable[Path]) -> Path:
    """Where the archive of `label` for this JVM and these jars lives (it may not exist)."""
    digest = hashlib.sha256(str(java).encode())
    for jar in sorted(jars):
        stat = jar.stat()
        digest.update(f"\0{jar.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return directory / f"{label}-{digest.hexdigest()[:16]}.jsa"


def use_flags(archive: Path | None) -> list[str]:
    """The JVM flags that map `archive`, or none when there is no archive."""
    if archive is None or not archive.is_file():
        return []
    return [f"-XX:SharedArchiveFile={archive}", *_USE]


def dump_target(archive: Path) -> Path:
    """A fresh temporary path beside `archive` for a JVM to dump into at its exit."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=archive.name + ".", suffix=".tmp", dir=archive.parent)
    os.close(fd)
    os.unlink(name)  # the JVM creates the file itself
    return Path(name)


def dump_flags(target: Path) -> list[str]:
    return [f"-XX:ArchiveClassesAtExit={target}"]


def keep(target: Path, archive: Path) -> bool:
    """Move a complete dump into place; False (and nothing kept) when the JVM wrote none."""
    if not target.is_file() or target.stat().st_size == 0:
        target.unlink(missing_ok=True)
        return False
    os.replace(target, archive)
    return True
