// The equipment most likely to fail (GET spark/predictions): the latest prediction per equipment,
// highest probability first, with a small bar per probability, and why: the features that drove
// the score and the recent alarms, which link to the equipment's records in the alarms topic.
import { Fragment } from "react";
import { Link } from "react-router-dom";
import type { Prediction, SparkModel } from "../api/maintenance";
import { alarmText, equipmentFilter, formatDriverValue } from "../lib/maintenance";
import { sparkJobPath, topicMessagesPath } from "../navigation";
import { qualityWarning } from "./MaintenanceModels";
import { type HeaderColumn, TableHead } from "./TableParts";

const PREDICTION_COLUMNS: HeaderColumn[] = [
  "Equipment",
  "Day",
  "Failure probability",
  { label: "Drivers", title: "Features on which it stands above the day's fleet, weighted by the model's importance" },
  { label: "Recent alarms", title: "Its alarms per fault code over the features' shortest window; opens its records" },
  "Model",
];

/** 0.8734 → "87.3 %". */
export function formatProbability(value: number): string {
  return `${(Math.min(1, Math.max(0, value)) * 100).toFixed(1)} %`;
}

interface MaintenancePredictionsProps {
  predictions: Prediction[];
  /** The models (for each prediction's model threshold: at or above it, the row is flagged). */
  models: SparkModel[] | undefined;
  /** Where the equipment's alarms are: its recent alarms link to them in the messages browser. */
  alarms: { cluster: string; topic: string };
}

/** One row per equipment; a probability at or above its model's threshold is flagged red,
 * unless that model is one not to use (then the rows say so instead). */
export function MaintenancePredictions({ predictions, models, alarms }: MaintenancePredictionsProps) {
  if (predictions.length === 0) {
    return (
      <p className="empty" data-testid="pm-predictions-empty">
        No predictions yet: the score step of a pipeline run writes one per equipment.
      </p>
    );
  }
  const thresholds = new Map<number, number>();
  const unusable = new Map<number, string>();
  for (const model of models ?? []) {
    const threshold = model.metrics?.threshold;
    if (typeof threshold === "number") thresholds.set(model.id, threshold);
    const warning = qualityWarning(model);
    if (warning !== null) unusable.set(model.id, warning);
  }
  const unusableHere = [...new Set(predictions.map((p) => p.model_id))].filter((id): id is number => id !== null && unusable.has(id));
  return (
    <div className="table-wrap pm-predictions-wrap">
      {unusableHere.length > 0 && (
        <p className="notice notice-error pm-predictions-warning" role="note" data-testid="pm-predictions-unusable">
          Scored by {unusableHere.length > 1 ? "models" : "model"} {unusableHere.map((id) => `#${id}`).join(", ")}, which{" "}
          {unusableHere.length > 1 ? "are" : "is"} {unusable.get(unusableHere[0]!)?.split(":")[0]}: its probabilities are
          greyed out below; do not plan maintenance on them.
        </p>
      )}
      <table className="table" data-testid="pm-predictions" data-rows={predictions.length}>
        <TableHead columns={PREDICTION_COLUMNS} />
        <tbody>
          {predictions.map((p) => {
            const threshold = p.model_id === null ? undefined : thresholds.get(p.model_id);
            const bad = p.model_id !== null && unusable.has(p.model_id);
            const flagged = !bad && threshold !== undefined && p.failure_probability >= threshold;
            const percent = Math.min(100, Math.max(0, p.failure_probability * 100));
            return (
              <tr
                key={p.equipment_id}
                className={bad ? "pm-prediction-unusable" : undefined}
                data-testid={`pm-prediction-${p.equipment_id}`}
                data-flagged={flagged ? "true" : "false"}
                data-unusable={bad ? "true" : "false"}
              >
                <td className="mono">{p.equipment_id}</td>
                <td className="nowrap">{p.day ?? <span className="muted">—</span>}</td>
                <td>
                  <span
                    className={flagged ? "pm-prob pm-prob-high" : "pm-prob"}
                    title={
                      bad
                        ? `Model #${p.model_id} is ${unusable.get(p.model_id!)}`
                        : threshold === undefined
                          ? undefined
                          : `Model threshold ${threshold}: ${flagged ? "predicted to fail" : "below it"}`
                    }
                  >
                    <span className="pm-prob-track" aria-hidden="true">
                      <span className="pm-prob-fill" style={{ width: `${percent}%` }} />
                    </span>
                    <span className="pm-prob-label" data-testid={`pm-probability-${p.equipment_id}`}>
                      {formatProbability(p.failure_probability)}
                    </span>
                  </span>
                </td>
                <td className="pm-drivers" data-testid={`pm-drivers-${p.equipment_id}`}>
                  {p.drivers.length === 0 ? (
                    <span className="muted">—</span>
                  ) : (
                    p.drivers.map((d) => (
                      <span key={d.feature} className="wl-chip mono" title={`weight ${formatDriverValue(d.weight)}`}>
                        {d.feature} {formatDriverValue(d.value)}
                      </span>
                    ))
                  )}
                </td>
                <td className="pm-alarms">
                  <Link
                    to={topicMessagesPath(alarms.cluster, alarms.topic, equipmentFilter(p.equipment_id))}
                    title={`${p.equipment_id}'s newest records in ${alarms.topic}`}
                    data-testid={`pm-alarms-${p.equipment_id}`}
                  >
                    {p.recent_alarms.length === 0
                      ? "none recent"
                      : p.recent_alarms.map((a, i) => (
                          // One alarm never breaks inside its code ("E101-OVERHEAT").
                          <Fragment key={a.fault_code}>
                            {i > 0 && ", "}
                            <span className="nowrap">{alarmText(a)}</span>
                          </Fragment>
                        ))}
                  </Link>
                </td>
                <td>{p.model_id === null ? <span className="muted">—</span> : <Link to={sparkJobPath(p.model_id)}>#{p.model_id}</Link>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {predictions.some((p) => p.model_id !== null && thresholds.has(p.model_id) && !unusable.has(p.model_id)) && (
        <p className="muted pm-table-note">In red: at or above the threshold of the model that scored it (predicted to fail).</p>
      )}
    </div>
  );
}
