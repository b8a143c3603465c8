// The maintenance worklist (GET maintenance/worklist): one row per equipment, ranked by failure
// probability as the server ranks it, with why (drivers, recent alarms), what happened after the
// scored day and the crew's status. Virtualized like the other long lists: a worklist may hold
// up to 1000 rows, so every cell stays on one line (fixed 36 px rows).
import { memo } from "react";
import { Link } from "react-router-dom";
import type { WorklistItem, WorklistStatus } from "../api/maintenance";
import { alarmText, formatDriverValue } from "../lib/maintenance";
import { formatLocal } from "../lib/time";
import { sparkJobPath } from "../navigation";
import { localMinute } from "./MaintenanceActiveModel";
import { formatProbability } from "./MaintenancePredictions";
import { virtualRowProps, VirtualTable } from "./SortableTable";
import { StatusBadge, type Tone } from "./StatusBadge";
import { HeaderCells, type HeaderColumn, numeric } from "./TableParts";

/** Height of one row in px (fixed in styles.css: .vtable td). */
export const WORKLIST_ROW_HEIGHT = 36;

/** An item with its place in the server's ranking (kept when a filter hides rows above it). */
export interface RankedItem {
  rank: number;
  item: WorklistItem;
}

const COLUMNS: HeaderColumn[] = [
  numeric("#", "Rank by failure probability"),
  "Equipment",
  { label: "Risk", title: "Failure probability within the model's horizon" },
  { label: "Scored", title: "The day the features were taken from, and the model that scored it" },
  { label: "Drivers", title: "Features on which it stands above the day's fleet, weighted by the model's importance" },
  "Recent alarms",
  { label: "Since", title: "What happened after the scored day" },
  "Status",
  "Note",
];
const ACTIONS: HeaderColumn = { label: "Actions", hidden: true };

export const STATUS_TONES: Record<WorklistStatus, Tone> = {
  open: "info",
  acknowledged: "warn",
  inspected: "ok",
  dismissed: "neutral",
};


/** The local day of an API date-time (as given when it does not parse). */
function localDay(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : formatLocal(ms).slice(0, 10);
}

/** "failure on 2026-07-01 (E999-FAILURE)", "work order inspection on 2026-07-01", or null. */
export function outcomeText(item: Pick<WorklistItem, "outcome" | "outcome_at" | "outcome_detail">): string | null {
  if (item.outcome === null) return null;
  const on = item.outcome_at ? ` on ${localDay(item.outcome_at)}` : "";
  if (item.outcome === "failure") return `failure${on}${item.outcome_detail ? ` (${item.outcome_detail})` : ""}`;
  return `work order${item.outcome_detail ? ` ${item.outcome_detail}` : ""}${on}`;
}

/** "acknowledged by alice, 2026-07-02 08:15 (for the prediction of 2026-06-28)": who marked it
 * and when; undefined before any mark. */
export function markedText(item: WorklistItem): string | undefined {
  if (!item.marked_by && !item.marked_at) return undefined;
  const by = item.marked_by ? ` by ${item.marked_by}` : "";
  const at = item.marked_at ? `, ${localMinute(item.marked_at)}` : "";
  // A mark made on an earlier prediction: the crew saw another day's score.
  const day = item.marked_day && item.marked_day !== item.day ? ` (for the prediction of ${item.marked_day})` : "";
  return `${item.status}${by}${at}${day}`;
}

interface WorklistTableProps {
  rows: readonly RankedItem[];
  /** Operators: a row's "Mark…" button opens the mark dialog (null: no button, no column). */
  onMark: ((item: WorklistItem) => void) | null;
  empty: string;
}

export function WorklistTable({ rows, onMark, empty }: WorklistTableProps) {
  const columns = onMark ? [...COLUMNS, ACTIONS] : COLUMNS;
  return (
    <VirtualTable
      testId="worklist"
      className="wl-table"
      rows={rows}
      rowKey={(row) => row.item.equipment_id}
      rowHeight={WORKLIST_ROW_HEIGHT}
      head={<HeaderCells columns={columns} />}
      span={columns.length}
      empty={empty}
      renderRow={(row, index) => <WorklistRow key={row.item.equipment_id} row={row} index={index} onMark={onMark} />}
    />
  );
}

/** One equipment; re-rendered only when its item changes (a poll keeps unchanged rows cheap). */
const WorklistRow = memo(function WorklistRow({
  row: { rank, item },
  index,
  onMark,
}: {
  row: RankedItem;
  index: number;
  onMark: ((item: WorklistItem) => void) | null;
}) {
  const id = item.equipment_id;
  const percent = Math.min(100, Math.max(0, item.failure_probability * 100));
  const drivers = item.drivers.map((d) => `${d.feature} ${formatDriverValue(d.value)}`);
  const alarms = item.recent_alarms.map(alarmText);
  const outcome = outcomeText(item);
  const marked = markedText(item);
  return (
    <tr data-testid={`worklist-row-${id}`} data-status={item.status} {...virtualRowProps(index)}>
      <td className="num">{rank}</td>
      <td className="mono">{id}</td>
      <td>
        <span className="pm-prob">
          <span className="pm-prob-track" aria-hidden="true">
            <span className="pm-prob-fill" style={{ width: `${percent}%` }} />
          </span>
          <span className="pm-prob-label" data-testid={`worklist-probability-${id}`}>
            {formatProbability(item.failure_probability)}
          </span>
        </span>
      </td>
      <td className="nowrap" data-testid={`worklist-scored-${id}`}>
        {item.day ?? <span className="muted">—</span>}
        {" · "}
        {item.model_id === null ? (
          <span className="muted">no model</span>
        ) : (
          <Link to={sparkJobPath(item.model_id)} title={`Scored by model ${item.model_id}`}>
            #{item.model_id}
          </Link>
        )}
      </td>
      {/* The full list in the tooltip: a narrow cell cuts the last chips. */}
      <td className="wl-cut" title={drivers.join(", ") || undefined} data-testid={`worklist-drivers-${id}`}>
        {item.drivers.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          item.drivers.map((d, i) => (
            <span key={d.feature} className="wl-chip mono" title={`weight ${formatDriverValue(d.weight)}`}>
              {drivers[i]}
            </span>
          ))
        )}
      </td>
      <td className="wl-cut wl-alarms" title={alarms.join(", ") || undefined} data-testid={`worklist-alarms-${id}`}>
        {alarms.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          alarms.map((text) => (
            <span key={text} className="wl-alarm mono">
              {text}
            </span>
          ))
        )}
      </td>
      <td className="wl-cut wl-since" title={outcome ?? undefined} data-testid={`worklist-outcome-${id}`} data-outcome={item.outcome ?? "none"}>
        {outcome === null ? (
          <span className="muted">nothing yet</span>
        ) : (
          <StatusBadge tone={item.outcome === "failure" ? "error" : "warn"}>
            {outcome}
          </StatusBadge>
        )}
      </td>
      <td>
        <StatusBadge tone={STATUS_TONES[item.status]} data-testid={`worklist-status-${id}`}>
          {item.status}
        </StatusBadge>
      </td>
      <td className="wl-cut wl-note" title={marked && (item.note ? `${item.note}\n— ${marked}` : marked)} data-testid={`worklist-note-${id}`}>
        {item.note || <span className="muted">—</span>}
      </td>
      {onMark && (
        <td>
          <button type="button" className="button button-small" onClick={() => onMark(item)} data-testid={`worklist-mark-${id}`}>
            Mark…
          </button>
        </td>
      )}
    </tr>
  );
});
