import { describe, expect, it } from "vitest";
import { filtered, filterText, hiddenSummary, levelOf, recordLevel, type LogLevel } from "./logLines";

// The cases of tests/unit/test_log_lines.py (sparkjobs/log_lines.py has the same rule).

const WARN_LINE =
  "26/11/25 16:06:48 WARN NativeCodeLoader: Unable to load native-hadoop library for your platform... using builtin-java classes where applicable";

/** A failed driver's log, shortened from tests/unit/spark_logs/task_failure_driver.log. */
const DRIVER = [
  "WARNING: Using incubator modules: jdk.incubator.vector",
  "26/11/25 16:06:47 INFO SparkContext: Running Spark version 4.0.0",
  "26/11/25 16:06:47 INFO SparkContext: Java version 17.0.13",
  WARN_LINE,
  "26/11/25 16:06:48 INFO ResourceUtils: ==============================================================",
  "26/11/25 16:06:49 INFO Utils: Successfully started service 'SparkUI' on port 40231.",
  "KAFKA_CONSOLE_SPARK_APP app_id=local-1795400809120 ui=http://192.0.2.2:40231",
  "26/11/25 16:06:52 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)",
  "java.lang.reflect.InvocationTargetException",
  "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
  "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
  "\tat java.base/java.util.UUID.fromString1(UUID.java:280)",
  "\t... 28 more",
  "26/11/25 16:06:52 ERROR TaskSetManager: Task 0 in stage 0.0 failed 1 times; aborting job",
  "26/11/25 16:06:52 INFO DAGScheduler: ResultStage 0 (collectToPython at NativeMethodAccessorImpl.java:0) failed in 0.412 s due to Job aborted due to stage failure: Task 0 in stage 0.0 failed 1 times, most recent failure: Lost task 0.0 in stage 0.0 (TID 0) (192.0.2.2 executor driver): java.lang.reflect.InvocationTargetException",
  "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
  "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
  "\t... 28 more",
  "",
  "Driver stacktrace:",
  "26/11/25 16:06:52 INFO DAGScheduler: Job 0 failed: collectToPython at NativeMethodAccessorImpl.java:0, took 0.453117 s",
  "Traceback (most recent call last):",
  '  File "/opt/console/sparkjobs/jobs/common.py", line 73, in run',
  '    write_json(spec["result_path"], main(spark, spec))',
  "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
  ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 0.0 failed 1 times, most recent failure: Lost task 0.0 in stage 0.0 (TID 0) (192.0.2.2 executor driver): java.lang.reflect.InvocationTargetException",
  "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
  "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
  "\t... 28 more",
  "",
  "Driver stacktrace:",
  "\tat org.apache.spark.scheduler.DAGScheduler.$anonfun$abortStage$3(DAGScheduler.scala:2935)",
  "",
  "26/11/25 16:06:53 INFO SparkContext: Successfully stopped SparkContext",
  "26/11/25 16:06:53 INFO ShutdownHookManager: Shutdown hook called",
];

describe("recordLevel / levelOf: a line's own level", () => {
  it.each<[string, LogLevel | null]>([
    ["26/11/25 16:06:49 WARN Utils: Your hostname resolves to a loopback address", "WARN"],
    ["26/11/25 16:06:47 INFO SparkContext: Running Spark version 4.0.0", "INFO"],
    ["26/11/25 16:06:47 DEBUG Shell: setsid exited with exit code 0", "DEBUG"],
    ["26/11/25 16:06:47 TRACE HeartbeatReceiver: Checking for hosts", "TRACE"],
    ["26/11/25 16:06:52 ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)", "ERROR"],
    ["26/11/25 16:06:52 FATAL SparkUncaughtExceptionHandler: Uncaught", "FATAL"],
    ["2026-11-25 16:06:49,123 ERROR MicroBatchExecution: Query failed", "ERROR"],
    ["2026-11-25T16:06:49.123Z INFO Executor: Finished task 0.0", "INFO"],
    ["2026-11-25 16:06:49,123 [main] WARN org.apache.kafka.clients.NetworkClient: x", "WARN"],
    ["2026-11-25 16:06:49 WARNING py4j.clientserver: Closing down clientserver", "WARN"],
    // Not log lines: the program's output.
    ["Traceback (most recent call last):", null],
    ["KAFKA_CONSOLE_SPARK_APP app_id=local-1795400809120 ui=http://192.0.2.2:40231", null],
    ['Setting default log level to "WARN".', null],
    ["WARNING: Using incubator modules: jdk.incubator.vector", null],
    ["INFO stage 3 done", null],
    ["26/11/25 16:06:49 INFORMATION: not a level", null],
    ["java.lang.reflect.InvocationTargetException", null],
  ])("%s -> %s", (line, level) => {
    expect(recordLevel(line)).toBe(level);
    expect(levelOf([line])).toEqual([level]);
  });
});

