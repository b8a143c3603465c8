"""A driver log's levels, its filter and the lines that explain a failure
(sparkjobs/log_lines.py), over the driver logs of tests/unit/spark_logs/:

- task_failure_driver.log: a failed topic-profile driver as Spark 4.0.5 logs it (INFO chatter,
  a WARN, the executor's ERROR with its Java trace, the failed stage's INFO line with the
  task's trace under it, then the Python traceback with py4j's Py4JJavaError report: a
  `Caused by:` chain and its frames), composed from the captured report of
  task_failure_exception.txt;
- kafka_data_loss_driver.log, python_udf_traceback.log, analysis_traceback.log: see
  test_spark_errors.py.

frontend/src/lib/logLines.test.ts checks the SPA's copy of the level rule with the same cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sparkjobs import log_lines
from sparkjobs.jobs import job_errors

LOGS = Path(__file__).parent / "spark_logs"


def _log(name: str) -> list[str]:
    return (LOGS / name).read_text().splitlines(keepends=True)


DRIVER = _log("task_failure_driver.log")
WARN_LINE = (
    "26/11/25 16:06:48 WARN NativeCodeLoader: Unable to load native-hadoop library for your "
    "platform... using builtin-java classes where applicable\n"
)
PY4J_REPORT = [
    "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
    ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 0.0 "
    "failed 1 times, most recent failure: Lost task 0.0 in stage 0.0 (TID 0) (192.0.2.2 executor "
    "driver): java.lang.reflect.InvocationTargetException",
    "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
    "Caused by: java.lang.reflect.InvocationTargetException",
]
DRIVER_FAILURE = [
    "26/11/25 16:06:52 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)",
    "26/11/25 16:06:52 ERROR TaskSetManager: Task 0 in stage 0.0 failed 1 times; aborting job",
    *PY4J_REPORT,
]


# --- levels --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("26/11/25 16:06:49 WARN Utils: Your hostname resolves to a loopback address", "WARN"),
        ("26/11/25 16:06:47 INFO SparkContext: Running Spark version 4.0.0", "INFO"),
        ("26/11/25 16:06:47 DEBUG Shell: setsid exited with exit code 0", "DEBUG"),
        ("26/11/25 16:06:47 TRACE HeartbeatReceiver: Checking for hosts", "TRACE"),
        ("26/11/25 16:06:52 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)", "ERROR"),
        ("26/11/25 16:06:52 FATAL SparkUncaughtExceptionHandler: Uncaught", "FATAL"),
        ("2026-11-25 16:06:49,123 ERROR MicroBatchExecution: Query failed", "ERROR"),
        ("2026-11-25T16:06:49.123Z INFO Executor: Finished task 0.0", "INFO"),
        ("2026-11-25 16:06:49,123 [main] WARN org.apache.kafka.clients.NetworkClient: x", "WARN"),
        ("2026-11-25 16:06:49 WARNING py4j.clientserver: Closing down clientserver", "WARN"),
        # Not log lines: the program's output.
        ("Traceback (most recent call last):", None),
        ("KAFKA_CONSOLE_SPARK_APP app_id=local-1795400809120 ui=http://192.0.2.2:40231", None),
        ('Setting default log level to "WARN".', None),
        ("WARNING: Using incubator modules: jdk.incubator.vector", None),
        ("INFO stage 3 done", None),  # no time stamp
        ("26/11/25 16:06:49 INFORMATION: not a level", None),
        ("java.lang.reflect.InvocationTargetException", None),
    ],
)
def test_a_line_s_own_level(line, level):
    assert log_lines.level_of([line]) == [level]
    assert log_lines.level_of([line + "\n"]) == [level]  # with its line end


@pytest.mark.parametrize(
    "continuation",
    [
        "\tat java.base/java.util.UUID.fromString(UUID.java:258)",
        "at java.base/java.util.UUID.fromString(UUID.java:258)",
        "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
        "\t... 28 more",
        "... 28 more",
        "\t... 12 common frames omitted",
        "    with consumer group spark-kafka-relation-0b6e2c1f-executor.",
        "",
        "Driver stacktrace:",
    ],
)
@pytest.mark.parametrize(
    ("above", "level"),
    [
        ("26/11/25 16:06:52 INFO DAGScheduler: ResultStage 0 failed in 0.412 s", "INFO"),
        ("26/11/25 16:06:52 WARN TaskSetManager: Lost task 0.0 in stage 0.0 (TID 0)", "WARN"),
        ("py4j.protocol.Py4JJavaError: An error occurred while calling o39.x.", None),
    ],
)
def test_a_continuation_line_has_the_level_of_the_line_it_continues(continuation, above, level):
    after = "26/11/25 16:06:53 INFO SparkUI: Stopped Spark web UI"
    assert log_lines.level_of([above, continuation, continuation, after]) == [
        level,
        level,
        level,
        "INFO",
    ]


def test_output_after_a_log_line_is_output():
    lines = [
        "26/11/25 16:06:52 INFO DAGScheduler: Job 0 failed: collectToPython, took 0.453117 s",
        "Traceback (most recent call last):",
        '  File "/opt/console/sparkjobs/jobs/common.py", line 73, in run',
        "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
        "\tat py4j.Gateway.invoke(Gateway.java:282)",
    ]
    assert log_lines.level_of(lines) == ["INFO", None, None, None, None]


def test_the_levels_of_a_failed_driver_s_log():
    levels = log_lines.level_of(DRIVER)
    assert len(levels) == len(DRIVER)
    at = {line: level for line, level in zip(DRIVER, levels, strict=True)}
    assert at[WARN_LINE] == "WARN"
    assert (
        at["KAFKA_CONSOLE_SPARK_APP app_id=local-1795400809120 ui=http://192.0.2.2:40231\n"] is None
    )
    assert at["Traceback (most recent call last):\n"] is None
    assert at[PY4J_REPORT[0] + "\n"] is None
    # The failed stage's INFO line carries the task's trace: its frames, `Caused by:`, the
    # blank line and `Driver stacktrace:` are INFO too.
    stage = next(i for i, x in enumerate(DRIVER) if "failed in 0.412 s" in x)
    end = DRIVER.index("Driver stacktrace:\n", stage)
    assert end - stage == 34 and DRIVER[end - 1] == "\n"
    assert levels[stage : end + 1] == ["INFO"] * 35
    assert DRIVER[end + 1].startswith("26/11/25 16:06:52 INFO DAGScheduler: Job 0 failed")
    assert (levels.count("WARN"), levels.count("ERROR"), levels.count("INFO")) == (35, 2, 68)


# --- the filter ----------------------------------------------------------------------------------


def test_warn_drops_the_info_lines_and_what_continues_them():
    shown = log_lines.filtered(DRIVER, "warn")
    levels = log_lines.level_of(DRIVER)
    assert len(DRIVER) - len(shown) == levels.count("INFO") == 68
    assert not [x for x in shown if log_lines.record_level(x) == "INFO"]
    # In log order, each line once.
    assert shown == [x for x, level in zip(DRIVER, levels, strict=True) if level != "INFO"]
    assert WARN_LINE in shown
    assert all(x + "\n" in shown for x in DRIVER_FAILURE)
    assert "Traceback (most recent call last):\n" in shown
    assert shown[:2] == [
        "WARNING: Using incubator modules: jdk.incubator.vector\n",
        "Using Spark's default log4j profile: org/apache/spark/log4j2-defaults.properties\n",
    ]
    # Of the two `Driver stacktrace:` lines, the one under the INFO line is dropped.
    assert DRIVER.count("Driver stacktrace:\n") == 2
    assert shown.count("Driver stacktrace:\n") == 1


@pytest.mark.parametrize(
    ("level", "kept"),
    [
        ("TRACE", False),
        ("DEBUG", False),
        ("INFO", False),
        ("WARN", True),
        ("ERROR", True),
        ("FATAL", True),
    ],
)
def test_warn_keeps_warnings_and_errors_with_their_frames(level, kept):
    record = [f"26/11/25 16:06:52 {level} Foo: bar", "\tat a.B.c(B.java:1)", "\t... 3 more"]
    lines = ["before", *record, "after"]
    assert log_lines.filtered(lines, "warn") == (lines if kept else ["before", "after"])
    assert log_lines.filtered(lines, "all") == lines


def test_all_keeps_every_line_and_a_filter_must_be_known():
    assert log_lines.filtered(DRIVER, "all") == DRIVER
    with pytest.raises(ValueError, match="level"):
        log_lines.filtered(DRIVER, "info")


def test_the_filter_reads_lines_as_they_come():
    seen: list[str] = []

    def lines():
        for line in DRIVER:
            seen.append(line)
            yield line

    first = next(log_lines.iter_filtered(lines(), "warn"))
    assert first == DRIVER[0] and len(seen) == 1


# --- the lines that explain a failure -----------------------------------------------------------


def test_a_py4j_failure_s_lines_without_frames_in_log_order():
    lines = log_lines.failure_lines(DRIVER)
    assert lines == DRIVER_FAILURE
    assert not [x for x in lines if x.startswith(("\tat ", "\t... ", "  File "))]


def test_a_kafka_data_loss_failure():
    lines = log_lines.failure_lines(_log("kafka_data_loss_driver.log"))
    assert lines[:3] == [
        "26/11/25 13:41:02 ERROR Executor: Exception in task 0.0 in stage 3.0 (TID 3)",
        "26/11/25 13:41:02 ERROR TaskSetManager: Task 0 in stage 3.0 failed 1 times; aborting job",
        "py4j.protocol.Py4JJavaError: An error occurred while calling o91.collectToPython.",
    ]
    assert lines[3].startswith(": org.apache.spark.SparkException: Job aborted")
    # The Java message's lines follow its exception line; each `Caused by:` once.
    assert lines[4:9] == [
        "either the data was aged out by Kafka or the topic may have been deleted before all the "
        "data in the",
        "topic was processed.",
        "If you don't want your streaming query to fail on such cases, set the source option "
        "failOnDataLoss to false.",
        "Reason: Could not read records in offset [1200, 5000) for topic partition orders-0",
        "with consumer group spark-kafka-relation-0b6e2c1f-executor.",
    ]
    assert lines[9:] == [
        "Caused by: org.apache.kafka.clients.consumer.OffsetOutOfRangeException: Offsets out of "
        "range with no configured reset policy for partitions: {orders-0=1200}",
        "Caused by: org.apache.spark.sql.kafka010.KafkaIllegalStateException: Some data may have "
        "been lost because they are not available in Kafka any more;",
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "python_udf_traceback.log",
            [
                "pyspark.errors.exceptions.captured.PythonException:",
                "  An exception was thrown from the Python worker. Please see the stack trace "
                "below.",
                "ValueError: bad sequence field in record 0",
            ],
        ),
        (
            "analysis_traceback.log",
            [
                "pyspark.errors.exceptions.captured.AnalysisException: "
                "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter "
                "with name `nope` cannot be resolved. Did you mean one of the following? [`id`]. "
                "SQLSTATE: 42703;",
                "'Project ['nope]",
                "+- Range (0, 1, step=1, splits=Some(1))",
            ],
        ),
    ],
)
def test_a_python_traceback_s_exception_lines(name, expected):
    assert log_lines.failure_lines(_log(name)) == expected


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        (
            [
                "26/11/25 16:06:47 INFO SparkContext: Running Spark version 4.0.0",
                'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
                "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)",
                "26/11/25 16:06:48 INFO ShutdownHookManager: Shutdown hook called",
            ],
            ['Exception in thread "main" java.lang.OutOfMemoryError: Java heap space'],
        ),
        (
            [
                "26/11/25 16:06:48 INFO Utils: Successfully started service 'sparkDriver'",
                "26/11/25 16:06:48 ERROR SparkContext: Error initializing SparkContext.",
                "java.net.BindException: Cannot assign requested address: Service 'sparkDriver' "
                "failed after 16 retries!",
                "\tat java.base/sun.nio.ch.Net.bind0(Native Method)",
                "\t... 2 more",
            ],
            [
                "26/11/25 16:06:48 ERROR SparkContext: Error initializing SparkContext.",
                "java.net.BindException: Cannot assign requested address: Service 'sparkDriver' "
                "failed after 16 retries!",
            ],
        ),
        (
            # The same error again later: once, where it first shows.
            [
                "26/11/25 16:06:48 ERROR Inbox: Ignoring error",
                "26/11/25 16:06:49 INFO Executor: Told to re-register",
                "26/11/25 16:06:50 ERROR Inbox: Ignoring error",
                "26/11/25 16:06:51 FATAL SparkUncaughtExceptionHandler: Uncaught exception",
            ],
            [
                "26/11/25 16:06:48 ERROR Inbox: Ignoring error",
                "26/11/25 16:06:51 FATAL SparkUncaughtExceptionHandler: Uncaught exception",
            ],
        ),
        (
            # Warnings, even with an exception, are no failure.
            [
                WARN_LINE,
                "26/11/25 16:06:49 WARN NetworkClient: Connection to node 1 could not be made.",
                "java.net.ConnectException: Connection refused",
                "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)",
                "26/11/25 16:06:50 INFO SparkContext: Successfully stopped SparkContext",
            ],
            [],
        ),
        ([], []),
    ],
    ids=["jvm-main", "error-with-trace", "repeated-errors", "warnings-only", "empty"],
)
def test_failure_lines_of_other_failures(log, expected):
    assert log_lines.failure_lines(log) == expected
    assert log_lines.failure_lines([x + "\r\n" for x in log]) == expected


def test_at_most_limit_lines_the_report_s_first():
    errors = [f"26/11/25 16:06:{n:02} ERROR Worker: failure number {n}" for n in range(50)]
    log = [*errors, *DRIVER]
    lines = log_lines.failure_lines(log)
    assert len(lines) == log_lines.FAILURE_LIMIT == 40
    # All of the report, then the ERROR lines nearest the end, in log order.
    assert lines[-len(PY4J_REPORT) :] == PY4J_REPORT
    assert lines[:2] == [errors[16], errors[17]]
    assert lines[-len(PY4J_REPORT) - 2 : -len(PY4J_REPORT)] == DRIVER_FAILURE[:2]
    assert log_lines.failure_lines(log, limit=3) == PY4J_REPORT[:3]
    assert log_lines.failure_lines(log, limit=0) == []


def test_a_long_line_is_cut():
    long = "Caused by: java.lang.IllegalStateException: " + "x" * 5000
    lines = log_lines.failure_lines(["Traceback (most recent call last):", long])
    assert len(lines) == 1 and len(lines[0]) == log_lines.FAILURE_LINE_CHARS
    assert lines[0].startswith("Caused by: java.lang.IllegalStateException: xxx")
    assert lines[0].endswith("x…")


def test_the_report_is_the_one_the_job_s_error_is_read_from():
    """failure_lines and the job's error read the same report: its root cause is among them."""
    for name in ("task_failure_driver.log", "kafka_data_loss_driver.log"):
        log = _log(name)
        error = job_errors.from_log(log)
        assert error is not None
        root = error.split(":", 1)[0]
        assert any(
            line.startswith("Caused by: ") and root in line for line in log_lines.failure_lines(log)
        )
