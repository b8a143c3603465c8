// What the predictive-maintenance page works out from the pipeline's job type and its runs:
// the demo backfill command before a first run, and which predictions topics there are.
import type { SparkJobType } from "../api/types";
import { isRecord } from "./isRecord";

/** The demo history's backfill (docs/maintenance-data.md). The server names the same command
 * in a missing input topic's 400 (maintenance/types_features.py; a unit test checks both). */
export const BACKFILL_COMMAND = ".venv/bin/python manage.py demotraffic --backfill";

/** The topics the pipeline reads and writes by default (the job type's schema defaults). */
export interface PipelineTopics {
  alarms: string;
  workOrders: string;
  predictions: string;
}

// The documented defaults, for a schema that does not say (an older or stripped one).
const FALLBACK_TOPICS: PipelineTopics = { alarms: "equipment-alarms", workOrders: "work-orders", predictions: "equipment-failure-predictions" };

function schemaDefault(jobType: SparkJobType | undefined, step: string, field: string): string | undefined {
  const steps = jobType?.params_schema.properties;
  const props = isRecord(steps) && isRecord(steps[step]) ? steps[step].properties : undefined;
  const value = isRecord(props) && isRecord(props[field]) ? props[field].default : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function pipelineTopics(jobType: SparkJobType | undefined): PipelineTopics {
  return {
    alarms: schemaDefault(jobType, "features", "alarms_topic") ?? FALLBACK_TOPICS.alarms,
    workOrders: schemaDefault(jobType, "labels", "work_orders_topic") ?? FALLBACK_TOPICS.workOrders,
    predictions: schemaDefault(jobType, "score", "predictions_topic") ?? FALLBACK_TOPICS.predictions,
  };
}

/** The backfill command for this cluster and topic pair: only what differs from the
 * command's own defaults (cluster `local`, the default topics) is named. */
export function backfillCommand(cluster: string, topics: PipelineTopics): string {
  const parts = [BACKFILL_COMMAND];
  if (cluster !== "" && cluster !== "local") parts.push(`--cluster ${cluster}`);
  if (topics.alarms !== FALLBACK_TOPICS.alarms) parts.push(`--alarms-topic ${topics.alarms}`);
  if (topics.workOrders !== FALLBACK_TOPICS.workOrders) parts.push(`--work-orders-topic ${topics.workOrders}`);
  return parts.join(" ");
}

/** The predictions topic a pipeline run writes (its saved params; the default when it has none). */
export function runPredictionsTopic(run: { params?: unknown } | null | undefined, fallback: string): string {
  const score = isRecord(run?.params) ? run.params.score : undefined;
  const topic = isRecord(score) ? score.predictions_topic : undefined;
  return typeof topic === "string" && topic !== "" ? topic : fallback;
}

/** The predictions topics to choose from on a cluster: the default, those its runs wrote
 * (newest first) and the one asked for (a URL may name another), each once. */
export function predictionsTopicChoices(
  runs: readonly { cluster: string; params?: unknown }[],
  cluster: string,
  fallback: string,
  asked: string | null,
): string[] {
  const topics = runs.filter((run) => run.cluster === cluster).map((run) => runPredictionsTopic(run, fallback));
  return [...new Set([fallback, ...topics, ...(asked ? [asked] : [])])];
}

/** The alarms topic behind a predictions topic: that of the newest run on `cluster` that wrote
 * it (its saved params), else the default. */
export function runAlarmsTopic(
  runs: readonly { cluster: string; params?: unknown }[],
  cluster: string,
  predictionsTopic: string,
  fallbacks: Pick<PipelineTopics, "alarms" | "predictions">,
): string {
  const run = runs.find((r) => r.cluster === cluster && runPredictionsTopic(r, fallbacks.predictions) === predictionsTopic);
  const features = isRecord(run?.params) ? run.params.features : undefined;
  const topic = isRecord(features) ? features.alarms_topic : undefined;
  return typeof topic === "string" && topic !== "" ? topic : fallbacks.alarms;
}

/** The CEL filter of the messages browser for one equipment's records (keyed by its id). */
export function equipmentFilter(equipmentId: string): string {
  // A JSON string is a valid CEL string literal (the same escapes for quotes and backslashes).
  return `key == ${JSON.stringify(equipmentId)}`;
}

/** A driver's value: whole numbers as they are, others with at most 2 decimals ("1.52"). */
export function formatDriverValue(value: number): string {
  return Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: 2, useGrouping: false }) : String(value);
}

/** "E303-VIBRATION ×4 (7d)". */
export function alarmText(alarm: { fault_code: string; count: number; days: number }): string {
  return `${alarm.fault_code} ×${alarm.count} (${alarm.days}d)`;
}