describe("levelOf: a continuation line has the level of the line it continues", () => {
  const continuations = [
    "\tat java.base/java.util.UUID.fromString(UUID.java:258)",
    "at java.base/java.util.UUID.fromString(UUID.java:258)",
    "Caused by: java.lang.IllegalArgumentException: Invalid UUID string: not-a-uuid",
    "\t... 28 more",
    "... 28 more",
    "\t... 12 common frames omitted",
    "    with consumer group spark-kafka-relation-0b6e2c1f-executor.",
    "",
    "Driver stacktrace:",
  ];
  const aboves: [string, LogLevel | null][] = [
    ["26/11/25 16:06:52 INFO DAGScheduler: ResultStage 0 failed in 0.412 s", "INFO"],
    ["26/11/25 16:06:52 WARN TaskSetManager: Lost task 0.0 in stage 0.0 (TID 0)", "WARN"],
    ["py4j.protocol.Py4JJavaError: An error occurred while calling o39.x.", null],
  ];
  const cases = continuations.flatMap((continuation) => aboves.map(([above, level]) => [continuation, above, level] as const));

  it.each(cases)("%j under %s", (continuation, above, level) => {
    const after = "26/11/25 16:06:53 INFO SparkUI: Stopped Spark web UI";
    expect(levelOf([above, continuation, continuation, after])).toEqual([level, level, level, "INFO"]);
  });

  it("ends at a line of output", () => {
    expect(
      levelOf([
        "26/11/25 16:06:52 INFO DAGScheduler: Job 0 failed: collectToPython, took 0.453117 s",
        "Traceback (most recent call last):",
        '  File "/opt/console/sparkjobs/jobs/common.py", line 73, in run',
        "py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.",
        "\tat py4j.Gateway.invoke(Gateway.java:282)",
      ]),
    ).toEqual(["INFO", null, null, null, null]);
  });
});

describe("filtered", () => {
  it("drops the INFO lines and what continues them, keeps warnings, errors and the output", () => {
    const levels = levelOf(DRIVER);
    const shown = filtered(DRIVER, "warn");
    expect(levels.filter((l) => l === "INFO")).toHaveLength(13);
    expect(shown).toHaveLength(DRIVER.length - 13);
    expect(shown).toEqual(DRIVER.filter((_, i) => levels[i] !== "INFO"));
    expect(shown.filter((line) => recordLevel(line) === "INFO")).toEqual([]);
    expect(shown).toContain(WARN_LINE);
    expect(shown.slice(0, 2)).toEqual(["WARNING: Using incubator modules: jdk.incubator.vector", WARN_LINE]);
    expect(shown).toContain("py4j.protocol.Py4JJavaError: An error occurred while calling o39.collectToPython.");
    // Of the two `Driver stacktrace:` lines, the one under the INFO line is dropped.
    expect(DRIVER.filter((line) => line === "Driver stacktrace:")).toHaveLength(2);
    expect(shown.filter((line) => line === "Driver stacktrace:")).toHaveLength(1);
    expect(filtered(DRIVER, "all")).toEqual(DRIVER);
  });

  it.each<[LogLevel, boolean]>([
    ["TRACE", false],
    ["DEBUG", false],
    ["INFO", false],
    ["WARN", true],
    ["ERROR", true],
    ["FATAL", true],
  ])("a %s line with its frames is kept: %s", (level, kept) => {
    const lines = ["before", `26/11/25 16:06:52 ${level} Foo: bar`, "\tat a.B.c(B.java:1)", "\t... 3 more", "after"];
    expect(filtered(lines, "warn")).toEqual(kept ? lines : ["before", "after"]);
    expect(filtered(lines, "all")).toEqual(lines);
  });
});

describe("filterText: the live tail", () => {
  const text = DRIVER.join("\n") + "\n";

  it("keeps the kept lines' text and counts what it hides by level", () => {
    const shown = filterText(text, "warn");
    expect(shown.text).toBe(filtered(DRIVER, "warn").join("\n") + "\n");
    expect(shown.hidden).toEqual({ INFO: 13 });
    expect(filterText(text, "all")).toEqual({ text, hidden: {} });
  });

  it("keeps an unfinished last line as it is, and CRLF line ends", () => {
    expect(filterText("26/11/25 16:06:52 INFO A: x\nprinted", "warn")).toEqual({ text: "printed", hidden: { INFO: 1 } });
    expect(filterText("printed\n26/11/25 16:06:52 DEBUG A: x", "warn")).toEqual({ text: "printed\n", hidden: { DEBUG: 1 } });
    expect(filterText("26/11/25 16:06:52 INFO A: x\r\n\tat a.B(B.java:1)\r\nout\r\n", "warn")).toEqual({
      text: "out\r\n",
      hidden: { INFO: 2 },
    });
    expect(filterText("", "warn")).toEqual({ text: "", hidden: {} });
  });
});

describe("hiddenSummary", () => {
  it.each<[Partial<Record<LogLevel, number>>, string]>([
    [{}, ""],
    [{ INFO: 312 }, "312 INFO lines hidden"],
    [{ INFO: 1 }, "1 INFO line hidden"],
    [{ INFO: 300, DEBUG: 12 }, "300 INFO and 12 DEBUG lines hidden"],
    [{ TRACE: 2, DEBUG: 12, INFO: 300 }, "300 INFO, 12 DEBUG and 2 TRACE lines hidden"],
    [{ DEBUG: 0, INFO: 4 }, "4 INFO lines hidden"],
  ])("%j -> %s", (hidden, summary) => {
    expect(hiddenSummary(hidden)).toBe(summary);
  });
});
