import type { MessageRecord } from "../../api/messages";
import type { MessageTail } from "../../hooks/useMessageTail";
import { plainMessage } from "../../lib/fieldErrors";
import { formatCount } from "../../lib/format";
import { MAX_TAIL_ROWS } from "../../lib/messageTail";
import { StatusBadge } from "../StatusBadge";
import { MessageTable } from "./MessageTable";

interface TailPanelProps {
  tail: MessageTail;
  filter: string;
  selected: string | null;
  recordKey: (record: MessageRecord) => string;
  onSelect: (record: MessageRecord) => void;
}

const STATUS_WORDS = {
  connecting: "Connecting…",
  tailing: "Live",
  paused: "Reconnecting",
  failed: "Stopped",
  off: "Off",
} as const;

const STATUS_TONES = { connecting: "neutral", tailing: "ok", paused: "warn", failed: "error", off: "neutral" } as const;

/** The live tail: what it follows, how many arrived and were dropped over the rate, and the
 * records, newest first, in the page's virtualized table. */
export function TailPanel({ tail, filter, selected, recordKey, onSelect }: TailPanelProps) {
  const { state, rows } = tail;
  const count = rows.records.length;
  return (
    <div className="messages-result messages-tail" data-testid="messages-tail">
      <div className="messages-pager">
        <span data-testid="messages-tail-status" data-status={state.status}>
          <StatusBadge tone={STATUS_TONES[state.status]}>{STATUS_WORDS[state.status]}</StatusBadge>
        </span>
        <span className="messages-scan">
          {state.status === "tailing" && (
            <span className="muted" data-testid="messages-tail-partitions">
              New records of {state.partitions.length === 1 ? "partition" : "partitions"} {state.partitions.join(", ")}
              {filter.trim() ? " that match the filter" : ""}, newest first
            </span>
          )}
          <span data-testid="messages-tail-count">
            <strong>{formatCount(count)}</strong> {count === 1 ? "record" : "records"}
          </span>
          {rows.trimmed > 0 && (
            <span className="muted" data-testid="messages-tail-trimmed">
              the oldest {formatCount(rows.trimmed)} let go (the list keeps {formatCount(MAX_TAIL_ROWS)})
            </span>
          )}
          {state.dropped > 0 && (
            <StatusBadge tone="warn" title="The server sends at most 100 records a second; the rest are counted, not sent" data-testid="messages-tail-dropped">
              {formatCount(state.dropped)} dropped over the rate
            </StatusBadge>
          )}
          {count > 0 && (
            <button type="button" className="button button-small" onClick={tail.clear} data-testid="messages-tail-clear">
              Clear
            </button>
          )}
        </span>
      </div>
      {state.reason && (state.status === "failed" || state.status === "paused") && (
        <p className={state.status === "failed" ? "notice notice-error" : "notice notice-warn"} role="alert" data-testid="messages-tail-reason">
          {state.status === "failed" && <strong>The live tail stopped: </strong>}
          {state.field ? plainMessage(state.reason, state.field) : state.reason}
        </p>
      )}
      <MessageTable
        records={rows.records}
        selected={selected}
        recordKey={recordKey}
        onSelect={onSelect}
        filtered={!!filter.trim()}
        empty={state.status === "tailing" ? "Waiting for new records…" : "No records yet."}
      />
    </div>
  );
}
