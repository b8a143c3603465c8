import { Link } from "react-router-dom";
import type { AuditEntry } from "../../api/types";
import { auditEntryLink, beforeAfterRows, changeValueText, formatJson, type ChangeRow } from "../../lib/audit";
import { formatLocal, formatUtc } from "../../lib/time";

/**
 * An opened audit entry, in a box of fixed height (the virtualized table knows it before it
 * renders): when and where it leads, then its request and details as indented JSON, each panel
 * scrolling by itself; a change that recorded both `before` and `after` (quotas, users) also as a
 * before → after table, changed values marked.
 */
export function AuditEntryDetail({ entry, height }: { entry: AuditEntry; height: number }) {
  const at = Date.parse(entry.at);
  const link = auditEntryLink(entry);
  const request = formatJson(entry.request);
  const details = formatJson(entry.details);
  const change = beforeAfterRows(entry.details);
  return (
    <div className="audit-detail" style={{ height }}>
      <div className="audit-detail-head">
        <span className="muted">
          #{entry.id} · {Number.isNaN(at) ? entry.at : `${formatLocal(at)} (${formatUtc(at)})`} · by{" "}
          <strong className="mono">{entry.actor}</strong>
        </span>
        {link && (
          <Link to={link.to} className="audit-detail-link" data-testid={`audit-detail-link-${entry.id}`}>
            Open {link.label} →
          </Link>
        )}
      </div>
      <div className={change ? "audit-panels audit-panels-3" : "audit-panels"}>
        {change && (
          <section className="audit-panel" aria-label="Before and after">
            <h3 className="audit-panel-title">Before → after</h3>
            <ChangeTable id={entry.id} rows={change} />
          </section>
        )}
        <section className="audit-panel" aria-label="Request">
          <h3 className="audit-panel-title">Request</h3>
          {request ? (
            <pre className="audit-json" data-testid={`audit-request-${entry.id}`}>
              {request}
            </pre>
          ) : (
            <p className="muted audit-none" data-testid={`audit-request-${entry.id}`}>
              No body (a path and method say it all).
            </p>
          )}
        </section>
        <section className="audit-panel" aria-label="Details">
          <h3 className="audit-panel-title">Details</h3>
          {details ? (
            <pre className="audit-json" data-testid={`audit-details-${entry.id}`}>
              {details}
            </pre>
          ) : (
            <p className="muted audit-none" data-testid={`audit-details-${entry.id}`}>
              No details recorded.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

/** The before → after rows: path, value before, value after; a changed one in bold. */
function ChangeTable({ id, rows }: { id: number; rows: readonly ChangeRow[] }) {
  if (rows.length === 0) return <p className="muted audit-none">Nothing recorded on either side.</p>;
  return (
    <table className="table audit-change-table" data-testid={`audit-change-${id}`}>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.key}
            className={row.changed ? "audit-changed" : undefined}
            data-testid={`audit-change-${id}-${row.key || "value"}`}
            data-changed={row.changed}
          >
            {row.key !== "" && <th scope="row" className="mono">{row.key}</th>}
            <td className="mono" data-side="before">
              {changeValueText(row.before)}
            </td>
            <td className="audit-arrow" aria-label="became">
              →
            </td>
            <td className="mono" data-side="after">
              {changeValueText(row.after)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
