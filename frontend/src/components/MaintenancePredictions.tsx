// The equipment most likely to fail (GET spark/predictions): the latest prediction per equipment,
// highest probability first, with a small bar per probability.
import { Link } from "react-router-dom";
import type { Prediction, SparkModel } from "../api/maintenance";
import { sparkJobPath } from "../navigation";
import { type HeaderColumn, TableHead } from "./TableParts";

const PREDICTION_COLUMNS: HeaderColumn[] = ["Equipment", "Day", "Failure probability", "Model"];

/** 0.8734 → "87.3 %". */
export function formatProbability(value: number): string {
  return `${(Math.min(1, Math.max(0, value)) * 100).toFixed(1)} %`;
}

interface MaintenancePredictionsProps {
  predictions: Prediction[];
  /** The models (for each prediction's model threshold: at or above it, the row is flagged). */
  models: SparkModel[] | undefined;
}

/** One row per equipment; a probability at or above its model's threshold is flagged red. */
export function MaintenancePredictions({ predictions, models }: MaintenancePredictionsProps) {
  if (predictions.length === 0) {
    return (
      <p className="empty" data-testid="pm-predictions-empty">
        No predictions yet: the score step of a pipeline run writes one per equipment.
      </p>
    );
  }
  const thresholds = new Map<number, number>();
  for (const model of models ?? []) {
    const threshold = model.metrics?.threshold;
    if (typeof threshold === "number") thresholds.set(model.id, threshold);
  }
  return (
    <div className="table-wrap pm-predictions-wrap">
      <table className="table" data-testid="pm-predictions" data-rows={predictions.length}>
        <TableHead columns={PREDICTION_COLUMNS} />
        <tbody>
          {predictions.map((p) => {
            const threshold = p.model_id === null ? undefined : thresholds.get(p.model_id);
            const flagged = threshold !== undefined && p.failure_probability >= threshold;
            const percent = Math.min(100, Math.max(0, p.failure_probability * 100));
            return (
              <tr key={p.equipment_id} data-testid={`pm-prediction-${p.equipment_id}`} data-flagged={flagged ? "true" : "false"}>
                <td className="mono">{p.equipment_id}</td>
                <td className="nowrap">{p.day ?? <span className="muted">—</span>}</td>
                <td>
                  <span
                    className={flagged ? "pm-prob pm-prob-high" : "pm-prob"}
                    title={threshold === undefined ? undefined : `Model threshold ${threshold}: ${flagged ? "predicted to fail" : "below it"}`}
                  >
                    <span className="pm-prob-track" aria-hidden="true">
                      <span className="pm-prob-fill" style={{ width: `${percent}%` }} />
                    </span>
                    <span className="pm-prob-label" data-testid={`pm-probability-${p.equipment_id}`}>
                      {formatProbability(p.failure_probability)}
                    </span>
                  </span>
                </td>
                <td>{p.model_id === null ? <span className="muted">—</span> : <Link to={sparkJobPath(p.model_id)}>#{p.model_id}</Link>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {thresholds.size > 0 && (
        <p className="muted pm-table-note">In red: at or above the threshold of the model that scored it (predicted to fail).</p>
      )}
    </div>
  );
}
