import { lazy } from "react";
import type { SparkJob } from "../../api/types";
import { formatCount } from "../../lib/format";
import { resultView, type ResultChart, type ResultTable } from "../../lib/sparkResults";
import { ChartCard, LazyChart } from "../ChartCard";
import { EmptyRow, Table } from "../TableParts";
import { NestedValue, utcText } from "./NestedValue";

export { utcText };

// recharts loads with the first chart, in its own chunk.
const ResultBars = lazy(() => import("./ResultBars"));

const isNested = (value: unknown) => value !== null && typeof value === "object";

/** Whether every value of column `i` is a number (or missing): right-aligned. */
function isNumeric(table: ResultTable, i: number): boolean {
  return table.rows.length > 0 && table.rows.every((row) => row[i] === null || typeof row[i] === "number");
}

/** Whether every value of column `i` is a UTC time (or missing): kept on one line. */
function isTime(table: ResultTable, i: number): boolean {
  return table.rows.length > 0 && table.rows.every((row) => row[i] === null || (typeof row[i] === "string" && utcText(row[i]) !== null));
}

/** Whether a value of column `i` is an object or an array (a nested table or list). */
function hasNested(table: ResultTable, i: number): boolean {
  return table.rows.some((row) => isNested(row[i]));
}

/** Tables of four columns and more take two columns of the result grid, as do tables holding
 * nested tables (they need the room). */
const WIDE_FROM_COLUMNS = 4;

/** The class of column `i`'s cells: numbers right-aligned and whole, times whole, text wrapped
 * between words (never inside one), nested values as nested tables. */
function columnClass(table: ResultTable, i: number): string | undefined {
  if (isNumeric(table, i)) return "num";
  if (isTime(table, i)) return undefined;
  return hasNested(table, i) ? "wrap-soft nested-cell" : "wrap-soft";
}

/** One `{columns, rows}` table; numeric columns (every value a number) right-aligned. */
export function DataTable({ table }: { table: ResultTable }) {
  const numeric = table.columns.map((_, i) => isNumeric(table, i));
  const cellClass = table.columns.map((_, i) => columnClass(table, i));
  const wide = table.columns.length >= WIDE_FROM_COLUMNS || table.columns.some((_, i) => hasNested(table, i));
  return (
    <div className={wide ? "result-block result-block-wide" : "result-block"}>
      <h3 className="result-title">{table.title}</h3>
      {table.note && <p className="muted result-note">{table.note}</p>}
      <Table columns={table.columns.map((label, i) => ({ label, numeric: numeric[i] }))} className="result-table" data-testid={`result-table-${table.key}`} data-rows={table.rows.length}>
        {table.rows.length === 0 && <EmptyRow span={Math.max(1, table.columns.length)}>{table.empty}</EmptyRow>}
        {table.rows.map((row, r) => (
          <tr key={r}>
            {table.columns.map((_, i) => (
              <td key={i} className={cellClass[i]}>
                <NestedValue value={row[i] ?? null} format={table.formats?.[i]} />
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** A bar chart of the result (records per partition), full width above the tables. */
function ResultChartBlock({ chart }: { chart: ResultChart }) {
  const total = chart.bars.reduce((sum, b) => sum + b.value, 0);
  const max = chart.bars.reduce((m, b) => Math.max(m, b.value), 0);
  const mean = chart.bars.length > 0 ? total / chart.bars.length : 0;
  return (
    <ChartCard
      className="result-chart"
      data-testid={`result-chart-${chart.key}`}
      data-bars={chart.bars.length}
      aria-label={chart.title}
      caption={
        <>
          <strong>{chart.title}</strong>
          {/* The skew in one number: the fullest bar against the mean of them all. */}
          <span data-testid={`result-chart-${chart.key}-skew`}>
            largest {formatCount(max)} · mean {formatCount(Math.round(mean * 10) / 10)}
            {mean > 0 && ` · ${(max / mean).toFixed(2)}× the mean`}
          </span>
        </>
      }
    >
      <LazyChart>
        <ResultBars chart={chart} />
      </LazyChart>
    </ChartCard>
  );
}

/** A succeeded job's result: its headline numbers, its charts, then each of its tables. */
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
      {view.charts?.map((chart) => (
        <ResultChartBlock key={chart.key} chart={chart} />
      ))}
      <div className="result-grid">
        {view.tables.map((table) => (
          <DataTable key={table.key} table={table} />
        ))}
      </div>
    </div>
  );
}
