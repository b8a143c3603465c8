// The plan (preview) and result tables of an offset reset, shared by the
// reset wizard and the reset history.
import type { OffsetReset, PlanRow, ResultRow } from "../api/types";
import { formatCount, plural } from "../lib/format";
import { isGroupActive } from "../lib/groupStates";
import { planTotals, RESET_STATE_TONE, resetStateLabel, sortByTopicPartition } from "../lib/resetPlans";
import { formatAgo, formatLocal, formatUtc } from "../lib/time";
import { isApprovalRequested } from "../lib/approvals";
import { ApprovalNotice } from "./ApprovalNotice";
import { ErrorBanner } from "./ErrorBanner";
import { StatusBadge } from "./StatusBadge";
import { EmptyRow, type HeaderColumn, numeric, Table } from "./TableParts";

const PLAN_COLUMNS: HeaderColumn[] = [
  "Topic",
  numeric("Partition"),
  numeric("Current → new offset"),
  numeric("Change", "new − current; negative: records read again, positive: skipped"),
  numeric("Lag before → after"),
  { label: "Record time at new offset", title: "Timestamp of the record at the new offset: where the group resumes" },
  numeric("Log start – end"),
];

const RESULT_COLUMNS: HeaderColumn[] = ["Topic", numeric("Partition"), numeric("New offset"), "Committed"];

interface PlanTableProps {
  plan: PlanRow[];
  /** Prefix of every test id ("" in the wizard, "history-12-" in the history). */
  idPrefix?: string;
}

function signed(n: number): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : "±"}${formatCount(Math.abs(n))}`;
}

/** Totals line over a plan: partitions, lag before -> after, what moves where. */
export function PlanTotals({ plan, idPrefix = "" }: PlanTableProps) {
  const t = planTotals(plan);
  return (
    <div
      className="plan-totals"
      data-testid={`${idPrefix}plan-totals`}
      data-partitions={t.partitions}
      data-lag-after={t.lagAfter}
      data-clamped={t.clamped}
    >
      <span>
        <strong>{formatCount(t.partitions)}</strong> {plural(t.partitions, "partition")}
      </span>
      <span>
        total lag <strong>{formatCount(t.lagBefore)}</strong> → <strong>{formatCount(t.lagAfter)}</strong>
      </span>
      {t.rewound > 0 && (
        <span className="move-back">
          {formatCount(t.rewound)} moved back: {formatCount(t.replayed)} {plural(t.replayed, "record")} read again
        </span>
      )}
      {t.advanced > 0 && (
        <span className="move-forward">
          {formatCount(t.advanced)} moved forward: {formatCount(t.skipped)} {plural(t.skipped, "record")} skipped
        </span>
      )}
      {t.unchanged > 0 && <span className="muted">{formatCount(t.unchanged)} unchanged</span>}
      {t.uncommitted > 0 && (
        <span className="muted">{formatCount(t.uncommitted)} without a committed offset before</span>
      )}
      {t.clamped > 0 && (
        <span className="move-clamped">
          {formatCount(t.clamped)} clamped to the log range
        </span>
      )}
    </div>
  );
}

/** A record time: UTC and local time, and how long ago; "log end" when null. */
export function RecordTime({ iso, testId }: { iso: string | null; testId?: string }) {
  if (iso === null) {
    return (
      <span className="muted" data-testid={testId} title="No record there yet: the group will read only new records.">
        log end
      </span>
    );
  }
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return <span data-testid={testId}>{iso}</span>;
  return (
    <span className="record-time" data-testid={testId}>
      <time dateTime={iso}>{formatUtc(ms)}</time>
      <span className="record-time-local muted nowrap">
        {formatLocal(ms)} local · {formatAgo(ms)}
      </span>
    </span>
  );
}

/**
 * Per partition: current -> new offset with the change, a "clamped" marker
 * (the asked offset was outside the log and moved to its nearest end), lag
 * before -> after and the time of the record at the new offset.
 */
export function PlanTable({ plan, idPrefix = "" }: PlanTableProps) {
  const rows = sortByTopicPartition(plan);
  return (
    <Table columns={PLAN_COLUMNS} wrapClassName="plan-scroll" className="plan-table" data-testid={`${idPrefix}reset-plan`} data-rows={rows.length}>
      {rows.length === 0 && <EmptyRow span={PLAN_COLUMNS.length}>No partition in scope: nothing would change.</EmptyRow>}
      {rows.map((row) => {
        const key = `${row.topic}-${row.partition}`;
        const delta = row.current_offset === null ? null : row.new_offset - row.current_offset;
        return (
          <tr
            key={key}
            data-testid={`${idPrefix}plan-row-${key}`}
            data-clamped={row.clamped ? "true" : "false"}
            data-delta={delta ?? ""}
          >
            <td className="mono">{row.topic}</td>
            <td className="num">{row.partition}</td>
            <td className="num offset-move">
              <span className={row.current_offset === null ? "muted" : undefined}>
                {row.current_offset === null ? "none" : formatCount(row.current_offset)}
              </span>
              <span className="arrow" aria-label="to">
                {" → "}
              </span>
              <strong>{formatCount(row.new_offset)}</strong>
              {row.clamped && (
                <span
                  className="badge badge-warn badge-inline clamped"
                  title={`The asked offset was outside this partition's log [${formatCount(row.log_start_offset)}, ${formatCount(row.log_end_offset)}] and was moved to the nearest end.`}
                  data-testid={`${idPrefix}clamped-${key}`}
                >
                  clamped
                </span>
              )}
            </td>
            <td
              className={
                delta === null ? "num muted" : delta < 0 ? "num move-back" : delta > 0 ? "num move-forward" : "num muted"
              }
              title={
                delta === null
                  ? "No committed offset before"
                  : delta < 0
                    ? `${formatCount(-delta)} records will be read again`
                    : delta > 0
                      ? `${formatCount(delta)} records will be skipped`
                      : "No change"
              }
            >
              {delta === null ? "new" : signed(delta)}
            </td>
            <td className="num">
              {formatCount(row.lag_before)} → {formatCount(row.lag_after)}
            </td>
            <td>
              <RecordTime iso={row.new_offset_timestamp} testId={`${idPrefix}plan-time-${key}`} />
            </td>
            <td className="num muted">
              {formatCount(row.log_start_offset)} – {formatCount(row.log_end_offset)}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** Counts of an executed reset's result. */
