"""Fetch Kafka's and Spark's Kafka-source jars with Maven into `.cache/`.

Maven does the dependency resolution (and keeps its own cache in ~/.m2); we only write a
throw-away pom.xml, copy the runtime classpath next to it and stamp the result, so later runs
skip Maven entirely.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

from devtools.devstack import config
from devtools.devstack.errors import DevstackError

STAMP = ".complete"

# Classes the launcher and `tool` start; checked once after each fetch.
REQUIRED_KAFKA_CLASSES = (
    "kafka.Kafka",
    "kafka.tools.StorageTool",
    "org.apache.kafka.tools.TopicCommand",
    "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
)

_JAR_NAME = re.compile(r"^(?P<name>.+)-(?P<version>\d+(?:\.\d+)+[^/]*)\.jar$")


def render_pom(artifact_id: str, dependencies: list[tuple[str, str, str]]) -> str:
    """A packaging=pom project whose only purpose is `dependency:copy-dependencies`."""
    deps = "\n".join(
        f"    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>"
        f"<version>{v}</version></dependency>"
        for g, a, v in dependencies
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by devtools.devstack; only used to let Maven resolve and copy jars. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.devstack</groupId>
  <artifactId>{artifact_id}</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
{deps}
  </dependencies>
</project>
"""


def kafka_dependencies(version: str = config.KAFKA_VERSION) -> list[tuple[str, str, str]]:
    # kafka_2.13 at runtime scope is the whole broker; kafka-tools adds the CLI classes.
    return [
        ("org.apache.kafka", f"kafka_{config.SCALA_BINARY}", version),
        ("org.apache.kafka", "kafka-tools", version),
        ("org.apache.logging.log4j", "log4j-api", config.LOG4J_VERSION),
        ("org.apache.logging.log4j", "log4j-core", config.LOG4J_VERSION),
        ("org.apache.logging.log4j", "log4j-slf4j-impl", config.LOG4J_VERSION),
    ]


def _mvn() -> str:
    mvn = shutil.which("mvn")
    if not mvn:
        raise DevstackError(
            "Maven (mvn) is not on PATH; install it (Debian: apt-get install maven) "
            "so the dev stack can fetch the Kafka jars."
        )
    return mvn


def _copy_dependencies(pom_dir: Path, out_dir: Path) -> None:
    """Run Maven's copy-dependencies for pom_dir/pom.xml into a fresh out_dir."""
    if out_dir.exists():
        shutil.rmtree(out_dir)
    cmd = [
        _mvn(),
        "-q",
        "-B",
        "-f",
        str(pom_dir / "pom.xml"),
        "dependency:copy-dependencies",
        "-DincludeScope=runtime",  # runtime also drops `provided` deps such as spark-sql
        f"-DoutputDirectory={out_dir}",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise DevstackError(f"Maven could not fetch the jars of {pom_dir}:\n{tail}")


def _classes_in(libs: Path) -> set[str]:
    names: set[str] = set()
    for jar in libs.glob("*.jar"):
        with zipfile.ZipFile(jar) as zf:
            names.update(n for n in zf.namelist() if n.endswith(".class"))
    return names


def kafka_jars_ready() -> bool:
    return (config.kafka_home() / STAMP).is_file() and config.kafka_libs_dir().is_dir()


def ensure_kafka_jars(log=print) -> Path:
    """The libs/ directory of the pinned Kafka, fetching it with Maven the first time."""
    home, libs = config.kafka_home(), config.kafka_libs_dir()
    if kafka_jars_ready():
        return libs
    log(f"Fetching Apache Kafka {config.KAFKA_VERSION} jars with Maven (once; cached in {home})")
    home.mkdir(parents=True, exist_ok=True)
    (home / "pom.xml").write_text(render_pom("kafka-libs", kafka_dependencies()))
    tmp = home / "libs.tmp"
    _copy_dependencies(home, tmp)
    classes = _classes_in(tmp)
    missing = [c for c in REQUIRED_KAFKA_CLASSES if c.replace(".", "/") + ".class" not in classes]
    if missing:
        raise DevstackError(f"Kafka {config.KAFKA_VERSION} jars lack {', '.join(missing)}.")
    if libs.exists():
        shutil.rmtree(libs)
    tmp.rename(libs)
    jars = sorted(p.name for p in libs.glob("*.jar"))
    (home / STAMP).write_text(json.dumps({"version": config.KAFKA_VERSION, "jars": jars}) + "\n")
    return libs


# --- Spark's Kafka source -------------------------------------------------------------------
def pyspark_version() -> str:
    return importlib.metadata.version("pyspark")


def spark_kafka_dir() -> Path:
    return config.CACHE_DIR / "spark-kafka" / pyspark_version()


def artifact_name(jar_file: str) -> str:
    """`kafka-clients-3.9.0.jar` -> `kafka-clients` (the name without its version)."""
    match = _JAR_NAME.match(jar_file)
    return match.group("name") if match else jar_file.removesuffix(".jar")


def _pyspark_shipped_artifacts() -> set[str]:
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        return set()
    jars_dir = Path(next(iter(spec.submodule_search_locations))) / "jars"
    return {artifact_name(p.name) for p in jars_dir.glob("*.jar")}


def spark_kafka_jars() -> list[Path]:
    """Jars to add to `spark.jars` for format("kafka"); empty until fetched (`devstack fetch`)."""
    out = spark_kafka_dir()
    if not (out / STAMP).is_file():
        return []
    return sorted(out.glob("*.jar"))


def _spark_kafka_pom(version: str) -> str:
    artifact = f"spark-sql-kafka-0-10_{config.SCALA_BINARY}"
    return render_pom("spark-kafka-libs", [("org.apache.spark", artifact, version)])


def ensure_spark_kafka_jars(log=print) -> list[Path]:
    """Fetch spark-sql-kafka for the installed pyspark, minus jars pyspark already ships."""
    out = spark_kafka_dir()
    if (out / STAMP).is_file():
        return spark_kafka_jars()
    wanted = pyspark_version()
    major, minor, *_ = wanted.split(".")
    # Maven Central may not (yet) carry every Spark patch release; the x.y.0 connector speaks the
    # same DataSource V2 API as any later x.y.z runtime, so it is the fallback.
    candidates = [wanted] + ([f"{major}.{minor}.0"] if wanted != f"{major}.{minor}.0" else [])
    work = out.parent / f".{wanted}.work"
    work.mkdir(parents=True, exist_ok=True)
    used, error = None, None
    for version in candidates:
        log(f"Fetching spark-sql-kafka {version} jars with Maven (once; cached in {out})")
        (work / "pom.xml").write_text(_spark_kafka_pom(version))
        try:
            _copy_dependencies(work, work / "jars")
        except DevstackError as exc:
            error = exc
            log(f"  spark-sql-kafka {version} is not resolvable from Maven")
            continue
        used = version
        break
    if used is None:
        raise DevstackError(f"Could not fetch Spark's Kafka source for pyspark {wanted}: {error}")
    shipped = _pyspark_shipped_artifacts()
    for jar in (work / "jars").glob("*.jar"):
        if artifact_name(jar.name) in shipped:
            jar.unlink()  # a second copy on the classpath would only risk version clashes
    if out.exists():
        shutil.rmtree(out)
    (work / "jars").rename(out)
    jars = sorted(p.name for p in out.glob("*.jar"))
    stamp = {"pyspark_version": wanted, "connector_version": used, "jars": jars}
    (out / STAMP).write_text(json.dumps(stamp) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    return spark_kafka_jars()
