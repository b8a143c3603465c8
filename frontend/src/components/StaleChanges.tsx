import { ApiError } from "../api/client";
import type { PlanChange } from "../api/types";
import { formatCount } from "../lib/format";

/** What changed since a preview, when executing it was refused with 409 plan_stale. */
export function StaleChanges({ error, onPreviewAgain }: { error: Error; onPreviewAgain: () => void }) {
  if (!(error instanceof ApiError) || error.code !== "plan_stale") return null;
  const changes = (error.details?.changes ?? []) as PlanChange[];
  const show = (value: number | null) => (value === null ? "none" : formatCount(value));
  return (
    <div className="stale-changes" data-testid="plan-stale">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col" className="num">Partition</th>
            <th scope="col" className="num">Committed at preview</th>
            <th scope="col" className="num">Committed now</th>
            <th scope="col" className="num">Log start – end now</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={`${c.topic}-${c.partition}`} data-testid={`plan-stale-row-${c.topic}-${c.partition}`}>
              <td className="mono">{c.topic}</td>
              <td className="num">{c.partition}</td>
              <td className="num">{show(c.planned_current_offset)}</td>
              <td className="num">{show(c.current_offset)}</td>
              <td className="num">
                {show(c.log_start_offset)} – {show(c.log_end_offset)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="button" onClick={onPreviewAgain} data-testid="preview-again">
        Preview again
      </button>
    </div>
  );
}