export function resultCounts(result: ResultRow[] | null): { committed: number; failed: number } {
  const rows = result ?? [];
  const committed = rows.filter((r) => r.committed).length;
  return { committed, failed: rows.length - committed };
}

interface ResultTableProps {
  reset: OffsetReset;
  /** data-testid of the wrapper. */
  testId: string;
  /** Prefix of the row test ids ("" in the wizard). */
  idPrefix?: string;
}

/** An executed reset: state, "N of M committed", and per partition ✓ or the error. */
export function ResultTable({ reset, testId, idPrefix = "" }: ResultTableProps) {
  const rows = sortByTopicPartition(reset.result ?? []);
  const { committed, failed } = resultCounts(reset.result);
  const tone = RESET_STATE_TONE[reset.state] ?? "neutral";
  return (
    <div className="reset-result" data-testid={testId} data-state={reset.state} data-failed={failed}>
      <p className={failed ? (committed ? "notice notice-warn" : "notice notice-error") : "notice notice-ok"} role="status">
        <StatusBadge tone={tone}>{resetStateLabel(reset.state)}</StatusBadge>{" "}
        {reset.undo_of !== null ? `Undo of reset #${reset.undo_of} (#${reset.id}): ` : `Reset #${reset.id}: `}
        {failed === 0
          ? `all ${formatCount(committed)} ${plural(committed, "partition")} committed.`
          : `${formatCount(committed)} of ${formatCount(rows.length)} ${plural(rows.length, "partition")} committed, ${formatCount(failed)} failed — those keep their old offset.`}
      </p>
      <Table columns={RESULT_COLUMNS} wrapClassName="plan-scroll">
        {rows.map((r) => {
          const key = `${r.topic}-${r.partition}`;
          return (
            <tr
              key={key}
              data-testid={`${idPrefix}result-row-${key}`}
              data-committed={r.committed ? "true" : "false"}
              className={r.committed ? undefined : "row-failed"}
            >
              <td className="mono">{r.topic}</td>
              <td className="num">{r.partition}</td>
              <td className="num">{formatCount(r.new_offset)}</td>
              <td className={r.committed ? "cell-ok" : "cell-bad wrap"}>
                {r.committed ? (
                  <span aria-label="committed">✓</span>
                ) : (
                  <>
                    <span aria-hidden="true">✗ </span>
                    {r.error ?? "not committed"}
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
    </div>
  );
}

/** The reason an undo is asked with (prefilled "Undo of reset #id"; required). */
export function UndoReasonInput({
  id,
  value,
  onChange,
  testId,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <input
      id={id}
      className="input undo-reason"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-label="Reason for the undo"
      data-testid={testId}
    />
  );
}

/** An undo refused or failed; group_active gets the same prominent block as execution. On a
 * protected cluster the undo became a request for a second operator: its notice. */
export function UndoError({ error, testId = "undo-error" }: { error: Error; testId?: string }) {
  if (isApprovalRequested(error)) {
    return (
      <div data-testid={testId} data-approval={error.approval.id}>
        <ApprovalNotice approval={error.approval} />
      </div>
    );
  }
  if (isGroupActive(error)) {
    return (
      <div className="blocked" role="alert" data-testid={testId}>
        <strong>Not undone: the group is active.</strong>
        <p>{error.message}</p>
        <p className="muted">Stop every consumer of this group first. No offset was changed.</p>
      </div>
    );
  }
  return (
    <div data-testid={testId}>
      <ErrorBanner error={error} title="The undo failed" />
    </div>
  );
}

