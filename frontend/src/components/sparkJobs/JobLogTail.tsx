import { useLayoutEffect, useRef } from "react";
import { sparkJobLogUrl } from "../../api/endpoints";

/** How close to the bottom (px) counts as "following" the log. */
const FOLLOW_SLACK_PX = 24;

/**
 * The driver log's last lines (monospace), scrolled to the newest line as it grows unless the
 * reader scrolled up to read something; a link opens the whole log.
 */
export function JobLogTail({ jobId, text }: { jobId: number; text: string }) {
  const box = useRef<HTMLPreElement>(null);
  const following = useRef(true);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  return (
    <div className="log-tail">
      <div className="log-tail-head">
        <span className="muted">Last lines of the driver log</span>
        <a href={sparkJobLogUrl(jobId)} target="_blank" rel="noreferrer" data-testid="job-full-log">
          Full log ↗
        </a>
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
        {text || <span className="muted">Nothing logged yet.</span>}
      </pre>
    </div>
  );
}
