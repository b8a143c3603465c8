import { formatCount } from "../../lib/format";
import type { ScramRow } from "../../lib/scramUsers";
import { EmptyRow, Table, type HeaderColumn } from "../TableParts";

const COLUMNS: HeaderColumn[] = [
  "User",
  "Mechanism",
  { label: "Iterations", numeric: true, title: "PBKDF2 iterations of the salted password" },
  { label: "Actions", hidden: true },
];

interface ScramUsersTableProps {
  rows: readonly ScramRow[];
  onRotate: (row: ScramRow) => void;
  onDelete: (row: ScramRow) => void;
  /** A delete is on its way: the buttons wait. */
  disabled: boolean;
}

/** One row per credential (a user with both mechanisms has two), with "Rotate password" (loads it
 * into the form) and "Delete…" (a confirmation first). */
export function ScramUsersTable({ rows, onRotate, onDelete, disabled }: ScramUsersTableProps) {
  return (
    <Table columns={COLUMNS} className="scram-table" data-testid="scram-users-table" data-count={rows.length}>
      {rows.length === 0 ? (
        <EmptyRow span={COLUMNS.length} testId="scram-users-empty">
          No SCRAM users on this cluster: create one below.
        </EmptyRow>
      ) : (
        rows.map((row, index) => (
          <tr
            key={`${row.user}\u0000${row.mechanism}`}
            className={row.first ? "scram-row scram-row-first" : "scram-row"}
            data-testid={`scram-row-${index}`}
            data-user={row.user}
            data-mechanism={row.mechanism}
          >
            <td className="mono name-cell" title={row.user}>
              {row.first ? row.user : <span className="visually-hidden">{row.user}</span>}
            </td>
            <td className="nowrap">{row.mechanism}</td>
            <td className="num">{formatCount(row.iterations)}</td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => onRotate(row)}
                  title="Load this credential into the form to give it a new password"
                  data-testid={`scram-rotate-${index}`}
                >
                  Rotate password
                </button>
                <button
                  type="button"
                  className="button button-small button-danger-outline"
                  disabled={disabled}
                  onClick={() => onDelete(row)}
                  data-testid={`scram-delete-${index}`}
                >
                  Delete…
                </button>
              </div>
            </td>
          </tr>
        ))
      )}
    </Table>
  );
}
