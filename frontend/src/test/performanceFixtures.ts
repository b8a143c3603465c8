// GET /api/v1/spark/models/{id}/performance answers for the tests: never measured, and measured
// (days with gaps where a value is undefined, and a calibration).
import type { ModelPerformance, PerformanceDay } from "../api/maintenance";

/** A model no model-performance job measured yet. */
export function notMeasured(modelId: number): ModelPerformance {
  return {
    model_id: modelId,
    job_id: null,
    computed_at: null,
    threshold: null,
    horizon_days: null,
    last_day: null,
    days: [],
    totals: null,
    calibration: null,
  };
}

/** A scored day (its values given, or null). */
export function performanceDay(day: string, values: Partial<PerformanceDay> = {}): PerformanceDay {
  return {
    day,
    predictions: 300,
    known: 240,
    pending: 60,
    failures: 12,
    flagged: 20,
    precision: 0.4,
    recall: 0.6,
    roc_auc: 0.8,
    ...values,
  };
}

/** Measured by job 88: five days, the last two with nothing known yet (gaps), one without a
 * failure (no recall, no AUC). */
export const MEASURED: ModelPerformance = {
  model_id: 51,
  job_id: 88,
  computed_at: "2026-07-03T03:30:12Z",
  threshold: 0.5,
  horizon_days: 7,
  last_day: "2026-06-29",
  days: [
    performanceDay("2026-06-18", { precision: 0.45, recall: 0.62, roc_auc: 0.81 }),
    performanceDay("2026-06-19", { failures: 0, precision: 0, recall: null, roc_auc: null }),
    performanceDay("2026-06-20", { precision: 0.38, recall: 0.58, roc_auc: 0.77 }),
    performanceDay("2026-06-21", { known: 0, pending: 300, failures: 0, flagged: 0, precision: null, recall: null, roc_auc: null }),
    performanceDay("2026-06-22", { known: 0, pending: 300, failures: 0, flagged: 0, precision: null, recall: null, roc_auc: null }),
  ],
  totals: { predictions: 1500, known: 1200, pending: 300, failures: 36, precision: 0.42, recall: 0.61 },
  calibration: {
    columns: ["band_low", "band_high", "predictions", "predicted", "observed"],
    rows: [
      [0, 0.1, 900, 0.04, 0.02],
      [0.1, 0.3, 200, 0.18, 0.12],
      [0.3, 0.6, 70, 0.42, 0.37],
      [0.6, 1, 30, 0.78, 0.7],
    ],
  },
};
