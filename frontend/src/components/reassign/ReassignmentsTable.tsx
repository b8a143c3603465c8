import { Link } from "react-router-dom";
import type { ReassignmentRow } from "../../api/types";
import { formatCount } from "../../lib/format";
import { formatThrottle, topicsSummary } from "../../lib/reassign";
import { formatLocal } from "../../lib/time";
import { reassignmentPath } from "../../navigation";
import { EmptyRow, numeric, Table, type HeaderColumn } from "../TableParts";
import { ReassignmentStateBadge } from "./ReassignmentStateBadge";

const COLUMNS: HeaderColumn[] = [
  numeric("#"),
  "State",
  "Topics",
  numeric("Partitions"),
  { label: "Throttle", title: "Per broker, sending and receiving" },
  "By",
  "Started",
  "Reason",
];

/** The console's reassignments of the cluster, newest first (the API's 200 at most). */
export function ReassignmentsTable({ cluster, rows }: { cluster: string; rows: ReassignmentRow[] }) {
  return (
    <section data-testid="reassignments">
      <h2>Reassignments</h2>
      <Table columns={COLUMNS} data-testid="reassignments-table">
        {rows.length === 0 && <EmptyRow span={COLUMNS.length}>No reassignment was started from this console on this cluster.</EmptyRow>}
        {rows.map((r) => (
          <ReassignmentLine key={r.id} cluster={cluster} row={r} />
        ))}
      </Table>
    </section>
  );
}

function ReassignmentLine({ cluster, row: r }: { cluster: string; row: ReassignmentRow }) {
  const created = Date.parse(r.created_at);
  return (
    <tr data-testid={`reassignment-row-${r.id}`} data-state={r.state}>
      <td className="num">
        <Link to={reassignmentPath(cluster, r.id)} className="strong-link">
          #{r.id}
        </Link>
      </td>
      <td>
        <ReassignmentStateBadge state={r.state} />
      </td>
      <td className="mono name-cell" title={r.topics.join(", ")}>
        {topicsSummary(r.topics)}
      </td>
      <td className="num">{formatCount(r.partition_count)}</td>
      <td className={r.throttle_bytes_per_s === null ? "nowrap muted" : "nowrap"}>{formatThrottle(r.throttle_bytes_per_s)}</td>
      <td>{r.created_by}</td>
      <td className="nowrap" title={r.finished_at ? `finished ${r.finished_at}` : r.created_at}>
        {Number.isNaN(created) ? r.created_at : formatLocal(created).slice(0, 19)}
      </td>
      <td className={r.reason ? "wrap-soft" : "muted"}>
        {r.reason || "—"}
        {r.error && (
          <span className="field-error small-line" title={r.error}>
            {r.error}
          </span>
        )}
      </td>
    </tr>
  );
}
