// A Spark driver log's levels and the "errors and warnings" filter of the job page's live log
// tail: the rule of sparkjobs/log_lines.py, which the log endpoint's `level=warn` applies to the
// whole log (logLines.test.ts and tests/unit/test_log_lines.py check both with the same cases).
//
// A log4j line (`26/11/25 16:06:49 WARN Utils: ...`, or `2026-11-25 16:06:49,123 ERROR ...`)
// has its own level; a line that continues it (indented, `at ...`, `Caused by: ...`,
// `... 12 more`, `Driver stacktrace:`, or empty) has the level of the line it continues; any
// other line is the program's output (null): what the script prints, a Python traceback, the
// scripts' marker lines. "warn" keeps WARN, ERROR and FATAL lines and the output; "all" keeps
// every line.
import type { LogFilter } from "../api/types";

export type LogLevel = "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "FATAL";

/** What the "warn" filter hides (the rest it keeps, with the program's output). */
export const HIDDEN_LEVELS: readonly LogLevel[] = ["INFO", "DEBUG", "TRACE"];

// sparkjobs/jobs/job_errors.py LOG_STAMP, then an optional fraction and zone, an optional
// `[thread]`, the level.
const RECORD =
  /^\d{2,4}[/-]\d{2}[/-]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[,.]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\s+(?:\[[^\]]*\]\s+)?(TRACE|DEBUG|INFO|WARN(?:ING)?|ERROR|FATAL)\b/;
const CONTINUATION = /^(?:\s|at |Caused by:|\.\.\. \d+ (?:more|common frames omitted)|Driver stacktrace:|JVM stacktrace:|$)/;

/** The level of a log line itself; null for any other line, a continuation line included. */
export function recordLevel(line: string): LogLevel | null {
  const match = RECORD.exec(line);
  if (!match) return null;
  return match[1] === "WARNING" ? "WARN" : (match[1] as LogLevel);
}

/** Each line's level, null for the program's output. Lines are without their line ends. */
export function levelOf(lines: readonly string[]): (LogLevel | null)[] {
  let level: LogLevel | null = null;
  return lines.map((line) => {
    const own = recordLevel(line);
    if (own !== null) level = own;
    else if (!CONTINUATION.test(line)) level = null;
    return level;
  });
}

function kept(level: LogLevel | null, filter: LogFilter): boolean {
  return filter === "all" || level === null || !HIDDEN_LEVELS.includes(level);
}

/** The lines `filter` keeps, in order. */
export function filtered(lines: readonly string[], filter: LogFilter): string[] {
  const levels = levelOf(lines);
  return lines.filter((_, i) => kept(levels[i]!, filter));
}

export interface FilteredText {
  /** The kept lines, as the text was (line ends included). */
  text: string;
  /** How many lines were hidden, by the level they have (a continuation line counts with its log line). */
  hidden: Partial<Record<LogLevel, number>>;
}

/** A log text (a job's `log_tail`) with what `filter` hides left out. */
export function filterText(text: string, filter: LogFilter): FilteredText {
  const lines = text.split("\n");
  const finished = lines[lines.length - 1] === ""; // the text ends with a line end (or is empty)
  if (finished) lines.pop();
  const levels = levelOf(lines.map((line) => line.replace(/\r$/, "")));
  const hidden: Partial<Record<LogLevel, number>> = {};
  let shown = "";
  lines.forEach((line, i) => {
    const level = levels[i]!;
    if (kept(level, filter)) shown += line + (finished || i < lines.length - 1 ? "\n" : "");
    else if (level !== null) hidden[level] = (hidden[level] ?? 0) + 1;
  });
  return { text: shown, hidden };
}

/** "312 INFO lines hidden", "300 INFO and 12 DEBUG lines hidden"; "" when none is. */
export function hiddenSummary(hidden: Partial<Record<LogLevel, number>>): string {
  const parts = HIDDEN_LEVELS.filter((level) => (hidden[level] ?? 0) > 0).map((level) => `${hidden[level]} ${level}`);
  if (parts.length === 0) return "";
  const total = HIDDEN_LEVELS.reduce((sum, level) => sum + (hidden[level] ?? 0), 0);
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `${listed} ${total === 1 ? "line" : "lines"} hidden`;
}
