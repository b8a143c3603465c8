// Spark job states and the small facts pages show about a job (docs/spark-jobs.md).
import type { SparkJob, SparkJobState, SparkJobType } from "../api/types";
import type { Tone } from "../components/StatusBadge";

interface StateInfo {
  tone: Tone;
  help: string;
}

/** Every state, in the order a job goes through them (the list filter's order). */
export const SPARK_JOB_STATES: readonly SparkJobState[] = [
  "queued",
  "submitted",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "lost",
];

const STATES: Record<SparkJobState, StateInfo> = {
  queued: { tone: "neutral", help: "Saved and waiting for a worker." },
  submitted: { tone: "info", help: "A worker took it and is starting Spark." },
  running: { tone: "info", help: "Spark is running it; progress is completed tasks over all tasks so far." },
  succeeded: { tone: "ok", help: "Finished; the result is below." },
  failed: { tone: "error", help: "Ended with an error (the script's exception or the driver's last error)." },
  cancelled: { tone: "warn", help: "Cancelled by an operator." },
  lost: { tone: "error", help: "Its worker stopped sending heartbeats (it died); the job was given up." },
};

export function jobStateTone(state: SparkJobState): Tone {
  return STATES[state]?.tone ?? "neutral";
}

export function jobStateHelp(state: SparkJobState): string {
  return STATES[state]?.help ?? "";
}

/** Queued, submitted or running: it may still change, and it can be cancelled. */
export function isActive(state: SparkJobState): boolean {
  return state === "queued" || state === "submitted" || state === "running";
}

/** A state named in a URL query, or null when it is not one. */
export function parseJobState(value: string | null): SparkJobState | null {
  return value !== null && (SPARK_JOB_STATES as readonly string[]).includes(value) ? (value as SparkJobState) : null;
}

/** Progress 0..1 as a whole percentage (clamped; 0.999 shows 99 %, not 100 %, until it is 1). */
export function progressPercent(progress: number | null | undefined): number {
  if (progress === null || progress === undefined || !Number.isFinite(progress)) return 0;
  return Math.floor(Math.min(1, Math.max(0, progress)) * 100);
}

/** The topic a job reads (every job type has `params.topic`). */
export function jobTopic(job: Pick<SparkJob, "params">): string | null {
  const topic = job.params?.topic;
  return typeof topic === "string" ? topic : null;
}

/** Seconds from start (or creation) to end (or now). */
export function jobDurationSeconds(
  job: Pick<SparkJob, "created_at" | "started_at" | "finished_at">,
  now: number = Date.now(),
): number | null {
  const start = Date.parse(job.started_at ?? job.created_at);
  if (Number.isNaN(start)) return null;
  const end = job.finished_at ? Date.parse(job.finished_at) : now;
  return Number.isNaN(end) ? null : Math.max(0, (end - start) / 1000);
}

/** The title of a job type ("Profile a topic's records"), or its name when unknown. */
export function jobTypeTitle(types: SparkJobType[] | undefined, name: string): string {
  return types?.find((t) => t.name === name)?.title ?? name;
}
