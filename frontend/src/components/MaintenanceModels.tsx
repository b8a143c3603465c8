// The trained models (GET spark/models), which is active, and the chosen one's ROC curve, feature
// importances, realised performance and feature drift.
import { lazy, useMemo } from "react";
import { Link } from "react-router-dom";
import type { ActiveModel, FeatureImportance, SparkModel } from "../api/maintenance";
import { formatShare } from "../lib/format";
import { sparkJobPath } from "../navigation";
import { ChartCard, LazyChart } from "./ChartCard";
import { ChallengeBadge, ChallengeNotice } from "./MaintenanceChallenge";
import { localMinute, usePromoteDialog } from "./MaintenanceActiveModel";
import { MaintenanceDrift } from "./MaintenanceDrift";
import { MaintenancePerformance } from "./MaintenancePerformance";
import { formatScore } from "./MaintenanceSteps";
import type { RocPoint } from "./MaintenanceRocChart";
import { StatusBadge } from "./StatusBadge";
import { type HeaderColumn, numeric, Table } from "./TableParts";

const MODEL_COLUMNS: HeaderColumn[] = [
  "Model",
  "Created",
  "Algorithm",
  numeric("ROC AUC"),
  numeric("PR AUC"),
  numeric("Precision"),
  numeric("Recall"),
  numeric("Threshold"),
];

// recharts loads with the first chart, in its own chunk.
const RocChart = lazy(() => import("./MaintenanceRocChart"));
const ImportanceChart = lazy(() => import("./MaintenanceImportanceChart"));

/** How many features the importance chart shows (the rest add little, and make it tall). */
export const TOP_FEATURES = 15;

/** The model's most important features, largest first (the server sorts them; an older or
 * hand-written answer may not), at most `TOP_FEATURES`; [] when it has none. */
export function topImportances(model: SparkModel, limit = TOP_FEATURES): FeatureImportance[] {
  const all = Array.isArray(model.feature_importances) ? model.feature_importances : [];
  return all
    .filter((f) => typeof f.feature === "string" && typeof f.importance === "number" && Number.isFinite(f.importance))
    .sort((a, b) => b.importance - a.importance || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0))
    .slice(0, limit);
}

