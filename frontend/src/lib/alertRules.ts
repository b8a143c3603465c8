// Lag alert rules in words (the rules table: "status ERR or STOP · lag > 2 m · retention risk",
// "every hour") and the rule form: its values, the checks made before sending, the body it sends
// (POST: all of it; PATCH: only what changed, the masked target only when a new one was typed),
// and where a refusal's problems go (each beside its field, a silence window's beside its row).
import type { AlertChannel, AlertRule, AlertRuleInput, AlertRulePatch, AlertSilence, AlertStatus } from "../api/alerts";
import { ApiError } from "../api/client";
import { fieldProblems, parsePath } from "./fieldErrors";
import { formatDuration } from "./format";
import { UTC_ZONE, wallTimeIn, zonedToInstant } from "./time";

/** The statuses a rule can fire on, mildest first (the server's ALERT_STATUSES). */
export const ALERT_STATUSES: readonly AlertStatus[] = ["WARN", "ERR", "STOP", "STALL"];

export interface ChannelChoice {
  value: AlertChannel;
  label: string;
  /** The target input's placeholder. */
  placeholder: string;
  /** What the target is, under its input. */
  hint: string;
}

export const CHANNELS: readonly ChannelChoice[] = [
  {
    value: "webhook",
    label: "Webhook (JSON)",
    placeholder: "https://alerts.example.com/kafka",
    hint: "The receiver's http:// or https:// URL; it gets the alert as JSON.",
  },
  {
    value: "slack",
    label: "Slack",
    placeholder: "https://hooks.slack.com/services/T0000/B0000/XXXXXXXX",
    hint: "The Slack incoming webhook's URL.",
  },
  {
    value: "teams",
    label: "Microsoft Teams",
    placeholder: "https://example.webhook.office.com/webhookb2/…",
    hint: "The Teams incoming webhook's (or Power Automate flow's) URL.",
  },
  {
    value: "email",
    label: "Email",
    placeholder: "oncall@example.com, team@example.com",
    hint: "Up to 20 email addresses, separated by commas.",
  },
];

export function channelLabel(channel: string): string {
  return CHANNELS.find((c) => c.value === channel)?.label ?? channel;
}

export type TimeUnit = "s" | "m" | "h";

export const TIME_UNITS: readonly { value: TimeUnit; label: string; seconds: number }[] = [
  { value: "s", label: "seconds", seconds: 1 },
  { value: "m", label: "minutes", seconds: 60 },
  { value: "h", label: "hours", seconds: 3600 },
];

const UNIT_SECONDS: Record<TimeUnit, number> = { s: 1, m: 60, h: 3600 };

/** A number of seconds in the largest unit that divides it: 7200 is 2 hours, 90 is 90 seconds. */
export function splitSeconds(seconds: number): { amount: string; unit: TimeUnit } {
  if (seconds > 0 && seconds % 3600 === 0) return { amount: String(seconds / 3600), unit: "h" };
  if (seconds > 0 && seconds % 60 === 0) return { amount: String(seconds / 60), unit: "m" };
  return { amount: String(seconds), unit: "s" };
}

/** Seconds of `amount` `unit`s (as typed), or null when it is not a number of 0 or more. */
export function toSeconds(amount: string, unit: TimeUnit): number | null {
  const text = amount.trim();
  if (!/^\d+(?:\.\d+)?$|^\.\d+$/.test(text)) return null;
  // Rounded to the millisecond: 0.1 h is 360 s, not 360.00000000000006.
  return Math.round(Number(text) * UNIT_SECONDS[unit] * 1000) / 1000;
}

/** A span as a condition says it: "45 s", "2 m", "1 h", "2 d"; else "1 m 30 s". */
export function shortSeconds(seconds: number): string {
  if (seconds > 0 && seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds > 0 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds > 0 && seconds % 60 === 0) return `${seconds / 60} m`;
  if (seconds < 60) return `${seconds} s`;
  return formatDuration(seconds);
}

