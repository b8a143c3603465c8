import { humanize } from "../../lib/sparkForm";

/** A param's value as text: lists joined, per-partition maps as "p0: 10, p1: 20", null as the default. */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(", ");
  }
  return String(value);
}

/** The job's params as the server stored them (its defaults filled in; null means "the default"). */
export function JobParams({ params }: { params: Record<string, unknown> }) {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return <p className="empty">No params.</p>;
  return (
    <div className="table-wrap params-wrap">
      <table className="table params-table" data-testid="job-params">
        <tbody>
          {entries.map(([name, value]) => {
            const text = paramText(value);
            return (
              <tr key={name} data-testid={`job-param-${name}`}>
                <th scope="row" title={name}>
                  {humanize(name)}
                </th>
                <td className="mono wrap-soft">{text ?? <span className="muted">default</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
