// The lag alert endpoints (docs/alerts.md): rules (GET/POST alerts/rules, GET/PATCH/DELETE
// alerts/rules/{rule_id}, POST alerts/rules/{rule_id}/test) and the alerts sent (GET
// alerts/events). The paths, bodies and answers are the generated schema's (paths.ts); the
// schema has a rule's `statuses` and `silences` and an alert's `snapshot` as free JSON, so the
// types below narrow them, and answers are cast with `as` (which tsc refuses for a type that does
// not overlap the schema's).
import { typedApi as api } from "./paths";
import type { components } from "./schema.gen";

type Schemas = components["schemas"];

/** A group lag status a rule can fire on (docs/live-lag.md). */
export type AlertStatus = Schemas["StatusesEnum"];

/** How an alert is sent: a JSON webhook, Slack, Microsoft Teams or email. */
export type AlertChannel = Schemas["ChannelEnum"];

/** A window with no alerts sent: ISO-8601 instants with their zone. */
export type AlertSilence = Schemas["Silence"];

/** One entry of GET alerts/rules (and the answer of POST and PATCH). `target` is masked: a URL
 * shows only its scheme and host ("https://hooks.slack.com/…"); email addresses are whole. */
export type AlertRule = Omit<Schemas["Rule"], "statuses" | "silences"> & {
  statuses: AlertStatus[];
  silences: AlertSilence[];
};

/** POST alerts/rules (all of it) */
export type AlertRuleInput = Schemas["RuleInput"];

/** PATCH alerts/rules/{rule_id}: only the fields that change. */
export type AlertRulePatch = Schemas["PatchedRuleInput"];

/** firing, repeat (still firing), resolved, or test (POST …/test). */
export type AlertKind = Schemas["KindEnum"];

/** pending (a try is due), delivered, or failed (every try failed). */
export type AlertDeliveryState = Schemas["EventStateEnum"];

/** One try to deliver an alert: when, whether the receiver took it, and its answer. */
export type AlertAttempt = Schemas["Attempt"];

/** The group's figures when the alert was raised. */
export interface AlertSnapshot {
  status?: string | null;
  state?: string | null;
  total_lag?: number | null;
  max_lag_seconds?: number | null;
  retention_risk?: string | null;
}

/** One entry of GET alerts/events (newest first), and the answer of POST …/test. */
export type AlertEvent = Omit<Schemas["Event"], "snapshot" | "state"> & {
  snapshot: AlertSnapshot | null;
  state: AlertDeliveryState;
};

export interface AlertEventQuery {
  cluster?: string;
  group?: string;
  rule?: number;
  /** 1..1000 (the server's default: 100) */
  limit?: number;
}

export function listAlertRules(signal?: AbortSignal): Promise<AlertRule[]> {
  return api.get("alerts/rules", { signal }) as Promise<AlertRule[]>;
}

/** 201 with the rule; 400 names the fields (details.field and details.errors); operator. */
export function createAlertRule(body: AlertRuleInput): Promise<AlertRule> {
  return api.post("alerts/rules", { body }) as Promise<AlertRule>;
}

/** Changes only the fields given; 400 as for create; operator. */
export function updateAlertRule(id: number, body: AlertRulePatch): Promise<AlertRule> {
  return api.patch("alerts/rules/{rule_id}", { path: { rule_id: id }, body }) as Promise<AlertRule>;
}

/** 204; operator. */
export function deleteAlertRule(id: number): Promise<void> {
  return api.delete("alerts/rules/{rule_id}", { path: { rule_id: id } });
}

/** Sends a test alert through the rule's channel now (one try): the alert, delivered or failed,
 * with the attempt and the receiver's answer; operator. */
export function testAlertRule(id: number): Promise<AlertEvent> {
  return api.post("alerts/rules/{rule_id}/test", { path: { rule_id: id } }) as Promise<AlertEvent>;
}

/** The alerts sent, newest first, each with every delivery attempt. */
export function listAlertEvents(query: AlertEventQuery = {}, signal?: AbortSignal): Promise<AlertEvent[]> {
  return api.get("alerts/events", {
    signal,
    query: { cluster: query.cluster || undefined, group: query.group || undefined, rule: query.rule, limit: query.limit },
  }) as Promise<AlertEvent[]>;
}
