"""Maven pom rendering, jar-name parsing and the Spark jar list (no Maven run)."""

import xml.etree.ElementTree as ET

import pytest

from devtools.devstack import config, jars

NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def test_kafka_pom_is_valid_and_complete():
    pom = ET.fromstring(jars.render_pom("kafka-libs", jars.kafka_dependencies("4.3.1")))
    deps = {
        d.find("m:artifactId", NS).text: d.find("m:version", NS).text
        for d in pom.iterfind("m:dependencies/m:dependency", NS)
    }
    assert deps["kafka_2.13"] == "4.3.1"
    assert deps["kafka-tools"] == "4.3.1"
    # The broker logs only with an slf4j 1.x binding for log4j2 on the classpath.
    assert deps["log4j-slf4j-impl"] == config.LOG4J_VERSION
    assert pom.find("m:packaging", NS).text == "pom"


@pytest.mark.parametrize(
    ("jar", "name"),
    [
        ("kafka-clients-3.9.0.jar", "kafka-clients"),
        ("spark-sql-kafka-0-10_2.13-4.0.0.jar", "spark-sql-kafka-0-10_2.13"),
        ("scala-parallel-collections_2.13-1.2.0.jar", "scala-parallel-collections_2.13"),
        ("zstd-jni-1.5.6-9.jar", "zstd-jni"),
        ("javassist-3.30.2-GA.jar", "javassist"),
        ("commons-pool2-2.12.0.jar", "commons-pool2"),
    ],
)
def test_artifact_name(jar, name):
    assert jars.artifact_name(jar) == name


def test_spark_kafka_jars_empty_until_fetched(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "CACHE_DIR", tmp_path)
    out = jars.spark_kafka_dir()
    out.mkdir(parents=True)
    (out / "a-1.0.jar").write_bytes(b"")
    assert jars.spark_kafka_jars() == []  # no stamp: a half-finished fetch does not count
    (out / jars.STAMP).write_text("{}")
    assert jars.spark_kafka_jars() == [out / "a-1.0.jar"]
