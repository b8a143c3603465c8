// The predictive-maintenance endpoints (GET spark/models, the active model of a cluster and its
// promotion, a model's realised performance and feature drift, GET spark/predictions, the maintenance worklist and its marks) and the pipeline job's `steps`. The generated OpenAPI types (src/api/schema.gen.ts) hold a job's `steps` and a
// model's metrics as free JSON values, so the types below are narrow hand-written ones, and every
// reader of them is defensive (a field may be null or missing in an older job's record). The paths
// are the generated schema's (paths.ts); the answers are cast to the types below with `as`, which
// tsc refuses for a type that does not overlap the schema's.
import { listSparkJobs, submitSparkJob } from "./endpoints";
import { typedApi as api } from "./paths";
import type { components } from "./schema.gen";
import type { SparkJob } from "./types";

/** The job type that runs the whole pipeline (features, labels, training set, model, scores). */
export const PIPELINE_JOB_TYPE = "maintenance-pipeline";

/** The pipeline's steps, in the order they run. */
export const PIPELINE_STEPS = ["window-features", "failure-labels", "training-set", "train-model", "score"] as const;
export type PipelineStepName = (typeof PIPELINE_STEPS)[number];

/** pending → running → succeeded | failed, or pending → skipped. */
export type PipelineStepState = "pending" | "running" | "succeeded" | "failed" | "skipped";

