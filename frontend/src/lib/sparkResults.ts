// A finished Spark job's `result` as facts and tables (docs/spark-jobs.md, the job types' result
// schemas in sparkjobs/job_types.py). Read defensively: a result that does not have the expected
// shape still shows what it has (scalars as facts, `{columns, rows}` and per-partition maps as
// tables, nested objects and arrays as nested tables and lists: NestedValue), never as a JSON dump.
import { formatBytes, formatCount, formatShare } from "./format";
import { humanize } from "./sparkForm";
import { isRecord } from "./isRecord";

export type Scalar = string | number | boolean | null;
/** A table cell: a scalar, or a nested JSON object or array (shown as a nested table or list,
 * never as JSON text). */
export type Cell = Scalar | readonly unknown[] | Readonly<Record<string, unknown>>;

export interface ResultFact {
  /** Stable key (test id `result-fact-{key}`). */
  key: string;
  label: string;
  value: string;
  /** Shown in a monospace font (paths, topic names). */
  mono?: boolean;
}

export interface ResultTable {
  /** Stable key (test id `result-table-{key}`). */
  key: string;
  title: string;
  columns: string[];
  rows: Cell[][];
  /** Shown when there are no rows. */
  empty: string;
  /** A sentence under the title: what the table explains. */
  note?: string;
  /** How a column's numbers are written (default formatCount), by column index. */
  formats?: (((n: number) => string) | undefined)[];
}

/** A bar chart of a result's numbers (one bar per label). */
export interface ResultChart {
  /** Stable key (test id `result-chart-{key}`). */
  key: string;
  title: string;
  /** What a bar's value is ("records"). */
  valueLabel: string;
  bars: { label: string; value: number }[];
}

export interface ResultView {
  facts: ResultFact[];
  tables: ResultTable[];
  /** Charts shown above the tables (none for most results). */
  charts?: ResultChart[];
}

type Json = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function toCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  // Objects and arrays stay as they are: the table shows them nested (NestedValue).
  if (Array.isArray(value) || isRecord(value)) return value;
  return String(value);
}

/** The keys of `items` (objects), in first-seen order: the columns of a table of them. */
export function unionKeys(items: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) keys.add(key);
  return [...keys];
}

/** An array of objects (at least one) as `{columns, rows}`, a column per key any of them has. */
function objectsTable(key: string, title: string, items: readonly unknown[]): ResultTable | null {
  if (items.length === 0 || !items.every(isRecord)) return null;
  const records = items as Record<string, unknown>[];
  const keys = unionKeys(records);
  return { key, title, columns: keys.map(humanize), rows: records.map((r) => keys.map((k) => toCell(r[k]))), empty: "No rows." };
}

/** An object whose values are all objects ({"0": {records, bytes}, ...}) as a table: its key,
 * then a column per key of the values. */
function objectOfObjectsTable(key: string, title: string, value: Json): ResultTable | null {
  const entries = Object.entries(value);
  if (entries.length === 0 || !entries.every(([, v]) => isRecord(v))) return null;
  const keys = unionKeys(entries.map(([, v]) => v as Json));
  return {
    key,
    title,
    columns: ["key", ...keys.map(humanize)],
    rows: entries.map(([k, v]) => [partitionCell(k), ...keys.map((c) => toCell((v as Json)[c]))]),
    empty: "No rows.",
  };
}

