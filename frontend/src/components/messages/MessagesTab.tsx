import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { ApiError } from "../../api/client";
import { messagesQuery, type MessageRecord, type MessageScan } from "../../api/messages";
import { useQueryUpdate } from "../../hooks/useQueryUpdate";
import { formatCount } from "../../lib/format";
import { buildQuery, pageDirection, stoppedByText, viewFromParams, viewToParams, type MessageView } from "../../lib/messages";
import { ErrorBanner } from "../ErrorBanner";
import { StatusBadge } from "../StatusBadge";
import { MessageControls } from "./MessageControls";
import { MessageTable } from "./MessageTable";
import { RecordDrawer } from "./RecordDrawer";
import "./messages.css";

interface MessagesTabProps {
  cluster: string;
  topic: string;
  /** The topic's partition count (null while unknown): the partition choice is checked against it. */
  partitionCount: number | null;
}

/** A record's identity on a page. */
function recordKey(record: MessageRecord): string {
  return `${record.partition}:${record.offset}`;
}

/**
 * The Messages tab of the topic page: where to read (position, partitions, direction), how to
 * decode, a CEL filter, then a page of records in a virtualized table with Newer / Older pages
 * (exact cursors) and a record's drawer. The view lives in the URL query: a link reproduces it.
 */
export function MessagesTab({ cluster, topic, partitionCount }: MessagesTabProps) {
  const [params, update] = useQueryUpdate();
  const view = useMemo(() => viewFromParams(params), [params]);
  const built = useMemo(() => buildQuery(view, partitionCount), [view, partitionCount]);
  const query = "query" in built ? built.query : null;
  const page = useQuery({ ...messagesQuery(cluster, topic, query ?? {}), enabled: query !== null });
  const [selected, setSelected] = useState<string | null>(null);

  const { refetch } = page;
  const show = useCallback(
    (next: MessageView) => {
      setSelected(null);
      const changes = viewToParams(next);
      // The same view asked again ("Read" with nothing changed): read it again.
      if (JSON.stringify(changes) === JSON.stringify(viewToParams(view))) void refetch();
      else update(changes);
    },
    [update, view, refetch],
  );
  const closeRecord = useCallback(() => setSelected(null), []);

  const error = page.error;
  const filterError = error instanceof ApiError && error.status === 400 && error.details.field === "filter" ? error : null;
  // The answer shown belongs to this query (not the previous one, kept while this one loads).
  const data = page.data;
  const current = !page.isPlaceholderData;
  const direction = pageDirection(view);
  const records = data?.records ?? [];
  const record = selected === null ? null : (records.find((r) => recordKey(r) === selected) ?? null);
  const filtered = !!view.filter.trim();

  // Newer and older pages: a backward page's next cursor reads older records, a forward page's newer.
  const olderCursor = data ? (direction === "backward" ? data.next_cursor : data.prev_cursor) : null;
  const newerCursor = data ? (direction === "backward" ? data.prev_cursor : data.next_cursor) : null;
  const goTo = (cursor: string, cursorDirection: MessageView["cursorDirection"]) => show({ ...view, cursor, cursorDirection });

  return (
    <div className="messages-tab" data-testid="messages-tab">
      <MessageControls
        view={view}
        partitionCount={partitionCount}
        errors={"errors" in built ? built.errors : {}}
        filterError={filterError}
        onShow={show}
        reading={page.isFetching}
        onReadAgain={() => void page.refetch()}
      />

      {error && !filterError && <ErrorBanner error={error} title="Could not read the records" onRetry={() => void page.refetch()} />}

      {data && (
        <div className={current ? "messages-result" : "messages-result stale"} data-testid="messages-result" data-current={current}>
          <div className="messages-pager">
            <button
              type="button"
              className="button button-small"
              disabled={!olderCursor || page.isFetching}
              onClick={() => olderCursor && goTo(olderCursor, "backward")}
              data-testid="messages-older"
              title="The records before these"
            >
              ← Older
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={!newerCursor || page.isFetching}
              onClick={() => newerCursor && goTo(newerCursor, "forward")}
              data-testid="messages-newer"
              title="The records after these"
            >
              Newer →
            </button>
            {view.cursor && (
              <button
                type="button"
                className="button button-small"
                onClick={() => show({ ...view, cursor: "" })}
                data-testid="messages-restart"
                title="Back to the position chosen above"
              >
                Back to the start
              </button>
            )}
            <ScanFacts
              scan={data.scan}
              count={records.length}
              direction={direction}
              filtered={filtered}
              onGoOn={() => goTo(data.next_cursor, direction)}
            />
          </div>
          <MessageTable
            records={records}
            selected={selected}
            recordKey={recordKey}
            onSelect={(r) => setSelected(recordKey(r))}
            filtered={filtered}
          />
        </div>
      )}
      {!data && page.isFetching && (
        <p className="loading-line muted" data-testid="messages-loading">
          Reading records…
        </p>
      )}

      {record && <RecordDrawer cluster={cluster} topic={topic} record={record} onClose={closeRecord} />}
    </div>
  );
}

function ScanFacts({
  scan,
  count,
  direction,
  filtered,
  onGoOn,
}: {
  scan: MessageScan;
  count: number;
  direction: MessageView["cursorDirection"];
  filtered: boolean;
  /** Read on from where a budget stopped the scan (the next cursor). */
  onGoOn: () => void;
}) {
  const budget = scan.stopped_by !== "limit" && scan.stopped_by !== "end";
  const errors = scan.filter_errors ?? 0;
  return (
    <div className="messages-scan" data-testid="messages-scan" data-stopped-by={scan.stopped_by}>
      <span data-testid="messages-count">
        <strong>{formatCount(count)}</strong> {count === 1 ? "record" : "records"}, {direction === "backward" ? "newest first" : "oldest first"}
      </span>
      {filtered && (
        <span data-testid="messages-matched">
          {formatCount(scan.matched)} matched of {formatCount(scan.scanned)} scanned
        </span>
      )}
      {!filtered && scan.scanned !== count && <span className="muted">{formatCount(scan.scanned)} read</span>}
      <span className="muted" data-testid="messages-stopped">
        {stoppedByText(scan, filtered)}
      </span>
      {budget && (
        <button type="button" className="button button-small" onClick={onGoOn} data-testid="messages-go-on">
          Go on
        </button>
      )}
      {errors > 0 && (
        <StatusBadge tone="warn" title={scan.filter_error ?? undefined} data-testid="messages-filter-errors">
          filter failed on {formatCount(errors)} {errors === 1 ? "record" : "records"}
          {scan.filter_error ? `: ${scan.filter_error}` : ""}
        </StatusBadge>
      )}
    </div>
  );
}
