import { Fragment, memo, type KeyboardEvent, type MouseEvent } from "react";
import { Link } from "react-router-dom";
import type { AuditEntry } from "../../api/types";
import { auditEntryLink, OUTCOME_HELP, outcomeTone } from "../../lib/audit";
import { formatLocal } from "../../lib/time";
import { virtualRowProps, VirtualTable } from "../SortableTable";
import { StatusBadge } from "../StatusBadge";
import { HeaderCells, numeric, type HeaderColumn } from "../TableParts";
import { AuditEntryDetail } from "./AuditEntryDetail";

/** Height of one row in px (fixed in styles.css: .vtable td). */
export const AUDIT_ROW_HEIGHT = 36;
/** Height of an opened entry's request and details under its row (styles.css: .audit-detail). */
export const AUDIT_DETAIL_HEIGHT = 260;

const COLUMNS: HeaderColumn[] = [
  { label: "Open", hidden: true },
  numeric("#"),
  { label: "When", title: "In this browser's time zone; the server's time (UTC) in each cell's tooltip" },
  "Actor",
  "Action",
  "Cluster",
  { label: "Target", title: "What the action was about: a topic, a group, a user…" },
  "Outcome",
  { label: "Changed", title: "Where the change can be seen, when the entry says it" },
];

interface AuditTableProps {
  /** Newest first, as the API lists them. */
  entries: readonly AuditEntry[];
  /** The ids of the entries opened. */
  open: ReadonlySet<number>;
  onToggle: (id: number) => void;
  empty: string;
}

/**
 * The audit log, one line per entry, newest first; an entry opens under its line (its request and
 * details as JSON, a before → after when it has both). Virtualized above 200 entries: a line is
 * 36 px, an opened entry 260 px more (its panels scroll inside), so thousands of entries scroll as
 * smoothly as the other big lists.
 */
export function AuditTable({ entries, open, onToggle, empty }: AuditTableProps) {
  return (
    <VirtualTable
      testId="audit"
      className="audit-table"
      rows={entries}
      rowKey={(entry) => entry.id}
      rowHeight={(index) => AUDIT_ROW_HEIGHT + (open.has(entries[index]?.id ?? -1) ? AUDIT_DETAIL_HEIGHT : 0)}
      head={<HeaderCells columns={COLUMNS} />}
      span={COLUMNS.length}
      empty={empty}
      renderRow={(entry, index) => (
        <Fragment key={entry.id}>
          <AuditRow entry={entry} index={index} opened={open.has(entry.id)} onToggle={onToggle} />
          {open.has(entry.id) && (
            <tr className="audit-detail-row" data-testid={`audit-detail-${entry.id}`}>
              <td colSpan={COLUMNS.length}>
                <AuditEntryDetail entry={entry} height={AUDIT_DETAIL_HEIGHT} />
              </td>
            </tr>
          )}
        </Fragment>
      )}
    />
  );
}

interface AuditRowProps {
  entry: AuditEntry;
  index: number;
  opened: boolean;
  onToggle: (id: number) => void;
}

/** One entry's line; a click (not on its link) or Enter opens or closes it. Re-rendered only when
 * its object or state changes (a poll keeps the others' cells). */
const AuditRow = memo(function AuditRow({ entry, index, opened, onToggle }: AuditRowProps) {
  const at = Date.parse(entry.at);
  const link = auditEntryLink(entry);
  const row = virtualRowProps(index);
  const toggle = () => onToggle(entry.id);
  const onClick = (event: MouseEvent) => {
    // The link and the button do their own thing.
    if ((event.target as HTMLElement).closest("a, button")) return;
    toggle();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle();
    }
  };
  return (
    <tr
      {...row}
      className={[row.className, "audit-row", opened ? "audit-row-open" : ""].filter(Boolean).join(" ")}
      onClick={onClick}
      onKeyDown={onKeyDown}
      tabIndex={0}
      aria-expanded={opened}
      data-testid={`audit-row-${entry.id}`}
      data-action={entry.action}
      data-outcome={entry.outcome}
    >
      <td className="audit-toggle-cell">
        <button
          type="button"
          className="audit-toggle"
          onClick={toggle}
          aria-expanded={opened}
          aria-label={opened ? `Close entry ${entry.id}` : `Open entry ${entry.id}: its request and details`}
          data-testid={`audit-toggle-${entry.id}`}
        >
          {opened ? "▾" : "▸"}
        </button>
      </td>
      <td className="num muted">{entry.id}</td>
      <td className="nowrap" title={Number.isNaN(at) ? entry.at : new Date(at).toISOString()}>
        {Number.isNaN(at) ? entry.at : <time dateTime={entry.at}>{formatLocal(at).slice(0, 19)}</time>}
      </td>
      <td className="audit-actor-cell" title={entry.actor}>
        {entry.actor}
      </td>
      <td className="mono">{entry.action}</td>
      <td>{entry.cluster || <span className="muted">—</span>}</td>
      <td className="mono audit-target-cell" title={entry.target || undefined}>
        {entry.target || <span className="muted">—</span>}
      </td>
      <td>
        <StatusBadge tone={outcomeTone(entry.outcome)} title={OUTCOME_HELP[entry.outcome] ?? entry.outcome}>
          {entry.outcome}
        </StatusBadge>
      </td>
      <td className="audit-link-cell">
        {link ? (
          <Link to={link.to} title={link.label} data-testid={`audit-link-${entry.id}`}>
            {link.label}
          </Link>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
});
