import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "../../api/client";
import { messagesQuery, type MessageRecord, type MessageScan, type TailRequest } from "../../api/messages";
import { useMessageTail } from "../../hooks/useMessageTail";
import { useQueryUpdate } from "../../hooks/useQueryUpdate";
import { formatCount } from "../../lib/format";
import { buildQuery, pageDirection, parsePartitions, stoppedByText, viewFromParams, viewToParams, type MessageView } from "../../lib/messages";
import { draftFromRecord, EMPTY_DRAFT, type ProduceDraft } from "../../lib/produce";
import { searchPlan, type SearchPlan } from "../../lib/sparkSearch";
import { hasRole, useCurrentUser } from "../CurrentUser";
import { ErrorBanner } from "../ErrorBanner";
import { StatusBadge } from "../StatusBadge";
import { MessageControls } from "./MessageControls";
import { MessageTable } from "./MessageTable";
import { ProduceForm } from "./ProduceForm";
import { RecordDrawer } from "./RecordDrawer";
import { SparkSearchButton, SparkSearchPanel, SparkSearchRefused, useSparkSearch } from "./SparkSearch";
import { TailPanel } from "./TailPanel";
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

/** A Spark search's match's identity (beside the page's records: the drawer shows either). */
function matchKey(record: MessageRecord): string {
  return `spark:${record.partition}:${record.offset}`;
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
  // A Spark search's match opened in the drawer (its key is `selected`, "spark:p:o").
  const [sparkRecord, setSparkRecord] = useState<MessageRecord | null>(null);
  const { user } = useCurrentUser();
  const canProduce = hasRole(user, "operator", cluster);
  // Submitting a Spark job needs the operator role, as producing does.
  const canSearchOnSpark = hasRole(user, "operator", cluster);
  const sparkSearch = useSparkSearch();
  const plan = useMemo(() => searchPlan(view, topic, partitionCount), [view, topic, partitionCount]);
  const [producing, setProducing] = useState(false);
  const [draft, setDraft] = useState<ProduceDraft>(EMPTY_DRAFT);
  const [copiedFrom, setCopiedFrom] = useState<string | null>(null);
  const produceCard = useRef<HTMLDivElement>(null);
  const [scrollToForm, setScrollToForm] = useState(0);
  useEffect(() => {
    if (scrollToForm) produceCard.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [scrollToForm]);

  // The live tail follows the tab's partitions, filter, decoders and isolation.
  const [tailOn, setTailOn] = useState(false);
  const parsedPartitions = parsePartitions(view.partitions, partitionCount);
  // Every partition while the box holds a mistake (the controls say what is wrong with it).
  const tailPartitions = typeof parsedPartitions === "string" ? "" : parsedPartitions.join(",");
  const tailRequest = useMemo<TailRequest>(
    () => ({
      partition: tailPartitions ? tailPartitions.split(",").map(Number) : undefined,
      filter: view.filter,
      key_format: view.keyFormat,
      value_format: view.valueFormat,
      isolation: view.isolation,
    }),
    [tailPartitions, view.filter, view.keyFormat, view.valueFormat, view.isolation],
  );
  const tail = useMessageTail(cluster, topic, tailOn, tailRequest);

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
  const pageFilterError = error instanceof ApiError && error.status === 400 && error.details.field === "filter" ? error : null;
  // A Spark search refused for its filter (params.filter): beside the box while it holds that filter.
  const refusal = sparkSearch.refusal;
  const sparkFilterError = refusal && refusal.filter === view.filter.trim() ? refusal.filterError : null;
  const filterError = pageFilterError ?? sparkFilterError;
  // The answer shown belongs to this query (not the previous one, kept while this one loads).
  const data = page.data;
  const current = !page.isPlaceholderData;
  const direction = pageDirection(view);
  const records = data?.records ?? [];
  const shownRecords = tailOn ? tail.rows.records : records;
  const record =
    selected === null
      ? null
      : sparkRecord && matchKey(sparkRecord) === selected
        ? sparkRecord
        : (shownRecords.find((r) => recordKey(r) === selected) ?? null);
  const copyToProducer = (r: MessageRecord) => {
    setDraft(draftFromRecord(r));
    setCopiedFrom(`partition ${r.partition} · offset ${r.offset}`);
    setProducing(true);
    setSelected(null);
    setScrollToForm((n) => n + 1);
  };
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

      <div className="messages-actions" data-testid="messages-actions">
        <button
          type="button"
          className={tailOn ? "button button-primary" : "button"}
          aria-pressed={tailOn}
          onClick={() => {
            setSelected(null);
            setTailOn((on) => !on);
          }}
          title="Follow new records as they are written (with the filter, decoders and partitions above)"
          data-testid="messages-tail-toggle"
        >
          {tailOn ? "■ Stop live tail" : "▶ Live tail"}
        </button>
        {canProduce && !producing && (
          <button type="button" className="button" onClick={() => setProducing(true)} data-testid="messages-produce-open">
            Produce a record
          </button>
        )}
      </div>

      {canSearchOnSpark && refusal && (refusal.banner || refusal.problems.length > 0) && <SparkSearchRefused refusal={refusal} />}

      {canProduce && producing && (
        <div ref={produceCard}>
          <ProduceForm
            cluster={cluster}
            topic={topic}
            partitionCount={partitionCount}
            draft={draft}
            onChange={setDraft}
            onClose={() => setProducing(false)}
            copiedFrom={copiedFrom}
          />
        </div>
      )}

      {canSearchOnSpark && sparkSearch.jobId !== null && (
        <SparkSearchPanel
          jobId={sparkSearch.jobId}
          selected={selected}
          recordKey={matchKey}
          onSelect={(r) => {
            setSparkRecord(r);
            setSelected(matchKey(r));
          }}
          onClose={sparkSearch.close}
        />
      )}

      {tailOn && <TailPanel tail={tail} filter={view.filter} selected={selected} recordKey={recordKey} onSelect={(r) => setSelected(recordKey(r))} />}

      {!tailOn && error && !filterError && <ErrorBanner error={error} title="Could not read the records" onRetry={() => void page.refetch()} />}

      {!tailOn && data && (
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
              spark={
                canSearchOnSpark && filtered
                  ? { plan, busy: sparkSearch.busy, onSubmit: (params) => sparkSearch.submit(cluster, params) }
                  : null
              }
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
      {!tailOn && !data && page.isFetching && (
        <p className="loading-line muted" data-testid="messages-loading">
          Reading records…
        </p>
      )}

      {record && (
        <RecordDrawer cluster={cluster} topic={topic} record={record} onClose={closeRecord} onCopyToProducer={canProduce ? copyToProducer : undefined} />
      )}
    </div>
  );
}

function ScanFacts({
  scan,
  count,
  direction,
  filtered,
  onGoOn,
  spark,
}: {
  scan: MessageScan;
  count: number;
  direction: MessageView["cursorDirection"];
  filtered: boolean;
  /** Read on from where a budget stopped the scan (the next cursor). */
  onGoOn: () => void;
  /** The hand-off to Spark after a budget stop (operators, a filtered scan), else null. */
  spark: { plan: SearchPlan; busy: boolean; onSubmit: Parameters<typeof SparkSearchButton>[0]["onSubmit"] } | null;
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
      {budget && spark && <SparkSearchButton plan={spark.plan} busy={spark.busy} onSubmit={spark.onSubmit} />}
      {errors > 0 && (
        <StatusBadge tone="warn" title={scan.filter_error ?? undefined} data-testid="messages-filter-errors">
          filter failed on {formatCount(errors)} {errors === 1 ? "record" : "records"}
          {scan.filter_error ? `: ${scan.filter_error}` : ""}
        </StatusBadge>
      )}
    </div>
  );
}
