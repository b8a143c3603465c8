"""Apache Kafka's own CLI tools, run with java from the fetched jars (no tarball, no bin/)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from console import jvm_archive
from devtools.devstack import config, jars, kafka_cluster

# name -> (main class, takes --bootstrap-server). Classes as used by Kafka's bin/*.sh scripts.
TOOLS: dict[str, tuple[str, bool]] = {
    "kafka-topics": ("org.apache.kafka.tools.TopicCommand", True),
    "kafka-consumer-groups": ("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", True),
    "kafka-configs": ("kafka.admin.ConfigCommand", True),
    "kafka-get-offsets": ("org.apache.kafka.tools.GetOffsetShell", True),
    "kafka-metadata-quorum": ("org.apache.kafka.tools.MetadataQuorumCommand", True),
    "kafka-delete-records": ("org.apache.kafka.tools.DeleteRecordsCommand", True),
    "kafka-console-producer": ("org.apache.kafka.tools.ConsoleProducer", True),
    "kafka-console-consumer": ("org.apache.kafka.tools.consumer.ConsoleConsumer", True),
    "kafka-features": ("org.apache.kafka.tools.FeatureCommand", True),
    "kafka-broker-api-versions": ("org.apache.kafka.tools.BrokerApiVersionsCommand", True),
    "kafka-leader-election": ("org.apache.kafka.tools.LeaderElectionCommand", True),
    "kafka-reassign-partitions": (
        "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
        True,
    ),
    "kafka-log-dirs": ("org.apache.kafka.tools.LogDirsCommand", True),
    "kafka-storage": ("kafka.tools.StorageTool", False),
    "kafka-acls": ("org.apache.kafka.tools.AclCommand", True),
}

# Short-lived JVMs: serial GC and C1-only JIT start noticeably faster than the broker flags.
TOOL_JVM_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"]


def tool_args(name: str, args: Sequence[str]) -> list[str]:
    """args plus `--bootstrap-server <dev stack>` when the tool takes one and none is given."""
    if name not in TOOLS:
        raise KeyError(name)
    _, takes_bootstrap = TOOLS[name]
    given = any(
        a == flag or a.startswith(flag + "=")
        for a in args
        for flag in ("--bootstrap-server", "--bootstrap-controller")
    )
    if not takes_bootstrap or given:
        return list(args)
    # In front: argparse4j tools (kafka-metadata-quorum, kafka-features) want global options
    # before their subcommand, and the jopt-simple tools do not care about order.
    return ["--bootstrap-server", config.BOOTSTRAP_SERVERS, *args]


def class_archive(libs: Path) -> Path:
    """The tools' class-data sharing archive for these jars (built by `devstack up`): a tool
    starts in about half the time with it."""
    java = Path(kafka_cluster.java()).resolve()
    return jvm_archive.archive_path(libs.parent, "tools", java, libs.glob("*.jar"))


def build_class_archive(libs: Path, log: Callable[[str], None]) -> None:
    """Dump the classes of one admin round trip (list the groups) unless the archive exists.
    Best effort: without it the tools start as they always did."""
    archive = class_archive(libs)
    if archive.is_file():
        return
    target = jvm_archive.dump_target(archive)
    cmd = tool_command(
        "kafka-consumer-groups", ["--list"], jvm_flags=jvm_archive.dump_flags(target)
    )
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=config.REPO_ROOT, timeout=120)
    if run.returncode == 0 and jvm_archive.keep(target, archive):
        log(f"  Kafka tools' class archive: {archive.name}")
    else:
        target.unlink(missing_ok=True)
        log(f"  (no class archive for Kafka's tools: exit {run.returncode})")


def tool_command(
    name: str, args: Sequence[str], jvm_flags: Sequence[str] | None = None
) -> list[str]:
    """The java command line running Kafka tool `name` with `args`; `jvm_flags` replace the
    archive's (used to build it)."""
    main_class, _ = TOOLS[name]
    # Progress goes to stderr: callers parse the tool's stdout.
    libs = jars.ensure_kafka_jars(log=lambda msg: print(msg, file=sys.stderr))
    if jvm_flags is None:
        jvm_flags = jvm_archive.use_flags(class_archive(libs))
    return [
        kafka_cluster.java(),
        *config.TOOL_HEAP,
        *TOOL_JVM_FLAGS,
        *jvm_flags,
        f"-Dlog4j2.configurationFile={kafka_cluster.tools_log4j2_file()}",
        "-cp",
        str(libs / "*"),
        main_class,
        *tool_args(name, args),
    ]


def run_tool(
    name: str,
    args: Sequence[str],
    capture: bool = True,
    input: str | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess:
    """Run a Kafka CLI tool; with capture=True stdout/stderr come back as text."""
    if name not in TOOLS:
        raise ValueError(f"unknown tool {name!r}; known: {', '.join(sorted(TOOLS))}")
    return subprocess.run(
        tool_command(name, args),
        capture_output=capture,
        text=True,
        input=input,
        timeout=timeout,
        cwd=config.REPO_ROOT,
    )
