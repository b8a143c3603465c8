import { Fragment, useState } from "react";
import { undoOffsetReset } from "../api/endpoints";
import { offsetResetsQuery } from "../api/queries";
import type { OffsetReset } from "../api/types";
import { usePolledQuery } from "../hooks/usePolledQuery";
import { formatCount, plural } from "../lib/format";
import { RESET_STATE_TONE, resetStateLabel, scopeSummary, strategySummary, undoableIds } from "../lib/resetPlans";
import { formatAgo, formatLocal } from "../lib/time";
import { ErrorBanner } from "./ErrorBanner";
import { ToolbarCheckbox } from "./ListToolbar";
import { PlanTable, PlanTotals, ResultTable, UndoError, UndoReasonInput } from "./ResetTables";
import { StatusBadge } from "./StatusBadge";
import { EmptyRow, type HeaderColumn, numeric, Table } from "./TableParts";

const HISTORY_COLUMNS: HeaderColumn[] = [
  numeric("#"),
  "When",
  "Who",
  "Strategy and scope",
  "Mode",
  "State",
  "Reason",
  { label: "Actions", hidden: true },
];

export const HISTORY_POLL_MS = 10_000;
/** Rows shown before "Show all". */
const FIRST_ROWS = 25;

interface ResetHistoryProps {
  cluster: string;
  group: string;
  /** Operators and admins may undo. */
  canUndo: boolean;
  /** After an undo from here (the history itself is fetched again). */
  onChanged: () => void;
}

/**
 * The group's offset resets, newest first: when, who, strategy and scope,
 * dry run or executed, state, reason, what it undid. A row expands to its
 * plan and result; executed resets nothing undid yet have an Undo. Polled every
 * 10 s; a write elsewhere on the page (the wizard) refetches it at once
 * (queryKeys.offsetResets).
 */
