"""A failed Spark job's error names its root cause (sparkjobs/jobs/job_errors.py), not py4j's
"An error occurred while calling o91.collectToPython.", and each Kafka read's choice on data
lost mid-read (failOnDataLoss) is explicit and documented.

The texts in tests/unit/spark_logs/ are what Spark 4.0.5 and py4j print:
- task_failure_exception.txt, python_udf_traceback.log, analysis_traceback.log: captured from
  a local pyspark 4.0.5 session (a task whose expression throws in the JVM, a Python UDF that
  raises, an unknown column), paths shortened;
- kafka_data_loss_driver.log: a topic-profile driver log whose read lost records to retention,
  composed from those captures and from spark-sql-kafka 4.0.0 itself: the exception chain is
  the one `KafkaExceptions.couldNotReadOffsetRange` builds (KAFKA_DATA_LOSS, caused by the
  consumer's OffsetOutOfRangeException), the frames carry the jar's line numbers.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from maintenance.jobs import JOBS_DIR as PM_JOBS_DIR
from sparkjobs import runner
from sparkjobs import spark_submit as ss
from sparkjobs.catalog import JOB_TYPES
from sparkjobs.job_types import JOBS_DIR
from sparkjobs.jobs import job_errors
from tests.stack import ROOT

LOGS = Path(__file__).parent / "spark_logs"
DATA_LOSS = (
    "OffsetOutOfRangeException: Offsets out of range with no configured reset policy for "
    "partitions: {orders-0=1200} (data may have been lost: Could not read records in offset "
    "[1200, 5000) for topic partition orders-0) — while calling o91.collectToPython"
)
LOG_LINE = re.compile(r"^\d{2}/\d{2}/\d{2} ")


def _log(name: str) -> list[str]:
    return (LOGS / name).read_text().splitlines(keepends=True)


def _py4j_text(lines: list[str]) -> str:
    """The text of the Py4JJavaError in a driver log: what `str(exc)` gives on the driver."""
    start = next(i for i, x in enumerate(lines) if x.startswith("py4j.protocol.Py4JJavaError: "))
    end = next(i for i in range(start, len(lines)) if LOG_LINE.match(lines[i]))
    return "".join(lines[start:end]).split(": ", 1)[1].rstrip("\n")


class Py4JJavaError(Exception):
    """Stands for py4j.protocol.Py4JJavaError: its text is py4j's, Java trace included."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def __str__(self) -> str:
        return self.text


# --- the root cause ------------------------------------------------------------------------------


def test_a_read_that_lost_records_to_retention_names_the_kafka_cause():
    """The incident: the job's error was only py4j's wrapper line."""
    assert ss.parse_error(_log("kafka_data_loss_driver.log")) == DATA_LOSS
    assert job_errors.describe(Py4JJavaError(_py4j_text(_log("kafka_data_loss_driver.log")))) == (
        DATA_LOSS
    )


def test_the_innermost_caused_by_of_a_task_failure():
    text = (LOGS / "task_failure_exception.txt").read_text()
    assert text.count("Caused by:") == 3  # the task's cause, then the chain under the driver's
    assert job_errors.summarize(text) == (
        "IllegalArgumentException: Invalid UUID string: not-a-uuid — while calling "
        "o39.collectToPython"
    )


def test_a_python_udf_error_is_named_by_the_worker_s_exception():
    # PythonException's own line is empty; the UDF's traceback is inside its message.
    assert ss.parse_error(_log("python_udf_traceback.log")) == (
        "ValueError: bad sequence field in record 0"
    )


def test_a_python_exception_keeps_its_first_line_without_the_query_plan():
    assert ss.parse_error(_log("analysis_traceback.log")) == (
        "AnalysisException: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function "
        "parameter with name `nope` cannot be resolved. Did you mean one of the following? "
        "[`id`]. SQLSTATE: 42703;"
    )


