"""A failed job's error as one bounded line naming its root cause. Pure, standard library only.

Both sides use it: the job scripts (`common.run` writes `describe(exc)` to the spec's
`error_path`; the pipeline names a failed step with it), shipped to the driver with
`--py-files` like common.py, and the console (`sparkjobs.spark_submit.parse_error`, over the
driver log when the script wrote no error; `sparkjobs.log_lines.failure_lines` shows the
exception lines of the same report, through `last_report` and `exception_lines`).

What PySpark raises hides the cause: a failed Spark job surfaces as
`Py4JJavaError: An error occurred while calling o91.collectToPython.`, and what went wrong is
in the Java stack trace that follows (py4j puts it in the exception's text):

    : org.apache.spark.SparkException: Job aborted due to stage failure: ... Lost task 0.0 in
    stage 3.0 (TID 3) (host executor driver): org.apache.spark.sql.kafka010.KafkaIllegalState...
        at ...
    Driver stacktrace:
        at ...
    Caused by: org.apache.spark.sql.kafka010.KafkaIllegalStateException: Some data may have ...
    Reason: Could not read records in offset [1200, 5000) for topic partition orders-0
    with consumer group spark-kafka-relation-...-executor.
        at ...
    Caused by: org.apache.kafka.clients.consumer.OffsetOutOfRangeException: Offsets out of ...

The rule: the root is the innermost exception, i.e. the last exception line of the report
(a Java `Caused by:` line at the start of a line, or the exception line of a Python traceback
embedded in a message, as a UDF's `PythonException` carries); its class is named without
its package, with its message (a Java message may span lines; a Python one is its first line).
When a Kafka source error in the chain says data may have been lost (Spark's
KAFKA_DATA_LOSS), its reason is added; the py4j call that failed ends the line:

    OffsetOutOfRangeException: Offsets out of range with no configured reset policy for
    partitions: {orders-0=1200} (data may have been lost: Could not read records in offset
    [1200, 5000) for topic partition orders-0) — while calling o91.collectToPython

At most MAX_CHARS characters (the message is cut, the call is kept).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

MAX_CHARS = 1000

_CLASS = (
    r"(?P<cls>(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:Exception|Error|Exit|Interrupt|Throwable))"
)
# An exception line: Java's `Caused by: x.Y: msg`, py4j's `: x.Y: msg`, the JVM's
# `Exception in thread "main" x.Y: msg`, or a bare `Y: msg` (Python, or a Java trace's head).
_HEADER = re.compile(
    r'^(?P<java>Caused by: |: |Exception in thread "[^"]*" )?'
    + _CLASS
    + r"(?::(?: ?(?P<msg>.*)))?$"
)
# The task's exception, inside Spark's "Job aborted due to stage failure" message.
_LOST_TASK = re.compile(
    r"most recent failure: Lost task .*?\): " + _CLASS + r"(?::(?: ?(?P<msg>.*)))?$"
)
_FRAME = re.compile(r"^\s+(?:at |\.\.\. \d+ (?:more|common frames omitted))")
_SUPPRESSED = re.compile(r"^\s+Suppressed: ")
_TRACEBACK = "Traceback (most recent call last):"
# Python prints a chain cause first; the report's first part holds the root.
_CHAINED = (
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
)
_CALL = re.compile(r"An error occurred while calling (?P<call>\S+?)\.?\s*$")
# A log line's time stamp, as Spark's log4j profile writes it (`26/11/22 21:27:45`) or as an
# ISO-like pattern does (`2026-11-22 21:27:45`); sparkjobs/log_lines.py reads levels after it.
LOG_STAMP = r"\d{2,4}[/-]\d{2}[/-]\d{2}[ T]\d{2}:\d{2}:\d{2}"
# Spark's log4j lines (`26/11/22 21:27:45 INFO ...`) and the scripts' marker lines: not part of
# an exception's report.
_LOG_LINE = re.compile(rf"^(?:{LOG_STAMP}|KAFKA_CONSOLE_)")
# Where Spark's message ends and the stack trace of the exception carrying it starts.
STACKTRACE_MARKERS = ("Driver stacktrace:", "JVM stacktrace:")
_STOPS = (*STACKTRACE_MARKERS, _TRACEBACK, *_CHAINED)
# Spark's Kafka source: KAFKA_DATA_LOSS (kafka-error-conditions.json in spark-sql-kafka).
_DATA_LOSS = "Some data may have been lost"
_REASON = re.compile(r"\bReason:\s*(?P<reason>.*)$")
_GROUP = re.compile(r"\s+with consumer group \S+?\.?$")


@dataclass
class _Raised:
    cls: str
    java: bool
    lines: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    @property
    def message(self) -> str:
        # A Python message's first line is the message; what follows is context (a query
        # plan after an AnalysisException). A Java message is all its lines.
        lines = self.lines if self.java else [next((x for x in self.lines if x.strip()), "")]
        return _one_line(" ".join(lines))


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _stops(line: str) -> bool:
    return (
        not line.strip()
        or bool(_FRAME.match(line) or _SUPPRESSED.match(line) or _LOG_LINE.match(line))
        or line.startswith(_STOPS)
        or _HEADER.match(line) is not None
    )


def _headers(lines: list[str]) -> Iterator[tuple[re.Match[str], int, int]]:
    """Each exception line of a report: its match, its index and the end of its message's
    lines (the lines after it up to the next frame, marker, log line or exception line)."""
    i = 0
    while i < len(lines):
        match = _HEADER.match(lines[i])
        i += 1
        if match is None:
            continue
        start = i - 1
        while i < len(lines) and not _stops(lines[i]):
            i += 1
        yield match, start, i


def exception_lines(lines: list[str]) -> list[int]:
    """The indices of a report's exception lines with their message's lines, in order: what
    names the exceptions, without stack frames, `... N more`, markers such as
    `Driver stacktrace:` or a Python traceback's `File` lines."""
    return [i for _, start, end in _headers(lines) for i in range(start, end)]