export function ResetHistory({ cluster, group, canUndo, onChanged }: ResetHistoryProps) {
  const { data, error, loading, refresh } = usePolledQuery(offsetResetsQuery(cluster, group), HISTORY_POLL_MS);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [hideDryRuns, setHideDryRuns] = useState(false);
  const [showAll, setShowAll] = useState(false);

  const toggle = (id: number, force?: boolean) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (force ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const resets = data ?? [];
  const undoable = undoableIds(resets);
  const visible = resets.filter((r) => !hideDryRuns || !r.dry_run);
  const shown = showAll ? visible : visible.slice(0, FIRST_ROWS);
  const dryRuns = resets.filter((r) => r.dry_run).length;

  return (
    <div className="history" data-testid="reset-history" data-count={resets.length}>
      <div className="toolbar">
        <span className="muted">
          {formatCount(resets.length)} {plural(resets.length, "reset")} ({formatCount(dryRuns)} dry{" "}
          {plural(dryRuns, "run")})
        </span>
        <ToolbarCheckbox checked={hideDryRuns} onChange={setHideDryRuns} testId="history-hide-dry-runs">
          Hide dry runs
        </ToolbarCheckbox>
      </div>
      {error && (
        <ErrorBanner
          error={error}
          title={data ? "Could not refresh the reset history" : "Could not load the reset history"}
          stale={data !== undefined}
          onRetry={refresh}
        />
      )}
      {loading && !data && <p className="muted">Loading the reset history…</p>}
      {data && (
        <Table columns={HISTORY_COLUMNS} className="history-table">
          {shown.length === 0 && (
            <EmptyRow span={HISTORY_COLUMNS.length}>
              {resets.length === 0 ? "No offset reset was planned or run for this group." : "Only dry runs so far."}
            </EmptyRow>
          )}
          {shown.map((reset) => (
            <HistoryRow
              key={reset.id}
              reset={reset}
              expanded={open.has(reset.id)}
              undoable={canUndo && undoable.has(reset.id)}
              undoneBy={resets.find((r) => r.undo_of === reset.id)?.id ?? null}
              onToggle={(force) => toggle(reset.id, force)}
              onUndone={() => {
                refresh();
                onChanged();
              }}
            />
          ))}
        </Table>
      )}
      {!showAll && visible.length > FIRST_ROWS && (
        <button type="button" className="button button-small history-more" onClick={() => setShowAll(true)}>
          Show all {formatCount(visible.length)}
        </button>
      )}
    </div>
  );
}

interface HistoryRowProps {
  reset: OffsetReset;
  expanded: boolean;
  undoable: boolean;
  undoneBy: number | null;
  onToggle: (force?: boolean) => void;
  onUndone: () => void;
}

function HistoryRow({ reset, expanded, undoable, undoneBy, onToggle, onUndone }: HistoryRowProps) {
  const [undoing, setUndoing] = useState(false);
  const [reason, setReason] = useState(`Undo of reset #${reset.id}`);
  const [busy, setBusy] = useState(false);
  const [undoError, setUndoError] = useState<Error | null>(null);
  const [undone, setUndone] = useState<OffsetReset | null>(null);
  const created = Date.parse(reset.created_at);
  const prefix = `history-${reset.id}-`;

  const onUndo = async () => {
    if (!reason.trim()) return;
    setBusy(true);
    setUndoError(null);
    try {
      setUndone(await undoOffsetReset(reset.id, reason.trim()));
      setUndoing(false);
      onUndone();
    } catch (err) {
      setUndoError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Fragment>
      <tr
        data-testid={`history-row-${reset.id}`}
        data-dry-run={reset.dry_run ? "true" : "false"}
        data-state={reset.state}
        className={expanded ? "row-expanded" : undefined}
      >
        <td className="num">{reset.id}</td>
        <td className="nowrap" title={reset.created_at}>
          {Number.isNaN(created) ? (
            reset.created_at
          ) : (
            <>
              <time dateTime={reset.created_at}>{formatLocal(created).slice(0, 19)}</time>
              <span className="muted small-line">{formatAgo(created)}</span>
            </>
          )}
        </td>
        <td>{reset.created_by ?? "—"}</td>
        <td className="wrap history-strategy">
          <span data-testid={`history-strategy-${reset.id}`}>{strategySummary(reset.strategy)}</span>
          <span className="muted small-line">{scopeSummary(reset)}</span>
        </td>
        <td>
          {reset.dry_run ? (
            <StatusBadge tone="neutral">dry run</StatusBadge>
          ) : (
            <StatusBadge tone="info">executed</StatusBadge>
          )}
          {reset.undo_of !== null && (
            <span className="small-line muted" data-testid={`history-undo-of-${reset.id}`}>
              undo of #{reset.undo_of}
            </span>
          )}
          {undoneBy !== null && <span className="small-line muted">undone by #{undoneBy}</span>}
        </td>
        <td>
          <StatusBadge tone={RESET_STATE_TONE[reset.state] ?? "neutral"}>{resetStateLabel(reset.state)}</StatusBadge>
        </td>
        <td className="wrap history-reason">{reset.reason || <span className="muted">—</span>}</td>
        <td className="row-actions">
          <button
            type="button"
            className="button button-small"
            onClick={() => onToggle()}
            aria-expanded={expanded}
            data-testid={`history-toggle-${reset.id}`}
          >
            {expanded ? "Hide" : "Details"}
          </button>
          {undoable && !undone && (
            <button
              type="button"
              className="button button-small button-danger-outline"
              onClick={() => {
                setUndoing(true);
                onToggle(true);
              }}
              data-testid={`history-undo-${reset.id}`}
            >
              Undo…
            </button>
          )}
        </td>
      </tr>
      {expanded && (
        <tr className="history-detail" data-testid={`history-detail-${reset.id}`}>
          <td colSpan={HISTORY_COLUMNS.length}>
            {undoing && undoable && !undone && (
              <div className="undo-box">
                <p>
                  Restores the {formatCount(reset.plan.length)} {plural(reset.plan.length, "partition")} of reset #
                  {reset.id} to their offsets from before it ran
                  {reset.executed_at ? ` (${formatLocal(Date.parse(reset.executed_at)).slice(0, 19)})` : ""}. The group
                  must have no running member.
                </p>
                <div className="action-row">
                  <UndoReasonInput value={reason} onChange={setReason} testId={`history-undo-reason-${reset.id}`} />
                  <button
                    type="button"
                    className="button button-danger"
                    onClick={() => void onUndo()}
                    disabled={busy || !reason.trim()}
                    data-testid={`history-undo-confirm-${reset.id}`}
                  >
                    {busy ? "Undoing…" : "Undo this reset"}
                  </button>
                  <button type="button" className="button" onClick={() => setUndoing(false)} disabled={busy}>
                    Cancel
                  </button>
                </div>
                {undoError && <UndoError error={undoError} testId={`history-undo-error-${reset.id}`} />}
              </div>
            )}
            {undone && <ResultTable reset={undone} testId={`history-undo-result-${reset.id}`} idPrefix={`history-undo-${reset.id}-`} />}
            {reset.result && (
              <>
                <h3 className="detail-title">Result</h3>
                <ResultTable reset={reset} testId={`history-result-${reset.id}`} idPrefix={prefix} />
              </>
            )}
            <h3 className="detail-title">Plan</h3>
            <PlanTotals plan={reset.plan} idPrefix={prefix} />
            <PlanTable plan={reset.plan} idPrefix={prefix} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}