def test_data_loss_without_a_cause_gives_its_reason():
    # KafkaDataConsumer.fetchRecord: the records aged out after the offsets were checked, and
    # couldNotReadOffsetRange has no consumer exception to carry.
    text = "\n".join(
        [
            "An error occurred while calling o52.save.",
            ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 1 in stage "
            "2.0 failed 4 times, most recent failure: Lost task 1.3 in stage 2.0 (TID 9) "
            "(10.0.0.7 executor 1): org.apache.spark.sql.kafka010.KafkaIllegalStateException: "
            "Some data may have been lost because they are not available in Kafka any more;",
            "either the data was aged out by Kafka or the topic may have been deleted before all "
            "the data in the",
            "topic was processed.",
            "If you don't want your streaming query to fail on such cases, set the source option "
            "failOnDataLoss to false.",
            "Reason: Could not read records in offset [40, 90) for topic partition events-3",
            "with consumer group spark-kafka-relation-7d1e-executor.",
            "\tat org.apache.spark.sql.kafka010.KafkaExceptions$.couldNotReadOffsetRange("
            "KafkaExceptions.scala:94)",
            "",
            "Driver stacktrace:",
            "\tat org.apache.spark.scheduler.DAGScheduler.abortStage(DAGScheduler.scala:2927)",
        ]
    )
    assert job_errors.describe(Py4JJavaError(text)) == (
        "KafkaIllegalStateException: Could not read records in offset [40, 90) for topic "
        "partition events-3 (data may have been lost) — while calling o52.save"
    )


def test_the_error_is_bounded_and_keeps_the_call():
    text = (
        "An error occurred while calling o7.save.\n"
        ": org.apache.spark.SparkException: Job aborted\n"
        "\tat org.apache.spark.scheduler.DAGScheduler.abortStage(DAGScheduler.scala:2927)\n"
        f"Caused by: java.lang.IllegalStateException: {'x' * 5000}\n"
        "\tat a.B.c(B.java:1)\n"
    )
    error = job_errors.describe(Py4JJavaError(text))
    assert len(error) == job_errors.MAX_CHARS
    assert error.startswith("IllegalStateException: xxx")
    assert error.endswith("… — while calling o7.save")


def test_text_without_an_exception_line_is_its_first_line():
    assert job_errors.summarize("\nstep failure-labels: the step failed\nmore") == (
        "step failure-labels: the step failed"
    )
    assert job_errors.summarize("  \n") is None
    # py4j cannot give the Java text once the JVM is gone: the wrapper only, marked as such.
    dead = job_errors.describe(Py4JJavaError("An error occurred while calling o9.count."))
    assert dead == "Py4JJavaError: An error occurred while calling o9.count."
    assert job_errors.names_no_cause(dead) and not job_errors.names_no_cause(DATA_LOSS)


# --- where the error is made: the script, the pipeline's steps, the runner ------------------------


@pytest.fixture
def driver_modules(monkeypatch):
    """common.py and the pipeline as the Spark driver imports them (--py-files, own dir)."""
    monkeypatch.syspath_prepend(str(JOBS_DIR))
    monkeypatch.syspath_prepend(str(PM_JOBS_DIR))
    return importlib.import_module("common"), importlib.import_module("maintenance_pipeline")