/** One entry of a multi-step job's `steps`. `result` is the step's own job type's result. */
export interface PipelineStep {
  name: string;
  state: PipelineStepState;
  started_at: string | null;
  finished_at: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

/** A Spark job with its `steps` (null for job types without steps; absent from older servers). */
export type PipelineJob = Omit<SparkJob, "steps"> & { steps?: PipelineStep[] | null };

/** A `{columns, rows}` table as the jobs' results hold them. */
export interface ResultTableData {
  columns: string[];
  rows: unknown[][];
}

/** The test-set metrics of a model (null when the test set could not give one). */
export interface ModelMetrics {
  roc_auc: number | null;
  pr_auc: number | null;
  precision: number | null;
  recall: number | null;
  threshold: number | null;
}

/** One entry of GET /api/v1/spark/models; `id` is the id of the job that trained it (a
 * `train-model`, `maintenance-pipeline` or `maintenance-retrain` job). `roc_curve` rows are
 * [fpr, tpr]. */
export interface SparkModel {
  id: number;
  job_id: number;
  /** train-model, maintenance-pipeline or maintenance-retrain */
  job_type?: string;
  cluster: string;
  created_at: string;
  /** gbt or rf */
  algorithm: string | null;
  params: Record<string, unknown>;
  metrics: Partial<ModelMetrics> | null;
  path: string;
  roc_curve: ResultTableData | null;
  /** The tree model's featureImportances, largest first (absent from older servers). */
  feature_importances?: FeatureImportance[];
  /** The server's verdict (maintenance/service.py model_quality): "chance" (no better than
   * chance) and "unmeasured" models are not to be used. Absent from older servers. */
  quality?: ModelQuality;
  /** Why it is not usable; null when it is. */
  quality_reason?: string | null;
  /** The active model of its own `cluster` (what a score job that names no model uses). */
  active: boolean;
  /** A retraining's model: how it fared against the active model (null for others; absent
   * from older servers). */
  challenge?: components["schemas"]["Challenge"] | null;
}

export type ModelQuality = components["schemas"]["QualityEnum"];

/** How much a feature weighs in the model's decisions (the importances sum to 1). */
export interface FeatureImportance {
  feature: string;
  importance: number;
}

/** One change of a cluster's active model (`how` "manual": an operator promoted it; "auto": a
 * retraining's model that beat it). */
export type Promotion = components["schemas"]["Promotion"];

/** GET /api/v1/spark/models/active?cluster= and the promote answer: the cluster's active model
 * (null before the first promotion: a score job that names no model is refused), how, why, by
 * whom and when it became active, and the last promotions, newest (the active) first. */
export type ActiveModel = Omit<components["schemas"]["ActiveModel"], "model"> & { model: SparkModel | null };

/** GET /api/v1/spark/models/{id}/performance: how the model's past predictions turned out, per
 * scored day, from the newest `model-performance` job (`job_id` null: never measured). */
export type ModelPerformance = components["schemas"]["Performance"];
export type PerformanceDay = components["schemas"]["PerformanceDay"];
export type PerformanceTotals = components["schemas"]["PerformanceTotals"];

/** The job type that measures a model's realised performance (params: `{model_id}`). */
export const PERFORMANCE_JOB_TYPE = "model-performance";

/** GET /api/v1/spark/models/{id}/drift: how far the days the model scored (the newest 30, oldest
 * first) drifted from its reference, per feature (population-stability index). `reference` null:
 * the model was trained before drift was measured (its days carry none). */
export type ModelDrift = components["schemas"]["Drift"];
export type DriftDay = components["schemas"]["DriftDay"];
export type DriftFeature = components["schemas"]["DriftFeature"];
export type DriftReference = components["schemas"]["DriftReference"];

/** One entry of GET /api/v1/spark/predictions: the latest prediction of one equipment. */
/** An equipment's latest prediction: day, probability (0..1), model, and why (its drivers and
 * recent alarms). */
export type Prediction = components["schemas"]["Prediction"];

/** Models, newest first (viewer). */
export function listModels(signal?: AbortSignal): Promise<SparkModel[]> {
  return api.get("spark/models", { signal }) as Promise<SparkModel[]>;
}

/** The active model of `cluster` (viewer). */
export function getActiveModel(cluster: string, signal?: AbortSignal): Promise<ActiveModel> {
  return api.get("spark/models/active", { signal, query: { cluster } }) as Promise<ActiveModel>;
}

/** Makes model `id` the active one of the cluster it was trained on (operator); also how to roll
 * back to an earlier one. Refused: 404 model_not_found, 409 model_not_usable or already_active,
 * 400 invalid (a reason over 500 characters). */
export function promoteModel(id: number, reason: string): Promise<ActiveModel> {
  return api.post("spark/models/{model_id}/promote", { path: { model_id: id }, body: { reason } }) as Promise<ActiveModel>;
}

/** Model `id`'s realised performance (viewer). 404 model_not_found. */
export function getModelPerformance(id: number, signal?: AbortSignal): Promise<ModelPerformance> {
  return api.get("spark/models/{model_id}/performance", { signal, path: { model_id: id } });
}

/** Model `id`'s feature drift per scored day (viewer). 404 model_not_found. */
export function getModelDrift(id: number, signal?: AbortSignal): Promise<ModelDrift> {
  return api.get("spark/models/{model_id}/drift", { signal, path: { model_id: id } });
}

/** Queues the `model-performance` job of model `model` on the cluster it was trained on
 * (operator): the answer is the job (queued), followed as any Spark job. */
export function measureModelPerformance(model: Pick<SparkModel, "id" | "cluster">): Promise<SparkJob> {
  return submitSparkJob({ job_type: PERFORMANCE_JOB_TYPE, cluster: model.cluster, params: { model_id: model.id } });
}

/** The latest prediction per equipment of `cluster` read from `topic`, highest probability
 * first (viewer). */
export function listPredictions(cluster: string, topic: string, limit: number, signal?: AbortSignal): Promise<Prediction[]> {
  return api.get("spark/predictions", { signal, query: { cluster, topic, limit } });
}

/** The newest `maintenance-pipeline` jobs, newest first ([] when none was ever submitted). */
export async function recentPipelineRuns(limit: number, signal?: AbortSignal): Promise<PipelineJob[]> {
  return (await listSparkJobs({ job_type: PIPELINE_JOB_TYPE, limit }, signal)) as PipelineJob[];
}

/** One entry of GET /api/v1/maintenance/worklist: an equipment's latest prediction, why (its
 * drivers, recent alarms), what happened after the scored day and the crew's newest mark. */
export type WorklistItem = components["schemas"]["WorklistItem"];
/** open (before any mark) → acknowledged → inspected, or dismissed; open again to undo. */
export type WorklistStatus = components["schemas"]["WorklistStatusEnum"];
export type WorklistMarkInput = components["schemas"]["WorklistMarkInput"];

/** The statuses, in the order a crew goes through them. */
export const WORKLIST_STATUSES: readonly WorklistStatus[] = ["open", "acknowledged", "inspected", "dismissed"];

/** The server's limit on a mark's note. */
export const WORKLIST_NOTE_MAX = 1000;

/** Where the worklist reads from (each omitted: the server's default topic), from the page's URL:
 * a cluster that scores into a topic of its own, or keeps its alarms and work orders elsewhere. */
export interface WorklistTopics {
  topic?: string;
  alarms_topic?: string;
  work_orders_topic?: string;
}

/** The `limit` equipment of `cluster` most likely to fail, highest probability first (viewer).
 * 404 topic_not_found: nothing was scored on the cluster yet. */
export function listWorklist(cluster: string, limit: number, topics: WorklistTopics = {}, signal?: AbortSignal): Promise<WorklistItem[]> {
  return api.get("maintenance/worklist", { signal, query: { cluster, limit, ...topics } });
}

/** Marks equipment `equipmentId` of `cluster`'s worklist (operator); the answer is its updated
 * item. Refused: 400 invalid (details.field names the field, e.g. a note over 1000 characters). */
export function markWorklistItem(
  cluster: string,
  equipmentId: string,
  body: WorklistMarkInput,
  topics: WorklistTopics = {},
): Promise<WorklistItem> {
  return api.post("maintenance/worklist/{equipment_id}", { path: { equipment_id: equipmentId }, query: { cluster, ...topics }, body });
}
