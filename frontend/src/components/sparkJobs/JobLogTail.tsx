import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { sparkJobLogUrl } from "../../api/endpoints";
import type { LogFilter } from "../../api/types";
import { filterText, hiddenSummary } from "../../lib/logLines";

/** How close to the bottom (px) counts as "following" the log. */
const FOLLOW_SLACK_PX = 24;

/**
 * The driver log's last lines (monospace), scrolled to the newest line as it grows unless the
 * reader scrolled up to read something; a link opens the whole log. By default only errors,
 * warnings and the program's own output show (lib/logLines.ts), with how many lines of Spark's
 * INFO chatter are hidden; "All" shows every line. The link opens the whole log at the same level.
 */
export function JobLogTail({ jobId, text }: { jobId: number; text: string }) {
  const box = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  const [filter, setFilter] = useState<LogFilter>("warn");
  const shown = useMemo(() => filterText(text, filter), [text, filter]);
  const hidden = hiddenSummary(shown.hidden);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [shown.text]);

  return (
    <div className="log-tail">
      <div className="log-tail-head">
        <span className="muted">Last lines of the driver log</span>
        <span className="log-tail-tools">
          {hidden && (
            <span className="muted" data-testid="job-log-hidden">
              {hidden}
            </span>
          )}
          <select
            className="input log-tail-level"
            aria-label="Log lines to show"
            value={filter}
            onChange={(event) => setFilter(event.target.value as LogFilter)}
            data-testid="job-log-level"
          >
            <option value="warn">Errors and warnings</option>
            <option value="all">All</option>
          </select>
          <a href={sparkJobLogUrl(jobId, filter)} target="_blank" rel="noreferrer" data-testid="job-full-log">
            Full log ↗
          </a>
        </span>
      </div>
      <pre
        ref={box}
        className="log-tail-text"
        tabIndex={0}
        aria-label="Driver log, last lines"
        onScroll={(event) => {
          const el = event.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK_PX;
        }}
        data-testid="job-log"
      >
        {text === "" ? (
          <span className="muted">Nothing logged yet.</span>
        ) : shown.text === "" ? (
          <span className="muted" data-testid="job-log-none-kept">
            No errors or warnings in the last lines.{" "}
            <button type="button" className="log-tail-show-all" onClick={() => setFilter("all")} data-testid="job-log-show-all">
              Show all
            </button>
          </span>
        ) : (
          shown.text
        )}
      </pre>
    </div>
  );
}