def test_the_script_writes_the_root_cause_as_the_job_s_error(driver_modules, monkeypatch, tmp_path):
    common, _ = driver_modules
    spark = SimpleNamespace(
        sparkContext=SimpleNamespace(applicationId="local-1", uiWebUrl=None), stop=lambda: None
    )
    builder = SimpleNamespace()
    builder.appName = builder.config = lambda *a: builder
    builder.getOrCreate = lambda: spark
    monkeypatch.setattr(common, "SparkSession", SimpleNamespace(builder=builder))
    spec = {
        "job_id": 7,
        "job_type": "topic-profile",
        "result_path": str(tmp_path / "result.json"),
        "error_path": str(tmp_path / "error.txt"),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    monkeypatch.setattr(sys, "argv", ["topic_profile.py", str(tmp_path / "spec.json")])
    failure = Py4JJavaError(_py4j_text(_log("kafka_data_loss_driver.log")))

    def main(spark, spec):
        raise failure

    with pytest.raises(Py4JJavaError):
        common.run(main)
    assert (tmp_path / "error.txt").read_text() == DATA_LOSS


def test_a_pipeline_step_names_the_root_cause(driver_modules):
    _, pipeline = driver_modules
    failure = Py4JJavaError(_py4j_text(_log("kafka_data_loss_driver.log")))
    assert pipeline.first_line(failure) == DATA_LOSS


def test_the_runner_reads_the_driver_log_when_the_script_wrote_no_cause(tmp_path):
    log = _log("kafka_data_loss_driver.log")
    # Longer than the tail kept in memory: the trace is read from driver.log itself.
    (tmp_path / "driver.log").write_text("".join(log + ["26/11/25 13:41:04 INFO x: y\n"] * 500))
    out = runner.DriverOutput()
    assert runner._error_of(tmp_path, out, 1) == DATA_LOSS
    (tmp_path / "error.txt").write_text("Py4JJavaError: An error occurred while calling o91.x.")
    assert runner._error_of(tmp_path, out, 1) == DATA_LOSS
    (tmp_path / "error.txt").write_text("ValueError: params.top_duplicates: too many")
    assert runner._error_of(tmp_path, out, 1) == "ValueError: params.top_duplicates: too many"
    (tmp_path / "driver.log").write_text("26/11/25 13:41:04 INFO x: y\n")
    (tmp_path / "error.txt").unlink()
    assert runner._error_of(tmp_path, out, 3) == (
        "spark-submit exited with status 3; see the driver log."
    )


def test_the_driver_gets_the_error_module_with_common():
    cmd = ss.build_command(
        script=Path("/app/jobs/topic_export.py"),
        spec_path=Path("/work/7/spec.json"),
        master="local[2]",
        jars=[],
        ui_port=4321,
        app_name="kafka-console job 7 topic-export",
        home=Path("/spark"),
    )
    shipped = cmd[cmd.index("--py-files") + 1].split(",")
    assert [Path(p).name for p in shipped] == ["common.py", "job_errors.py"]
    assert all(Path(p).is_file() for p in shipped)
    # Standard library only: it runs in the console and on the driver alike.
    tree = ast.parse((JOBS_DIR / "job_errors.py").read_text())
    imported = {
        (n.module if isinstance(n, ast.ImportFrom) else a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


# --- records lost mid-read: one explicit choice per Kafka read, documented per job type ----------


def _kafka_reads() -> list[tuple[str, dict[str, str]]]:
    """Every `<x>.read.format("kafka")` chain in the job scripts, with its literal options."""
    reads = []
    for path in sorted([*JOBS_DIR.glob("*.py"), *PM_JOBS_DIR.glob("*.py")]):
        tree = ast.parse(path.read_text())
        parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "format"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "read"
                and [getattr(a, "value", None) for a in node.args] == ["kafka"]
            ):
                continue
            options: dict[str, str] = {}
            up: ast.AST = node
            while isinstance(parent := parents.get(id(up)), ast.Attribute | ast.Call):
                if isinstance(parent, ast.Call) and getattr(parent.func, "attr", "") == "option":
                    key, value = (getattr(a, "value", None) for a in parent.args)
                    options[str(key)] = str(value)
                up = parent
            reads.append((path.name, options))
    return reads


def test_every_kafka_read_fails_on_data_loss_explicitly():
    reads = _kafka_reads()
    assert {name for name, _ in reads} == {"common.py", "lag_report.py", "pm_features.py"}
    assert all(options.get("failOnDataLoss") == "true" for _, options in reads), reads


def test_the_docs_give_every_job_type_s_choice():
    text = (ROOT / "docs" / "spark-jobs.md").read_text()
    section = text[text.index("## Records lost while a job reads") :]
    rows = {
        m[1]: m[2] for m in re.finditer(r"^\| `([a-z-]+)` \| [^|]+ \| ([^|]+) \|", section, re.M)
    }
    assert set(rows) == set(JOB_TYPES)
    assert {v.split(":")[0].strip() for v in rows.values()} <= {"fails naming the cause", "—"}
