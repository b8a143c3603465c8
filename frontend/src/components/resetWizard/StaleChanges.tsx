import { formatCount } from "../../lib/format";
import { planChanges } from "../../lib/resetPlans";
import { TableHead } from "../TableParts";

const offset = (value: number | null | undefined) => (value === null || value === undefined ? "none" : formatCount(value));

/**
 * What changed since the preview, when executing it was refused with 409 plan_stale: one row per
 * partition (committed offset then and now; the planned offset and today's log range when the
 * server sends them) and "Preview again" (where there is one: not on the approvals page). Nothing
 * for any other error.
 */
export function StaleChanges({
  error,
  busy,
  onPreviewAgain,
}: {
  error: Error;
  busy?: boolean;
  onPreviewAgain?: () => void;
}) {
  const changes = planChanges(error);
  if (changes === null) return null;
  const withTarget = changes.some((c) => c.new_offset !== undefined);
  const withRange = changes.some((c) => c.log_start_offset !== undefined || c.log_end_offset !== undefined);
  return (
    <div className="stale-changes" data-testid="plan-stale" data-count={changes.length}>
      {changes.length > 0 && (
        <table className="table">
          <TableHead
            columns={[
              "Topic",
              { label: "Partition", numeric: true },
              { label: "Committed at preview", numeric: true },
              { label: "Committed now", numeric: true },
              ...(withTarget ? [{ label: "Planned new offset", numeric: true }] : []),
              ...(withRange ? [{ label: "Log start – end now", numeric: true }] : []),
            ]}
          />
          <tbody>
            {changes.map((c) => (
              <tr key={`${c.topic}-${c.partition}`} data-testid={`plan-stale-row-${c.topic}-${c.partition}`}>
                <td className="mono">{c.topic}</td>
                <td className="num">{c.partition}</td>
                <td className="num">{offset(c.planned_current_offset)}</td>
                <td className={c.current_offset !== c.planned_current_offset ? "num cell-bad" : "num"}>
                  {offset(c.current_offset)}
                </td>
                {withTarget && <td className="num">{offset(c.new_offset)}</td>}
                {withRange && (
                  <td className="num">
                    {offset(c.log_start_offset)} – {offset(c.log_end_offset)}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {onPreviewAgain && (
        <button type="button" className="button" onClick={onPreviewAgain} disabled={busy} data-testid="preview-again">
          {busy ? "Planning…" : "Preview again"}
        </button>
      )}
    </div>
  );
}
