import type { KeyboardEvent, MouseEvent } from "react";
import type { Approval } from "../../api/types";
import { actionLabel, APPROVAL_STATE_HELP, APPROVAL_STATE_TONE, shownState } from "../../lib/approvals";
import { formatLocal, formatSpan } from "../../lib/time";
import { StatusBadge } from "../StatusBadge";
import { EmptyRow, numeric, Table, type HeaderColumn } from "../TableParts";

const COLUMNS: HeaderColumn[] = [
  numeric("#"),
  "Cluster",
  { label: "Action", title: "The change held for approval (as the audit log names it in each row's tooltip)" },
  { label: "Target", title: "What it changes: a group, a topic, ACLs, an election" },
  "Summary",
  "Requested by",
  { label: "Age", title: "Since it was asked for" },
  { label: "Expires in", title: "A pending request nobody decides by then never runs" },
  "State",
];

/** The state of a request as a badge ("expired" for a pending one past its expiry). */
export function ApprovalStateBadge({ approval, now, testId }: { approval: Approval; now: number; testId?: string }) {
  const state = shownState(approval, now);
  return (
    <StatusBadge tone={APPROVAL_STATE_TONE[state]} title={APPROVAL_STATE_HELP[state]} data-testid={testId}>
      {state}
    </StatusBadge>
  );
}

/** How long ago a request was asked for: "just now", "42 s", "3 min", "2 h 5 min". */
export function ageText(createdAt: string, now: number): string {
  const ms = now - Date.parse(createdAt);
  if (Number.isNaN(ms)) return "—";
  return ms < 5_000 ? "just now" : formatSpan(ms);
}

/** "42 min" until a pending request expires; "expired" past it; a dash once decided. */
export function expiresIn(approval: Approval, now: number): string {
  if (approval.state !== "pending") return "—";
  const ms = Date.parse(approval.expires_at) - now;
  if (Number.isNaN(ms)) return "—";
  return ms <= 0 ? "expired" : formatSpan(ms);
}

interface ApprovalsTableProps {
  approvals: readonly Approval[];
  /** The request open in the detail panel. */
  selected: number | null;
  onSelect: (id: number) => void;
  now: number;
  empty: string;
}

/** The requests, newest first; a row (click, or Enter) opens its detail. */
export function ApprovalsTable({ approvals, selected, onSelect, now, empty }: ApprovalsTableProps) {
  return (
    <Table columns={COLUMNS} className="approvals-table" data-testid="approvals-table" data-count={approvals.length}>
      {approvals.length === 0 ? (
        <EmptyRow span={COLUMNS.length} testId="approvals-empty">
          {empty}
        </EmptyRow>
      ) : (
        approvals.map((a) => {
          const created = Date.parse(a.created_at);
          const onClick = (event: MouseEvent) => {
            if (!(event.target as HTMLElement).closest("a, button")) onSelect(a.id);
          };
          const onKeyDown = (event: KeyboardEvent) => {
            if (event.target === event.currentTarget && event.key === "Enter") onSelect(a.id);
          };
          const isSelected = a.id === selected;
          return (
            <tr
              key={a.id}
              className={isSelected ? "approvals-row approvals-row-selected" : "approvals-row"}
              onClick={onClick}
              onKeyDown={onKeyDown}
              tabIndex={0}
              aria-selected={isSelected}
              data-testid={`approval-row-${a.id}`}
              data-state={shownState(a, now)}
              data-action={a.action}
            >
              <td className="num">
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onSelect(a.id)}
                  aria-expanded={isSelected}
                  data-testid={`approval-open-${a.id}`}
                >
                  #{a.id}
                </button>
              </td>
              <td className="mono">{a.cluster}</td>
              <td className="nowrap" title={a.action}>
                {actionLabel(a.action)}
              </td>
              <td className="mono wrap-soft">{a.target || <span className="muted">—</span>}</td>
              <td className="wrap-soft approvals-summary">{a.summary}</td>
              <td className="mono">{a.requested_by}</td>
              <td className="nowrap" title={Number.isNaN(created) ? a.created_at : formatLocal(created).slice(0, 19)}>
                {ageText(a.created_at, now)}
              </td>
              <td className="nowrap">{expiresIn(a, now)}</td>
              <td>
                <ApprovalStateBadge approval={a} now={now} testId={`approval-state-${a.id}`} />
              </td>
            </tr>
          );
        })
      )}
    </Table>
  );
}
