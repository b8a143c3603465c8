// A result's value of any JSON shape, shown as what it is: objects as key/value tables, arrays of
// objects as tables with a column per key, arrays of scalars as an inline list. Never JSON text:
// a JSON dump in a narrow cell broke letter by letter and could not be read.
import { formatCount } from "../../lib/format";
import { isRecord } from "../../lib/isRecord";
import { humanize } from "../../lib/sparkForm";
import { unionKeys } from "../../lib/sparkResults";

/** An ISO-8601 UTC time as the scripts write it ("2026-07-01T13:00:00.000Z"). */
const ISO_UTC = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d(?::\d\d(?:\.\d+)?)?)Z$/;

/** "2026-07-01 13:00:00.250 UTC" (".000" left out), or null when `text` is not such a time. */
export function utcText(text: string): string | null {
  const match = ISO_UTC.exec(text);
  return match ? `${match[1]} ${match[2]!.replace(/\.0+$/, "")} UTC` : null;
}

/** A scalar: a number (never broken across lines), yes/no, a time or the text itself. */
export function ScalarValue({ value, format = formatCount }: { value: unknown; format?: (n: number) => string }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (typeof value === "number") return <span className="nowrap">{format(value)}</span>;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  const text = String(value);
  const time = utcText(text);
  return time ? <time dateTime={text}>{time}</time> : <>{text}</>;
}

const isScalar = (value: unknown) => value === null || typeof value !== "object";

/** Any JSON value; `format` writes a top-level number (a column's own format). */
export function NestedValue({ value, format }: { value: unknown; format?: (n: number) => string }) {
  if (Array.isArray(value)) return <NestedArray items={value} />;
  if (isRecord(value)) return <NestedObject value={value} />;
  return <ScalarValue value={value} format={format} />;
}

function NestedArray({ items }: { items: readonly unknown[] }) {
  if (items.length === 0) return <span className="muted">none</span>;
  if (items.every(isScalar)) {
    // [0, 1] or ["a", "b"]: one line of items, each whole (a line may break between items only).
    return (
      <span className="nested-list" data-items={items.length}>
        {items.map((item, i) => (
          <span key={i} className="nested-item">
            <ScalarValue value={item} />
            {i < items.length - 1 && ", "}
          </span>
        ))}
      </span>
    );
  }
  if (items.every(isRecord)) {
    const records = items as Record<string, unknown>[];
    const keys = unionKeys(records);
    return (
      <table className="nested-table" data-rows={records.length}>
        <thead>
          <tr>
            {keys.map((key) => (
              <th key={key} scope="col">
                {humanize(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record, r) => (
            <tr key={r}>
              {keys.map((key) => (
                <td key={key} className={typeof record[key] === "number" ? "num" : undefined}>
                  <NestedValue value={record[key]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  // Mixed: one item a line.
  return (
    <ol className="nested-items">
      {items.map((item, i) => (
        <li key={i}>
          <NestedValue value={item} />
        </li>
      ))}
    </ol>
  );
}

function NestedObject({ value }: { value: Record<string, unknown> }) {
  const entries = Object.entries(value);
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <table className="nested-table nested-kv" data-rows={entries.length}>
      <tbody>
        {entries.map(([key, item]) => (
          <tr key={key}>
            <th scope="row">{humanize(key)}</th>
            <td className={typeof item === "number" ? "num" : undefined}>
              <NestedValue value={item} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