/** "WARN", "ERR or STOP", "WARN, ERR or STOP". */
function orList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}` : (items[0] ?? "");
}

type Conditions = Pick<AlertRule, "statuses" | "lag_seconds_over" | "retention_risk">;

/** A rule's conditions in words: "status ERR or STOP · lag > 2 m · retention risk". */
export function conditionWords(rule: Conditions): string {
  const parts: string[] = [];
  const statuses = ALERT_STATUSES.filter((s) => rule.statuses.includes(s));
  const unknown = rule.statuses.filter((s) => !ALERT_STATUSES.includes(s));
  if (statuses.length + unknown.length > 0) parts.push(`status ${orList([...statuses, ...unknown])}`);
  if (rule.lag_seconds_over !== null && rule.lag_seconds_over !== undefined) {
    parts.push(`lag > ${shortSeconds(rule.lag_seconds_over)}`);
  }
  if (rule.retention_risk) parts.push("retention risk");
  return parts.length ? parts.join(" · ") : "no condition";
}

const REPEAT_UNITS: [seconds: number, one: string][] = [
  [86_400, "day"],
  [3600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** How often a firing rule tells again: "once" (0), "every hour", "every 30 minutes". */
export function repeatWords(seconds: number | undefined): string {
  if (!seconds) return "once";
  const [size, one] = REPEAT_UNITS.find(([size]) => seconds % size === 0) ?? [1, "second"];
  const n = seconds / size;
  return n === 1 ? `every ${one}` : `every ${n.toLocaleString("en-US")} ${one}s`;
}

/** A date-time as this browser's locale writes it ("11/25/2026, 10:03:12 AM"); as sent when it
 * does not parse. */
export function formatAlertTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : new Date(ms).toLocaleString();
}

/** The silence window `now` is in, or null. */
export function activeSilence(silences: readonly AlertSilence[], now: number = Date.now()): AlertSilence | null {
  return silences.find((w) => Date.parse(w.starts_at) <= now && now < Date.parse(w.ends_at)) ?? null;
}

// ---- the form ----

/** A wall-clock date-time as typed and its zone (DateTimeInput's value). */
export interface WallInZone {
  datetime: string;
  zone: string;
}

export interface SilenceRow {
  /** A key for React (rows are added and removed). */
  id: number;
  starts: WallInZone;
  ends: WallInZone;
}

export interface RuleFormValues {
  name: string;
  cluster: string;
  groupPattern: string;
  statuses: AlertStatus[];
  /** "" for no lag condition. */
  lagAmount: string;
  lagUnit: TimeUnit;
  retentionRisk: boolean;
  channel: AlertChannel;
  /** Editing: "" keeps the rule's (masked) target. */
  target: string;
  repeatAmount: string;
  repeatUnit: TimeUnit;
  silences: SilenceRow[];
  enabled: boolean;
}

/** Messages by field (a RuleInput key) or silence row (`silence-<index>`). */
export type RuleFormErrors = Record<string, string[]>;

/** A new rule's form: every group, repeat every hour (the server's default), enabled. */
export function newRuleValues(cluster = ""): RuleFormValues {
  return {
    name: "",
    cluster,
    groupPattern: "*",
    statuses: [],
    lagAmount: "",
    lagUnit: "m",
    retentionRisk: false,
    channel: "webhook",
    target: "",
    repeatAmount: "1",
    repeatUnit: "h",
    silences: [],
    enabled: true,
  };
}

/** "2026-12-24T18:00:00+01:00" as the date-time input shows it: its wall-clock time in its own
 * offset ("+01:00"; "Z" is UTC). An instant without a zone is read as UTC. */
export function isoToWall(iso: string): WallInZone {
  const ms = Date.parse(iso);
  const m = /([+-]\d{2}):?(\d{2})$/.exec(iso.trim());
  const zone = m && `${m[1]}:${m[2]}` !== "+00:00" && `${m[1]}:${m[2]}` !== "-00:00" ? `${m[1]}:${m[2]}` : UTC_ZONE;
  if (Number.isNaN(ms)) return { datetime: iso, zone };
  return { datetime: wallTimeIn(ms, zone).replace("T", " ").replace(/\.000$/, ""), zone };
}

/** The form of an existing rule; its target is left empty (the rule's shows masked). */
export function ruleValues(rule: AlertRule, nextId: () => number): RuleFormValues {
  const lag = rule.lag_seconds_over ?? null;
  const lagParts = lag === null ? { amount: "", unit: "m" as TimeUnit } : splitSeconds(lag);
  const repeat = splitSeconds(rule.repeat_interval_s ?? 3600);
  return {
    name: rule.name,
    cluster: rule.cluster,
    groupPattern: rule.group_pattern ?? "*",
    statuses: ALERT_STATUSES.filter((s) => rule.statuses.includes(s)),
    lagAmount: lagParts.amount,
    lagUnit: lagParts.unit,
    retentionRisk: !!rule.retention_risk,
    channel: rule.channel,
    target: "",
    repeatAmount: repeat.amount,
    repeatUnit: repeat.unit,
    silences: rule.silences.map((w) => ({ id: nextId(), starts: isoToWall(w.starts_at), ends: isoToWall(w.ends_at) })),
    enabled: rule.enabled ?? true,
  };
}

function add(errors: RuleFormErrors, key: string, message: string) {
  (errors[key] ??= []).push(message);
}

const MAX_REPEAT_S = 7 * 86_400;
const URL_CHANNEL = /^https?:\/\/[^/\s]+/i;

/**
 * Every problem the browser can see before sending, {} when none: a name, a cluster, a pattern,
 * at least one condition, numbers that are numbers, a target for the channel (editing: only when
 * one is typed, or the channel changed), and silence windows with a start before their end.
 */
export function checkRule(values: RuleFormValues, editing: AlertRule | null = null): RuleFormErrors {
  const errors: RuleFormErrors = {};
  if (!values.name.trim()) add(errors, "name", "Give the rule a name.");
  if (!values.cluster) add(errors, "cluster", "Choose a cluster.");
  if (!values.groupPattern.trim()) add(errors, "group_pattern", "Give a pattern: * matches every group.");
  const lag = values.lagAmount.trim() === "" ? null : toSeconds(values.lagAmount, values.lagUnit);
  if (values.lagAmount.trim() !== "" && lag === null) {
    add(errors, "lag_seconds_over", "Give the lag as a number, 0 or more (or leave it empty).");
  }
  if (values.statuses.length === 0 && values.lagAmount.trim() === "" && !values.retentionRisk) {
    add(errors, "statuses", "Choose at least one condition: a status, a lag or the retention risk.");
  }
  const repeat = toSeconds(values.repeatAmount, values.repeatUnit);
  if (repeat === null || !Number.isInteger(repeat)) {
    add(errors, "repeat_interval_s", "Give a whole number of seconds (0: tell once).");
  } else if (repeat > MAX_REPEAT_S) {
    add(errors, "repeat_interval_s", "At most 7 days.");
  }
  const target = values.target.trim();
  if (target === "") {
    if (!editing) {
      add(errors, "target", values.channel === "email" ? "Give at least one email address." : "Give the receiver's URL.");
    } else if (values.channel !== editing.channel) {
      add(errors, "target", "The channel changed: give its target.");
    }
  } else if (values.channel === "email") {
    const wrong = target.split(",").map((a) => a.trim()).filter((a) => a && !/^[^@\s]+@[^@\s]+$/.test(a));
    if (wrong.length) add(errors, "target", `“${wrong[0]}” is not an email address.`);
  } else if (!URL_CHANNEL.test(target)) {
    add(errors, "target", "Give the receiver's URL, starting with https:// or http://.");
  }
  values.silences.forEach((row, index) => {
    const starts = zonedToInstant(row.starts.datetime, row.starts.zone);
    const ends = zonedToInstant(row.ends.datetime, row.ends.zone);
    if (!starts) add(errors, `silence-${index}`, "Give the start as a date and time.");
    if (!ends) add(errors, `silence-${index}`, "Give the end as a date and time.");
    if (starts && ends && ends.ms <= starts.ms) add(errors, `silence-${index}`, "The end must be after the start.");
  });
  return errors;
}

/** The silence windows as sent: ISO-8601 with the zone's offset. Call after checkRule. */
function silencesOf(values: RuleFormValues): AlertSilence[] {
  return values.silences.map((row) => ({
    starts_at: zonedToInstant(row.starts.datetime, row.starts.zone)!.iso,
    ends_at: zonedToInstant(row.ends.datetime, row.ends.zone)!.iso,
  }));
}

/** POST alerts/rules: the whole rule, lag and repeat in seconds. Call after checkRule. */
export function ruleBody(values: RuleFormValues): AlertRuleInput {
  return {
    name: values.name.trim(),
    cluster: values.cluster,
    group_pattern: values.groupPattern.trim(),
    statuses: ALERT_STATUSES.filter((s) => values.statuses.includes(s)),
    lag_seconds_over: values.lagAmount.trim() === "" ? null : toSeconds(values.lagAmount, values.lagUnit),
    retention_risk: values.retentionRisk,
    channel: values.channel,
    target: values.target.trim(),
    repeat_interval_s: toSeconds(values.repeatAmount, values.repeatUnit) ?? 0,
    silences: silencesOf(values),
    enabled: values.enabled,
  };
}

function sameSilences(a: readonly AlertSilence[], b: readonly AlertSilence[]): boolean {
  return (
    a.length === b.length &&
    a.every((w, i) => Date.parse(w.starts_at) === Date.parse(b[i]!.starts_at) && Date.parse(w.ends_at) === Date.parse(b[i]!.ends_at))
  );
}

/**
 * PATCH alerts/rules/{id}: only the fields that differ from `rule` (a changed cluster or pattern
 * makes the server forget the groups' states, so they are sent only when they changed); the
 * target only when a new one was typed (the rule's shows masked). Call after checkRule.
 */
export function rulePatch(values: RuleFormValues, rule: AlertRule): AlertRulePatch {
  const body = ruleBody(values);
  const patch: AlertRulePatch = {};
  if (body.name !== rule.name) patch.name = body.name;
  if (body.cluster !== rule.cluster) patch.cluster = body.cluster;
  if (body.group_pattern !== (rule.group_pattern ?? "*")) patch.group_pattern = body.group_pattern;
  const statuses = body.statuses ?? [];
  if (statuses.join() !== ALERT_STATUSES.filter((s) => rule.statuses.includes(s)).join()) patch.statuses = statuses;
  if ((body.lag_seconds_over ?? null) !== (rule.lag_seconds_over ?? null)) patch.lag_seconds_over = body.lag_seconds_over;
  if (body.retention_risk !== !!rule.retention_risk) patch.retention_risk = body.retention_risk;
  if (body.channel !== rule.channel) patch.channel = body.channel;
  if (body.target !== "") patch.target = body.target;
  if (body.repeat_interval_s !== (rule.repeat_interval_s ?? 3600)) patch.repeat_interval_s = body.repeat_interval_s;
  if (!sameSilences(body.silences ?? [], rule.silences)) patch.silences = body.silences;
  if (body.enabled !== (rule.enabled ?? true)) patch.enabled = body.enabled;
  return patch;
}

export const RULE_FIELDS = [
  "name",
  "cluster",
  "group_pattern",
  "statuses",
  "lag_seconds_over",
  "retention_risk",
  "channel",
  "target",
  "repeat_interval_s",
  "silences",
  "enabled",
] as const;

/** The API's field names in a message, as the form labels them. */
const FIELD_WORDS: Record<string, string> = {
  group_pattern: "group pattern",
  lag_seconds_over: "lag behind",
  retention_risk: "retention risk",
  repeat_interval_s: "repeat interval",
  starts_at: "the start",
  ends_at: "the end",
};

function plainFieldNames(message: string): string {
  return message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (name) => FIELD_WORDS[name] ?? name);
}

const SILENCE_PARTS: Record<string, string> = { starts_at: "Start", ends_at: "End" };

export interface PlacedRuleErrors {
  fields: RuleFormErrors;
  /** What names no field of the form, and every answer but a 400 (or a 404 for the cluster). */
  banner: Error | null;
}

/**
 * A refusal's problems beside their fields, all of them, in plain words: a silence window's
 * ("silences.0.ends_at", "silences[0].ends_at") beside its row, an unknown cluster (404) at the
 * cluster; the rest in the banner.
 */
export function placeRuleErrors(error: unknown): PlacedRuleErrors {
  if (!error) return { fields: {}, banner: null };
  if (error instanceof ApiError && error.status === 404 && error.code === "cluster_not_found") {
    return { fields: { cluster: [error.message] }, banner: null };
  }
  const problems = fieldProblems(error);
  if (problems.length === 0) return { fields: {}, banner: error instanceof Error ? error : new Error(String(error)) };
  const fields: RuleFormErrors = {};
  const unplaced: string[] = [];
  for (const { path, message } of problems) {
    // "silences.0.ends_at" (the server's own checks) and "silences[0].ends_at" (DRF's) alike.
    const parts = parsePath(path).map((p) => (typeof p === "string" && /^\d+$/.test(p) ? Number(p) : p));
    const [head, index, part] = parts;
    const text = plainFieldNames(message);
    if (head === "silences" && typeof index === "number") {
      const label = typeof part === "string" ? SILENCE_PARTS[part] : undefined;
      // "End: must be after the start." (a word's capital goes; an acronym's stays).
      const lower = text.replace(/^[A-Z](?=[a-z\s])/, (c) => c.toLowerCase());
      add(fields, `silence-${index}`, label ? `${label}: ${lower}` : text);
    } else if (typeof head === "string" && (RULE_FIELDS as readonly string[]).includes(head)) {
      add(fields, head, text);
    } else {
      unplaced.push(text);
    }
  }
  const api = error as ApiError;
  return { fields, banner: unplaced.length ? new ApiError(api.status, api.code, unplaced.join(" "), api.details) : null };
}
