import type { QuotaChanged } from "../../api/types";
import { entityLabel, exactQuotaValue, formatQuotaValue, isQuotaKey, QUOTA_KEY_INFO, quotaDiff } from "../../lib/quotas";
import { Table } from "../TableParts";

function Value({ quotaKey, value }: { quotaKey: string; value: number | null }) {
  if (value === null) return <span className="muted">not set</span>;
  return <span title={exactQuotaValue(quotaKey, value)}>{formatQuotaValue(quotaKey, value)}</span>;
}

/** What a change did, from its answer: every key set before or after, before → after (the ones it
 * changed marked). */
export function QuotaChangeResult({ answer }: { answer: QuotaChanged }) {
  const rows = quotaDiff(answer);
  const left = Object.keys(answer.values).length;
  return (
    <div className="preview" data-testid="quota-result">
      <p className="notice notice-ok" role="status">
        Saved the quotas of <strong>{entityLabel(answer.entity)}</strong>
        {left === 0 ? ": it has none left." : "."}
      </p>
      {rows.length > 0 && (
        <Table
          columns={["Quota", { label: "Before", numeric: true }, { label: "", hidden: true }, { label: "After", numeric: true }]}
          wrapClassName="quota-result-wrap"
          data-testid="quota-result-table"
        >
          {rows.map((row) => {
            const changed = row.before !== row.after;
            return (
              <tr
                key={row.key}
                className={changed ? undefined : "muted"}
                data-testid={`quota-result-${row.key}`}
                data-before={row.before ?? ""}
                data-after={row.after ?? ""}
                data-changed={changed}
              >
                <td>{isQuotaKey(row.key) ? QUOTA_KEY_INFO[row.key].label : <span className="mono">{row.key}</span>}</td>
                <td className="num">
                  <Value quotaKey={row.key} value={row.before} />
                </td>
                <td className="quota-arrow" aria-hidden="true">
                  →
                </td>
                <td className={changed ? "num quota-changed" : "num"}>
                  <Value quotaKey={row.key} value={row.after} />
                  {!changed && <span className="muted"> (unchanged)</span>}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
    </div>
  );
}
