// Spark job fixtures. SPARK_JOB_TYPES is GET /api/v1/spark/job-types as the server answers it,
// generated from the real catalog (jobTypes.gen.json, `bin/api-types gen`), so the forms are
// tested against the real schemas. The sample results are in sparkResults.json, keyed by job
// type, where tests/unit/test_frontend_samples.py checks each against its job type's result schema.
import type { SparkModel } from "../api/maintenance";
import type { SparkJob, SparkJobType } from "../api/types";
import jobTypes from "./jobTypes.gen.json";
import results from "./sparkResults.json";

export const SPARK_JOB_TYPES: SparkJobType[] = jobTypes;

/** A sample result of each job type (sparkResults.json). */
export const SPARK_RESULTS = results;

/** A job; `overrides` change any field. */
export function sparkJob(overrides: Partial<SparkJob> = {}): SparkJob {
  return {
    id: 42,
    job_type: "topic-profile",
    cluster: "local",
    params: {
      topic: "orders",
      partitions: null,
      start_offset: null,
      end_offset: null,
      start_time: null,
      end_time: null,
      sequence_field: "seq",
      sequence_scope: "partition",
      top_duplicates: 20,
    },
    state: "running",
    progress: 0.25,
    spark_app_id: "local-1782900000000",
    created_by: "alice",
    created_at: "2026-07-01T14:00:00.000000Z",
    started_at: "2026-07-01T14:00:02.000000Z",
    finished_at: null,
    heartbeat_at: "2026-07-01T14:00:10.000000Z",
    cancel_requested: false,
    result: null,
    error: "",
    failure_lines: [],
    log_tail:
      "26/07/01 14:00:03 INFO SparkContext: Running Spark version 4.0.0\n" +
      "26/07/01 14:00:09 INFO DAGScheduler: Submitting 4 missing tasks from ResultStage 0\n",
    steps: null,
    schedule_id: null,
    ...overrides,
  };
}

/** A trained model as GET spark/models answers it: job 51's, active and usable; `overrides` change any field. */
export function sparkModel(overrides: Partial<SparkModel> = {}): SparkModel {
  return {
    id: 51,
    job_id: 51,
    cluster: "local",
    created_at: "2026-07-01T14:03:40.000000Z",
    algorithm: "gbt",
    params: {},
    metrics: { roc_auc: 0.87, pr_auc: 0.61, precision: 0.7, recall: 0.64, threshold: 0.5 },
    path: "/data/models/51",
    roc_curve: null,
    active: true,
    quality: "usable",
    quality_reason: null,
    ...overrides,
  };
}

/** topic-profile's result over 2 partitions, with sequence checks. */
export const PROFILE_RESULT = results["topic-profile"];

/** topic-export's result: partition 0 read from offset 3. */
export const EXPORT_RESULT = results["topic-export"];

/** topic-replay's result, preserving partitions. */
export const REPLAY_RESULT = results["topic-replay"];

/** lag-report's result: two groups over a day. */
export const LAG_REPORT_RESULT = results["lag-report"];

/** topic-search's result: 1,234 matches of 5,000,000 records, the first two listed. */
export const SEARCH_RESULT = results["topic-search"];
