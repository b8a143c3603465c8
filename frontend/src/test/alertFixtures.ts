// Lag alert fixtures: rules (GET alerts/rules) and the alerts sent (GET alerts/events) as the
// server answers them (alerts/api/serializers.py): targets masked, newest alert first.
import type { AlertAttempt, AlertEvent, AlertRule } from "../api/alerts";

/** A rule; `overrides` change any field. */
export function alertRule(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 1,
    name: "billing stopped",
    cluster: "local",
    group_pattern: "billing-*",
    statuses: ["ERR", "STOP"],
    lag_seconds_over: 120,
    retention_risk: true,
    channel: "slack",
    target: "https://hooks.slack.com/…",
    repeat_interval_s: 3600,
    silences: [],
    enabled: true,
    created_by: "alice",
    created_at: "2026-11-20T09:00:00.000000Z",
    updated_at: "2026-11-20T09:00:00.000000Z",
    firing_groups: [],
    ...overrides,
  };
}

/** Two rules: one firing for five groups; one on WARN by email, telling once, disabled. */
export const ALERT_RULES: AlertRule[] = [
  alertRule({ firing_groups: ["billing-1", "billing-2", "billing-3", "billing-4", "billing-5"] }),
  alertRule({
    id: 2,
    name: "orders slow",
    group_pattern: "*",
    statuses: ["WARN"],
    lag_seconds_over: null,
    retention_risk: false,
    channel: "email",
    target: "oncall@example.com, team@example.com",
    repeat_interval_s: 0,
    enabled: false,
  }),
];

export function attempt(overrides: Partial<AlertAttempt> = {}): AlertAttempt {
  return { at: "2026-11-25T10:03:12.400000Z", ok: true, answer: "HTTP 200: ok", duration_ms: 142.6, ...overrides };
}

/** An alert; `overrides` change any field. */
export function alertEvent(overrides: Partial<AlertEvent> = {}): AlertEvent {
  return {
    id: 12,
    rule: 1,
    rule_name: "billing stopped",
    cluster: "local",
    group_id: "billing-7",
    kind: "firing",
    reason: "status STOP; lag 14 m behind, over 2 m",
    snapshot: { status: "STOP", state: "Empty", total_lag: 1200, max_lag_seconds: 840.2, retention_risk: "none" },
    at: "2026-11-25T10:03:12.250000Z",
    channel: "slack",
    state: "delivered",
    attempts: [attempt()],
    ...overrides,
  };
}

/** Newest first: a firing alert that failed every try, a resolved one delivered, a test. */
export const ALERT_EVENTS: AlertEvent[] = [
  alertEvent({
    id: 14,
    state: "failed",
    attempts: [
      attempt({ ok: false, answer: "HTTP 500: internal error", at: "2026-11-25T10:05:00.000000Z" }),
      attempt({ ok: false, answer: "timed out after 5 s", duration_ms: 5000, at: "2026-11-25T10:05:02.000000Z" }),
    ],
    at: "2026-11-25T10:05:00.000000Z",
  }),
  alertEvent({ id: 13, kind: "resolved", group_id: "billing-2", reason: "recovered", at: "2026-11-25T10:04:00.000000Z" }),
  alertEvent({ id: 12, kind: "test", group_id: "(test)", reason: "a test alert sent from the console: the channel works", snapshot: {}, at: "2026-11-25T10:03:12.250000Z" }),
];