function metric(model: SparkModel, key: "roc_auc" | "pr_auc" | "precision" | "recall" | "threshold"): number | null {
  const value = model.metrics?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The model's ROC curve as points, fpr ascending; [] when it has none. Rows are [fpr, tpr]
 * (the columns may say otherwise: then they are looked up by name). */
export function rocPoints(model: SparkModel): RocPoint[] {
  const curve = model.roc_curve;
  if (!curve || !Array.isArray(curve.rows)) return [];
  const columns = Array.isArray(curve.columns) ? curve.columns : [];
  const fi = columns.indexOf("fpr") >= 0 ? columns.indexOf("fpr") : 0;
  const ti = columns.indexOf("tpr") >= 0 ? columns.indexOf("tpr") : 1;
  const points: RocPoint[] = [];
  for (const row of curve.rows) {
    if (!Array.isArray(row)) continue;
    const fpr = row[fi];
    const tpr = row[ti];
    if (typeof fpr === "number" && typeof tpr === "number" && Number.isFinite(fpr) && Number.isFinite(tpr)) points.push({ fpr, tpr });
  }
  return points.sort((a, b) => a.fpr - b.fpr || a.tpr - b.tpr);
}

/** The warning a model the server judged unusable carries (null: usable, or an older server
 * that does not say). The rule is the server's (maintenance/service.py model_quality). */
export function qualityWarning(model: SparkModel): string | null {
  if (model.quality === "chance") return "no better than chance: do not use";
  if (model.quality === "unmeasured") return "not measured: do not use";
  return null;
}

function QualityBadge({ model }: { model: SparkModel }) {
  const warning = qualityWarning(model);
  if (warning === null) return null;
  // Wrapped to keep the column narrow, "do not use" kept on one line.
  const [what, todo] = warning.split(": ");
  return (
    <span className="pm-quality">
      <StatusBadge tone="error" title={model.quality_reason ?? undefined} data-testid={`pm-model-quality-${model.id}`}>
        {what}: <span className="nowrap">{todo}</span>
      </StatusBadge>
    </span>
  );
}

/** The active model of its cluster: "Active", or "Active on X" for another cluster than the
 * page's (the list holds every cluster's models). */
function ActiveBadge({ model, cluster }: { model: SparkModel; cluster: string }) {
  return (
    <span className="pm-model-tag">
      <StatusBadge
        tone="ok"
        title={`The active model of ${model.cluster}: score jobs there that name no model use it`}
        data-testid={`pm-model-active-${model.id}`}
      >
        {model.cluster === cluster || cluster === "" ? "Active" : `Active on ${model.cluster}`}
      </StatusBadge>
    </span>
  );
}

interface MaintenanceModelsProps {
  models: SparkModel[];
  /** The chosen model's id (null: the newest). */
  selected: number | null;
  onSelect: (id: number) => void;
  /** The page's chosen cluster: only its models can be made active here. */
  cluster?: string;
  /** Operators and admins: a usable model of `cluster` that is not active offers "Make active",
   * and the chosen model's performance "Measure now". */
  canPromote?: boolean;
  /** After a promotion, with its answer (the cluster's new active model). */
  onPromoted?: (state: ActiveModel) => void;
}

/** The models, newest first, one of them chosen (its row highlighted) with its ROC curve beside;
 * the active one badged, the others of the chosen cluster that are usable promotable. */
export function MaintenanceModels({ models, selected, onSelect, cluster = "", canPromote = false, onPromoted }: MaintenanceModelsProps) {
  const [promote, promoteDialog] = usePromoteDialog(onPromoted);
  const chosen = models.find((m) => m.id === selected) ?? models[0];
  if (!chosen) {
    return (
      <p className="empty" data-testid="pm-models-empty">
        No model yet: a pipeline run (or a train-model job) that succeeds adds one here.
      </p>
    );
  }
  return (
    <div className="pm-models">
      <Table columns={MODEL_COLUMNS} wrapClassName="pm-models-table" data-testid="pm-models" data-rows={models.length}>
        {models.map((model) => {
          const isChosen = model.id === chosen.id;
          const unusable = qualityWarning(model) !== null;
          // Only a model the server says is usable (not an older server's unjudged one): it refuses the others.
          const promotable = canPromote && cluster !== "" && model.cluster === cluster && model.quality === "usable" && !model.active;
          return (
            <tr
              key={model.id}
              className={`pm-model-row${isChosen ? " selected" : ""}${unusable ? " pm-model-unusable" : ""}`}
              aria-selected={isChosen}
              data-testid={`pm-model-${model.id}`}
              data-selected={isChosen ? "true" : "false"}
              onClick={() => onSelect(model.id)}
            >
              <td>
                <button
                  type="button"
                  className="pm-link-button"
                  onClick={(event) => {
                    event.stopPropagation();
                    onSelect(model.id);
                  }}
                  aria-pressed={isChosen}
                  title="Show its ROC curve"
                  data-testid={`pm-model-select-${model.id}`}
                >
                  #{model.id}
                </button>{" "}
                <Link to={sparkJobPath(model.job_id ?? model.id)} className="muted pm-small-link" onClick={(e) => e.stopPropagation()}>
                  job
                </Link>
                {unusable && <QualityBadge model={model} />}
                {model.active && <ActiveBadge model={model} cluster={cluster} />}
                <ChallengeBadge model={model} />
                {promotable && (
                  <span className="pm-model-tag">
                    <button
                      type="button"
                      className="button button-small"
                      onClick={(event) => {
                        event.stopPropagation();
                        promote(model);
                      }}
                      title={`Score jobs on ${model.cluster} that name no model will use this one`}
                      data-testid={`pm-promote-${model.id}`}
                    >
                      Make active
                    </button>
                  </span>
                )}
              </td>
              <td className="nowrap" title={model.created_at}>{localMinute(model.created_at)}</td>
              <td className="mono">{model.algorithm ?? <span className="muted">—</span>}</td>
              <td className="num" data-testid={`pm-model-auc-${model.id}`}>
                {formatScore(metric(model, "roc_auc"))}
              </td>
              <td className="num">{formatScore(metric(model, "pr_auc"))}</td>
              <td className="num">{formatScore(metric(model, "precision"))}</td>
              <td className="num">{formatScore(metric(model, "recall"))}</td>
              <td className="num">{formatScore(metric(model, "threshold"), 2)}</td>
            </tr>
          );
        })}
      </Table>
      <div className="pm-model-charts">
        <ModelWarning model={chosen} />
        <ChallengeNotice model={chosen} />
        <RocCurve model={chosen} />
        <FeatureImportances model={chosen} />
      </div>
      {/* How its predictions turned out since (under the table and curves: it needs the width). */}
      {/* Keys unique among these siblings: two equal ones leave a model's card behind when
          another model is chosen. */}
      <MaintenancePerformance key={`performance-${chosen.id}`} model={chosen} canMeasure={canPromote} />
      {/* How far the days it scored drifted from the ones it learned from. */}
      <MaintenanceDrift key={`drift-${chosen.id}`} model={chosen} />
      {promoteDialog}
    </div>
  );
}

/** Above the chosen model's charts: why not to use it, and what to do instead. */
function ModelWarning({ model }: { model: SparkModel }) {
  const warning = qualityWarning(model);
  if (warning === null) return null;
  const reason = model.quality_reason ? `${model.quality_reason.charAt(0).toUpperCase()}${model.quality_reason.slice(1)}.` : "";
  return (
    <p className="notice notice-error pm-model-warning" role="note" data-testid="pm-model-warning">
      <strong>
        Model #{model.id}: {warning}.
      </strong>{" "}
      {reason} Its predictions are no basis for maintenance: train another one (more history, another cut-off date or
      algorithm).
    </p>
  );
}

function RocCurve({ model }: { model: SparkModel }) {
  const points = useMemo(() => rocPoints(model), [model]);
  const auc = metric(model, "roc_auc");
  return (
    <ChartCard
      className="pm-roc"
      data-testid="pm-roc"
      data-model={model.id}
      data-points={points.length}
      aria-label="ROC curve"
      caption={
        <>
          <strong className="pm-roc-title" data-testid="pm-roc-title">
            ROC curve · model #{model.id} · AUC {formatScore(auc)}
          </strong>
          <span>dashed: a model that guesses (AUC 0.5)</span>
        </>
      }
    >
      <LazyChart empty={points.length === 0 && "This model has no ROC curve (its test set had no positive or no negative)."}>
        <RocChart points={points} />
      </LazyChart>
    </ChartCard>
  );
}

function FeatureImportances({ model }: { model: SparkModel }) {
  const bars = useMemo(() => topImportances(model), [model]);
  const total = Array.isArray(model.feature_importances) ? model.feature_importances.length : 0;
  const top = bars[0];
  return (
    <ChartCard
      className="pm-importances"
      data-testid="pm-importances"
      data-model={model.id}
      data-bars={bars.length}
      aria-label="Feature importances"
      caption={
        <>
          <strong data-testid="pm-importances-title">
            Feature importances · model #{model.id}
            {total > bars.length && ` · top ${bars.length} of ${total}`}
          </strong>
          {top && <span>most important: {top.feature} ({formatShare(top.importance)})</span>}
        </>
      }
    >
      <LazyChart empty={bars.length === 0 && "This model's result has no feature importances."}>
        <ImportanceChart bars={bars} />
      </LazyChart>
    </ChartCard>
  );
}
