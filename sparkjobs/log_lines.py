"""Which lines of a Spark driver's log matter: each line's log level, the log without Spark's
INFO chatter, and the lines that explain a failure. Pure: standard library only, plus
sparkjobs/jobs/job_errors.py (pure too), which knows what an exception's report looks like.

Why: a driver logs hundreds of INFO lines (an executor added, a stage submitted, a block
stored) for each line saying that something went wrong, so the job page's tail of the log was
mostly chatter, and a failure's cause sat between stack frames hundreds of lines long. So:

- `level_of`: a log4j line (`26/11/25 16:06:49 WARN Utils: ...`, or an ISO-like
  `2026-11-25 16:06:49,123 ERROR ...`) has its own level; a line that continues it (indented,
  `at ...`, `Caused by: ...`, `... 12 more`, `Driver stacktrace:`, or empty) has the level of
  the line it continues; any other line is the program's output (None): what the script
  prints, a Python traceback, the scripts' `KAFKA_CONSOLE_` marker lines, and an exception's
  unindented lines under a log line (log4j prints them so; shown rather than guessed at).
- `filtered`: "warn" keeps WARN, ERROR and FATAL lines and the output, and drops TRACE, DEBUG
  and INFO lines with the lines that continue them; "all" keeps every line. Output is never
  dropped: what is not a log line may be what went wrong (a traceback, an exception printed by
  the JVM), so the filter errs on the side of showing.
- `failure_lines`: the exception lines of the report a failed driver's log ends with (the same
  report `job_errors.from_log` reads the job's error from: its last Python traceback, else the
  JVM's `Exception in thread "main"`, else its last ERROR line with the trace under it), with
  their message lines but without stack frames, plus the ERROR and FATAL lines, once each and
  in log order. The job page shows them above the log (`SparkJob.failure_lines`, computed by
  the runner once, when the job fails).

frontend/src/lib/logLines.ts applies the same level rule to the live tail: keep them alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from sparkjobs.jobs import job_errors

ALL, WARN = "all", "warn"
FILTERS = (ALL, WARN)  # the `level` a log may be read at
LEVELS = ("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL")
KEPT = frozenset({"WARN", "ERROR", "FATAL"})  # what the "warn" filter keeps, with the output
FAILED = frozenset({"ERROR", "FATAL"})
FAILURE_LIMIT = 40
# A failure line longer than this is cut (a Java message can hold a whole query plan).
FAILURE_LINE_CHARS = job_errors.MAX_CHARS

# The time stamp (with optional fraction and zone), an optional `[thread]`, the level.
_RECORD = re.compile(
    rf"^{job_errors.LOG_STAMP}(?:[,.]\d{{1,9}})?(?:Z|[+-]\d{{2}}:?\d{{2}})?\s+"
    r"(?:\[[^\]]*\]\s+)?(?P<level>TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL)\b"
)
# What continues the line above: indented (a stack frame, a Python frame, a message's next
# line), a frame or `Caused by:` written without indent, `... N more`, an empty line, or
# Spark's `Driver stacktrace:` (a failed stage's message ends with it, its frames follow).
_CONTINUATION = re.compile(
    r"^(?:\s|at |Caused by:|\.\.\. \d+ (?:more|common frames omitted)|"
    + "|".join(re.escape(marker) for marker in job_errors.STACKTRACE_MARKERS)
    + r"|$)"
)


def record_level(line: str) -> str | None:
    """The level of a log line itself (`26/11/25 16:06:49 WARN Utils: ...` -> "WARN"); None
    for any other line, a continuation line included."""
    match = _RECORD.match(line)
    if match is None:
        return None
    return "WARN" if match["level"] == "WARNING" else match["level"]


def _with_levels(lines: Iterable[str]) -> Iterator[tuple[str, str | None]]:
    level: str | None = None
    for line in lines:
        own = record_level(line)
        if own is not None:
            level = own
        elif not _CONTINUATION.match(line):
            level = None
        yield line, level


def level_of(lines: Iterable[str]) -> list[str | None]:
    """Each line's level (one of LEVELS), None for the program's output (see the module's
    doc). Lines may keep their line ends."""
    return [level for _, level in _with_levels(lines)]


def iter_filtered(lines: Iterable[str], level: str) -> Iterator[str]:
    """The lines the filter `level` (one of FILTERS) keeps, as they are read."""
    if level not in FILTERS:
        raise ValueError(f"level: one of {', '.join(FILTERS)}, not {level!r}")
    for line, own in _with_levels(lines):
        if level == ALL or own is None or own in KEPT:
            yield line


def filtered(lines: Iterable[str], level: str) -> list[str]:
    """ "all": every line; "warn": WARN, ERROR and FATAL lines and the program's output,
    without TRACE, DEBUG and INFO lines and what continues them."""
    return list(iter_filtered(lines, level))


def _key(line: str) -> str:
    """What makes two failure lines the same: a log line without its time stamp."""
    match = _RECORD.match(line)
    return line[match.start("level") :] if match else line.strip()


def failure_lines(lines: Iterable[str], limit: int = FAILURE_LIMIT) -> list[str]:
    """The lines that explain a failure, in log order (see the module's doc); [] when the log
    shows none. Each at most FAILURE_LINE_CHARS characters. When there are more than `limit`,
    the report's lines are kept first, then the ERROR and FATAL lines nearest its end."""
    text = [line.rstrip("\r\n") for line in lines]
    report: list[int] = []
    if (found := job_errors.last_report(text)) is not None:
        start, block = found
        report = [start + i for i in job_errors.exception_lines(block)]
    errors = [i for i, line in enumerate(text) if record_level(line) in FAILED]
    first: dict[str, int] = {}  # a line seen again is left out
    for i in sorted({*report, *errors}):
        first.setdefault(_key(text[i]), i)
    unique = set(first.values())
    ranked = list(dict.fromkeys(i for i in [*report, *reversed(errors)] if i in unique))
    return [job_errors.bounded(text[i].rstrip()) for i in sorted(ranked[: max(limit, 0)])]
