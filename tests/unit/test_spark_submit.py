"""spark-submit command building and masking, Kafka options, driver-log parsing."""

from __future__ import annotations

from pathlib import Path

from sparkjobs import spark_submit as ss
from sparkjobs.kafka_options import from_librdkafka, masked


def test_the_command_is_a_list_with_the_jars_ui_port_and_spec():
    cmd = ss.build_command(
        script=Path("/app/jobs/topic_export.py"),
        spec_path=Path("/work/7/spec.json"),
        master="local[2]",
        jars=[Path("/jars/a.jar"), Path("/jars/b.jar")],
        ui_port=4321,
        app_name="kafka-console job 7 topic-export",
        conf={"spark.executor.memory": "2g"},
        home=Path("/spark"),
    )
    assert cmd[:5] == ["/spark/bin/spark-submit", "--master", "local[2]", "--name", cmd[4]]
    assert cmd[cmd.index("--jars") + 1] == "/jars/a.jar,/jars/b.jar"
    confs = [cmd[i + 1] for i, arg in enumerate(cmd) if arg == "--conf"]
    assert "spark.ui.port=4321" in confs
    assert "spark.ui.showConsoleProgress=false" in confs
    assert "spark.executor.memory=2g" in confs
    assert cmd[-2:] == ["/app/jobs/topic_export.py", "/work/7/spec.json"]


def test_mask_hides_secret_conf_values_only():
    cmd = ["spark-submit", "--conf", "spark.ssl.keyPassword=hunter2", "--conf", "spark.a=b"]
    cmd += ["--conf", "spark.kafka.sasl.jaas.config=x password=y", "job.py"]
    shown = " ".join(ss.mask(cmd))
    assert "hunter2" not in shown and "password=y" not in shown
    assert "spark.a=b" in shown and "job.py" in shown


def test_sasl_ssl_becomes_java_client_options_with_secrets_masked():
    conf = {
        "bootstrap.servers": "h:9094",
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "console",
        "sasl.password": 'p"w\\',
        "ssl.ca.location": "/tls/ca.pem",
        "ssl.endpoint.identification.algorithm": "none",
        "socket.connection.setup.timeout.ms": 5000,  # librdkafka only: dropped
    }
    opts = from_librdkafka(conf)
    assert opts["kafka.bootstrap.servers"] == "h:9094"
    assert opts["kafka.security.protocol"] == "SASL_SSL"
    assert opts["kafka.sasl.mechanism"] == "SCRAM-SHA-512"
    assert opts["kafka.sasl.jaas.config"] == (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        'username="console" password="p\\"w\\\\";'
    )
    assert opts["kafka.ssl.truststore.type"] == "PEM"
    assert opts["kafka.ssl.truststore.location"] == "/tls/ca.pem"
    assert opts["kafka.ssl.endpoint.identification.algorithm"] == ""
    assert not any("socket" in k for k in opts)
    assert 'p"w' not in str(masked(opts))


def test_client_certificates_are_inlined_pem():
    conf = {
        "bootstrap.servers": "h:9093",
        "security.protocol": "SSL",
        "ssl.certificate.location": "/c.pem",
        "ssl.key.location": "/k.pem",
        "ssl.key.password": "kp",
    }
    opts = from_librdkafka(conf, read=lambda path: f"PEM of {path}")
    assert opts["kafka.ssl.keystore.type"] == "PEM"
    assert opts["kafka.ssl.keystore.certificate.chain"] == "PEM of /c.pem"
    assert opts["kafka.ssl.keystore.key"] == "PEM of /k.pem"
    assert masked(opts)["kafka.ssl.key.password"] == "******"


def test_application_id_and_ui_from_driver_lines():
    marker = "KAFKA_CONSOLE_SPARK_APP app_id=local-1795382865828 ui=http://10.0.0.2:4041"
    assert ss.parse_app_id(marker) == "local-1795382865828"
    assert ss.parse_ui_url(marker) == "http://10.0.0.2:4041"
    standalone = (
        "26/11/22 21:27:45 INFO StandaloneSchedulerBackend: Connected to Spark cluster with "
        "app ID app-20261122212745-0003"
    )
    assert ss.parse_app_id(standalone) == "app-20261122212745-0003"
    yarn = "26/11/22 INFO Client: Submitted application application_1700000000000_0042"
    assert ss.parse_app_id(yarn) == "application_1700000000000_0042"
    bound = (
        "26/11/22 21:27:45 INFO SparkUI: Bound SparkUI to 0.0.0.0, and started at http://vm:4040"
    )
    assert ss.parse_ui_url(bound) == "http://vm:4040"
    assert (
        ss.parse_app_id("26/11/22 21:27:45 INFO SparkContext: Running Spark version 4.0.5") is None
    )


def test_the_error_is_the_last_python_exception_line():
    lines = [
        "26/11/22 INFO SparkContext: Running Spark version 4.0.5\n",
        "Traceback (most recent call last):\n",
        '  File "/app/jobs/topic_export.py", line 40, in main\n',
        "    records.write.parquet(path)\n",
        "pyspark.errors.exceptions.captured.AnalysisException: [PATH_ALREADY_EXISTS] Path "
        "file:/out/x already exists.\n",
        "26/11/22 INFO SparkContext: Successfully stopped SparkContext\n",
    ]
    assert ss.parse_error(lines) == (
        "AnalysisException: [PATH_ALREADY_EXISTS] Path file:/out/x already exists."
    )
    jvm = ['Exception in thread "main" java.lang.ClassNotFoundException: kafka.DefaultSource\n']
    # Java classes are named without their package, as Python's are (job_errors).
    assert ss.parse_error(jvm) == "ClassNotFoundException: kafka.DefaultSource"
    assert ss.parse_error(["26/11/22 WARN Utils: slow\n"]) is None


def test_progress_from_stages():
    stages = [
        {"status": "COMPLETE", "numTasks": 4, "numCompleteTasks": 4},
        {"status": "ACTIVE", "numTasks": 4, "numCompleteTasks": 1},
        {"status": "SKIPPED", "numTasks": 200, "numCompleteTasks": 0},
    ]
    assert ss.stage_progress(stages) == 5 / 8
    assert ss.stage_progress([]) is None
    assert ss.stage_progress({"message": "no such app"}) is None