def _raised(lines: list[str]) -> list[_Raised]:
    """Every exception line of a report, outermost first, each with its message's lines."""
    out: list[_Raised] = []
    for match, start, end in _headers(lines):
        first = match["msg"] or ""
        rest = lines[start + 1 : end]
        java = bool(match["java"]) or (end < len(lines) and bool(_FRAME.match(lines[end])))
        out.append(_Raised(match["cls"], java, [first, *rest]))
        if task := _LOST_TASK.search(first):
            # The task's exception starts inside the message: its lines are the rest.
            out.append(_Raised(task["cls"], True, [task["msg"] or "", *rest]))
            out[-2].lines = [first[: task.start()]]
    return out


def bounded(text: str, tail: str = "") -> str:
    """`text` cut to MAX_CHARS characters with `tail` (kept whole) at its end, `…` where cut."""
    room = MAX_CHARS - len(tail)
    if len(text) > room:
        text = text[: room - 1].rstrip() + "…"
    return text + tail


def _data_loss(chain: list[_Raised]) -> tuple[_Raised | None, str]:
    """The chain's Kafka data-loss error, if any, and its reason (the consumer group of
    Spark's own making left out)."""
    for raised in chain:
        message = raised.message
        if _DATA_LOSS in message:
            reason = _REASON.search(message)
            return raised, _GROUP.sub("", reason["reason"]).rstrip(".") if reason else ""
    return None, ""


def summarize(text: str) -> str | None:
    """The root cause of one exception's report (its text, a Python traceback, a Java stack
    trace) as one line of at most MAX_CHARS; None for empty text. Text without an exception
    line is returned as its first line."""
    lines = text.replace("\r\n", "\n").split("\n")
    for marker in _CHAINED:
        if marker in lines:
            lines = lines[: lines.index(marker)]
    chain = _raised(lines)
    if not chain:
        first = next((x.strip() for x in lines if x.strip()), "")
        return bounded(first) if first else None
    root = chain[-1]
    message = root.message
    loss, reason = _data_loss(chain)
    note = ""
    if loss is root:
        message, note = reason or message, " (data may have been lost)"
    elif loss is not None:
        note = f" (data may have been lost: {reason})" if reason else " (data may have been lost)"
    head = f"{root.name}: {message}" if message else root.name
    call = next((m["call"] for x in lines if (m := _CALL.search(x))), None)
    tail = f" — while calling {call}" if call and call not in head else ""
    return bounded(head + note, tail)


def describe(exc: BaseException) -> str:
    """The job's error for an exception a script raised (its text holds py4j's Java trace)."""
    try:
        text = str(exc)
    except Exception:  # py4j asks the JVM for the text; a dead JVM cannot answer
        text = ""
    return summarize(f"{type(exc).__name__}: {text}") or type(exc).__name__


def names_no_cause(error: str) -> bool:
    """Whether an error names py4j's wrapper rather than a cause (the Java text was not
    read): the driver log may show more."""
    return error.split(":", 1)[0].strip() in ("Py4JJavaError", "Py4JError")


def _report_start(lines: list[str], start: int) -> list[str]:
    """The lines of the report that starts at `start`, up to the next log line."""
    end = start + 1
    while end < len(lines) and not _LOG_LINE.match(lines[end]):
        end += 1
    return lines[start:end]


def last_report(text: list[str]) -> tuple[int, list[str]] | None:
    """The report a failed driver's output (lines without their line ends) ends with, as
    (index of its first line, its lines up to the next log line): its last Python traceback,
    else the JVM's `Exception in thread "main"`, else its last ERROR log line with the stack
    trace printed under it; None when there is none. What `from_log` reads the error from."""
    # A traceback nested in an exception's message is part of the report it is in.
    outer = [
        i for i, line in enumerate(text) if line.startswith(_TRACEBACK) and not _in_report(text, i)
    ]
    if outer:
        return outer[-1], _report_start(text, outer[-1])
    jvm = next((i for i, line in enumerate(text) if line.startswith("Exception in thread ")), None)
    if jvm is not None:
        return jvm, _report_start(text, jvm)
    errors = [i for i, line in enumerate(text) if _LOG_LINE.match(line) and " ERROR " in line]
    if not errors:
        return None
    return errors[-1], _report_start(text, errors[-1])


def from_log(lines: Iterable[str]) -> str | None:
    """The error a failed driver's output shows: the root cause of its last Python traceback,
    else of the JVM's `Exception in thread "main"`, else the last ERROR log line (with the
    root of the stack trace printed under it, if any); None when there is none."""
    found = last_report([line.rstrip("\r\n") for line in lines])
    if found is None:
        return None
    report = found[1]
    if not _LOG_LINE.match(report[0]):  # a traceback or the JVM's report
        return summarize("\n".join(report))
    logged = _one_line(report[0].split(" ERROR ", 1)[1])
    trace = report[1:]
    return (summarize("\n".join(trace)) if _raised(trace) else None) or bounded(logged)


def _in_report(lines: list[str], i: int) -> bool:
    """Whether line `i` continues an exception report begun above it (no log line between)."""
    j = i - 1
    while j >= 0 and not _LOG_LINE.match(lines[j]):
        if lines[j].startswith(_TRACEBACK) or _HEADER.match(lines[j]):
            return True
        j -= 1
    return False
