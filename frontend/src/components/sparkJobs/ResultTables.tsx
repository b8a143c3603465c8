import type { SparkJob } from "../../api/types";
import { formatCount } from "../../lib/format";
import { resultView, type Cell, type ResultTable } from "../../lib/sparkResults";
import { EmptyRow, Table } from "../TableParts";

/** An ISO-8601 UTC time as the scripts write it ("2026-07-01T13:00:00.000Z"). */
const ISO_UTC = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d(?::\d\d(?:\.\d+)?)?)Z$/;

/** "2026-07-01 13:00:00.250 UTC" (".000" left out), or null when `text` is not such a time. */
export function utcText(text: string): string | null {
  const match = ISO_UTC.exec(text);
  return match ? `${match[1]} ${match[2]!.replace(/\.0+$/, "")} UTC` : null;
}

function CellValue({ value }: { value: Cell }) {
  if (value === null) return <span className="muted">—</span>;
  if (typeof value === "number") return <>{formatCount(value)}</>;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  const time = utcText(value);
  return time ? <time dateTime={value}>{time}</time> : <>{value}</>;
}

/** Whether every value of column `i` is a number (or missing): right-aligned. */
function isNumeric(table: ResultTable, i: number): boolean {
  return table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === "number");
}

/** Whether every value of column `i` is a UTC time (or missing): kept on one line. */
function isTime(table: ResultTable, i: number): boolean {
  return table.rows.length > 0 && table.rows.every((row) => row[i] === null || (typeof row[i] === "string" && utcText(row[i]) !== null));
}

/** Tables of four columns and more take two columns of the result grid. */
const WIDE_FROM_COLUMNS = 4;

/** One `{columns, rows}` table; numeric columns (every value a number) right-aligned. */
export function DataTable({ table }: { table: ResultTable }) {
  const numeric = table.columns.map((_, i) => isNumeric(table, i));
  const cellClass = table.columns.map((_, i) => (numeric[i] ? "num" : isTime(table, i) ? undefined : "wrap-soft"));
  return (
    <div className={table.columns.length >= WIDE_FROM_COLUMNS ? "result-block result-block-wide" : "result-block"}>
      <h3 className="result-title">{table.title}</h3>
      <Table columns={table.columns.map((label, i) => ({ label, numeric: numeric[i] }))} className="result-table" data-testid={`result-table-${table.key}`} data-rows={table.rows.length}>
        {table.rows.length === 0 && <EmptyRow span={Math.max(1, table.columns.length)}>{table.empty}</EmptyRow>}
        {table.rows.map((row, r) => (
          <tr key={r}>
            {table.columns.map((_, i) => (
              <td key={i} className={cellClass[i]}>
                <CellValue value={row[i] ?? null} />
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** A succeeded job's result: its headline numbers, then each of its tables. */
export function ResultTables({ job }: { job: Pick<SparkJob, "job_type" | "result"> }) {
  const view = resultView(job.job_type, job.result);
  if (!view) return <p className="empty">The job left no result.</p>;
  return (
    <div className="job-result" data-testid="job-result">
      {view.facts.length > 0 && (
        <dl className="facts result-facts">
          {view.facts.map((f) => (
            <div key={f.key}>
              <dt>{f.label}</dt>
              <dd className={f.mono ? "mono" : undefined} data-testid={`result-fact-${f.key}`}>
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className="result-grid">
        {view.tables.map((table) => (
          <DataTable key={table.key} table={table} />
        ))}
      </div>
    </div>
  );
}