/** Partition keys ("0", "10", "any") in numeric order, names after numbers. */
function byPartition(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
  if (Number.isInteger(na)) return -1;
  if (Number.isInteger(nb)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function partitionCell(key: string): Cell {
  const n = Number(key);
  return Number.isInteger(n) && key.trim() !== "" ? n : key;
}

/** `ranges` ({partition: [first, end)}) as read: one row per partition with its record count. */
function rangesTable(ranges: unknown, extra?: { column: string; counts: Json }): ResultTable | null {
  if (!isRecord(ranges)) return null;
  const columns = ["partition", "first offset", "end offset", "records in range"];
  if (extra) columns.push(extra.column);
  const rows = Object.keys(ranges)
    .sort(byPartition)
    .map((partition) => {
      const bounds = ranges[partition];
      const first = Array.isArray(bounds) ? num(bounds[0]) : null;
      const end = Array.isArray(bounds) ? num(bounds[1]) : null;
      const row: Cell[] = [partitionCell(partition), first, end, first !== null && end !== null ? Math.max(0, end - first) : null];
      if (extra) row.push(num(extra.counts[partition]) ?? 0);
      return row;
    });
  return { key: "ranges", title: "Range read", columns, rows, empty: "No partition was read." };
}

/** A {partition: count} map as a two-column table. */
function countsTable(key: string, title: string, column: string, counts: unknown, countColumn = "records"): ResultTable | null {
  if (!isRecord(counts)) return null;
  const rows = Object.keys(counts)
    .sort(byPartition)
    .map((partition) => [partitionCell(partition), toCell(counts[partition])]);
  return { key, title, columns: [column, countColumn], rows, empty: "Nothing was written." };
}

/** A `{columns, rows}` table as the scripts write it. */
function dataTable(key: string, title: string, value: unknown): ResultTable | null {
  if (!isRecord(value) || !Array.isArray(value.columns) || !Array.isArray(value.rows)) return null;
  return {
    key,
    title,
    columns: value.columns.map((c) => humanize(String(c))),
    rows: value.rows.map((row) => (Array.isArray(row) ? row.map(toCell) : [toCell(row)])),
    empty: "No rows.",
  };
}

function fact(key: string, label: string, value: unknown, format: (n: number) => string = formatCount): ResultFact | null {
  if (value === null || value === undefined) return null;
  const n = num(value);
  return { key, label, value: n !== null ? format(n) : String(value) };
}

const present = <T,>(items: (T | null)[]): T[] => items.filter((i): i is T => i !== null);

/** The profile's tables, in reading order, with their titles. */
const PROFILE_TABLES: [key: string, title: string][] = [
  ["partitions", "Records per partition"],
  // Next to the partitions: the keys with most records say why one partition holds more.
  ["top_keys", "Top keys (records, bytes, partitions)"],
  ["hours", "Records per hour (UTC)"],
  ["value_sizes", "Value sizes (bytes)"],
  ["duplicates", "Most copied records"],
  ["sequence", "Sequence checks"],
];

function profileView(result: Json): ResultView {
  const summary = isRecord(result.summary) ? result.summary : {};
  const facts = present([
    fact("records", "Records", summary.records),
    fact("distinct_keys", "Distinct keys", summary.distinct_keys),
    fact("null_keys", "Null keys", summary.null_keys),
    fact("null_values", "Null values", summary.null_values),
    fact("duplicate_records", "Duplicate records", summary.duplicate_records),
    fact("sequence_gaps", "Sequence gaps", summary.sequence_gaps),
    fact("sequence_missing", "Missing sequence numbers", summary.sequence_missing),
    fact("sequence_out_of_order", "Out of order", summary.sequence_out_of_order),
  ]);
  const tables = isRecord(result.tables) ? result.tables : {};
  const known = new Set(PROFILE_TABLES.map(([key]) => key));
  const ordered = [
    ...PROFILE_TABLES.map(([key, title]) => dataTable(key, title, tables[key])),
    ...Object.keys(tables)
      .filter((key) => !known.has(key))
      .map((key) => dataTable(key, humanize(key), tables[key])),
  ];
  const withFormats = ordered.map((table) => (table?.key === "top_keys" ? { ...table, note: TOP_KEYS_NOTE, formats: [undefined, undefined, formatBytes, formatShare] } : table));
  const chart = partitionsChart(tables.partitions);
  return { facts, tables: present([...withFormats, rangesTable(result.ranges)]), charts: chart ? [chart] : [] };
}

const TOP_KEYS_NOTE =
  "The keys with most records, their bytes (keys and values) and the partitions they are in: a partition that holds more than the others usually holds one of these.";

/** The profile's records per partition as bars, when its partitions table has them. */
function partitionsChart(value: unknown): ResultChart | null {
  if (!isRecord(value) || !Array.isArray(value.columns) || !Array.isArray(value.rows)) return null;
  const pi = value.columns.indexOf("partition");
  const ri = value.columns.indexOf("records");
  if (pi < 0 || ri < 0) return null;
  const bars = value.rows.flatMap((row) => {
    const records = Array.isArray(row) ? num(row[ri]) : null;
    return Array.isArray(row) && records !== null ? [{ label: String(row[pi]), value: records }] : [];
  });
  if (bars.length === 0) return null;
  bars.sort((a, b) => byPartition(a.label, b.label));
  return { key: "partitions", title: "Records per partition", valueLabel: "records", bars };
}

function exportView(result: Json): ResultView {
  const facts = present([
    fact("rows", "Rows written", result.rows),
    fact("bytes", "Size", result.bytes, formatBytes),
    fact("files", "Parquet files", result.files),
  ]);
  if (typeof result.output_path === "string") {
    facts.push({ key: "output_path", label: "Output directory", value: result.output_path, mono: true });
  }
  const counts = isRecord(result.partitions) ? result.partitions : {};
  const table = rangesTable(result.ranges, { column: "rows written", counts });
  return { facts, tables: present([table ?? countsTable("partitions", "Rows per partition", "partition", result.partitions, "rows written")]) };
}

function replayView(result: Json): ResultView {
  const facts = present([fact("records", "Records copied", result.records)]);
  if (typeof result.target_topic === "string") {
    facts.push({ key: "target_topic", label: "Target topic", value: result.target_topic, mono: true });
  }
  return {
    facts,
    tables: present([
      countsTable("partitions", "Records written per target partition", "target partition", result.partitions),
      rangesTable(result.ranges),
    ]),
  };
}

/** An array of scalars as one line of text: "a, b, c" (numbers as formatCount writes them). */
function listText(items: readonly unknown[]): string | null {
  if (!items.every((i) => i === null || typeof i !== "object")) return null;
  return items.map((i) => (typeof i === "number" ? formatCount(i) : String(i ?? "—"))).join(", ");
}

/** Any other result: its scalars (and lists of them) as facts, its tables, arrays of objects and
 * maps as tables; what they nest is shown nested in their cells. */
function genericView(result: Json): ResultView {
  const facts: ResultFact[] = [];
  const tables: ResultTable[] = [];
  for (const [key, value] of Object.entries(result)) {
    const label = humanize(key);
    if (value === null || typeof value !== "object") {
      facts.push({ key, label, value: typeof value === "number" ? formatCount(value) : String(value ?? "—") });
    } else if (key === "ranges") {
      const table = rangesTable(value);
      if (table) tables.push(table);
    } else if (Array.isArray(value)) {
      const text = listText(value);
      if (text !== null) facts.push({ key, label, value: text || "—" });
      else tables.push(objectsTable(key, label, value) ?? { key, title: label, columns: ["value"], rows: value.map((v) => [toCell(v)]), empty: "None." });
    } else {
      const table =
        dataTable(key, label, value) ??
        (isRecord(value) ? objectOfObjectsTable(key, label, value) : null) ??
        countsTable(key, label, "key", value, "value");
      if (table) tables.push(table);
    }
  }
  return { facts, tables };
}

/** What a succeeded job's result shows, or null when there is none. */
export function resultView(jobType: string, result: unknown): ResultView | null {
  if (!isRecord(result)) return null;
  switch (jobType) {
    case "topic-profile":
      return profileView(result);
    case "topic-export":
      return exportView(result);
    case "topic-replay":
      return replayView(result);
    default:
      return genericView(result);
  }
}
