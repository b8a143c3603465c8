// GET /api/v1/spark/models/{id}/drift answers for the tests: a model trained before drift was
// measured, one not scored yet, and one with three scored days (the newest with 12 features, one
// of them above its bar).
import type { DriftDay, DriftFeature, ModelDrift } from "../api/maintenance";

/** A model trained before drift was measured: no reference, no drift for its days. */
export function noReference(modelId: number): ModelDrift {
  return { model_id: modelId, threshold: 0.25, reference: null, days: [] };
}

/** A model with a reference that scored no day yet. */
export function noDays(modelId: number): ModelDrift {
  return { model_id: modelId, threshold: 0.25, reference: { part: "test", rows: 320 }, days: [] };
}

export function driftFeature(feature: string, psi: number, bar = 0.25): DriftFeature {
  return { feature, psi, bar };
}

/** A scored day; `drifted` and `max_psi` follow from its features unless given. */
export function driftDay(day: string, features: DriftFeature[], values: Partial<DriftDay> = {}): DriftDay {
  return {
    day,
    job_id: 77,
    scored_at: `${day}T05:30:00Z`,
    rows: 320,
    max_psi: features.reduce((max, f) => Math.max(max, f.psi), 0),
    drifted: features.filter((f) => f.psi > f.bar).map((f) => f.feature),
    features,
    ...values,
  };
}

/** The newest day's features, listed out of order: 12, the largest (max_temperature_7d) above
 * its bar; vibration_rms_3d is above the 0.25 threshold but under its (small fleet's) bar. */
export const NEWEST_FEATURES: DriftFeature[] = [
  driftFeature("count_e101_overheat_7d", 0.02),
  driftFeature("max_temperature_7d", 0.41),
  driftFeature("vibration_rms_3d", 0.27, 0.3),
  driftFeature("alarm_count_1d", 0.12),
  driftFeature("alarm_count_7d", 0.09),
  driftFeature("pressure_mean_7d", 0.08),
  driftFeature("pressure_max_7d", 0.07),
  driftFeature("runtime_hours_7d", 0.06),
  driftFeature("count_e205_leak_7d", 0.05),
  driftFeature("count_e301_power_7d", 0.04),
  driftFeature("days_since_service", 0.03),
  driftFeature("age_days", 0.01),
];

/** Three scored days, oldest first: calm, drifted (pressure), and the newest (temperature). */
export const DRIFTED: ModelDrift = {
  model_id: 51,
  threshold: 0.25,
  reference: { part: "test", rows: 320 },
  days: [
    driftDay("2026-04-27", [driftFeature("max_temperature_7d", 0.05), driftFeature("pressure_mean_7d", 0.03)], { job_id: 70 }),
    driftDay("2026-04-28", [driftFeature("pressure_mean_7d", 0.31), driftFeature("max_temperature_7d", 0.1)], { job_id: 74 }),
    driftDay("2026-04-29", NEWEST_FEATURES),
  ],
};
