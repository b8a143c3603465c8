// Spark job schedules (GET/POST spark/schedules, GET/PATCH/DELETE spark/schedules/{id}): a job
// type with its params on a cluster, run at each slot of a cron expression in a time zone or every
// N minutes. Here: a schedule's timing and next run in words, its params as key=value, a run's
// outcome as a badge's tone, and the new-schedule form's values, checks, body and refusals.
import type { RJSFSchema } from "@rjsf/utils";
import type { Schedule, ScheduleInput, ScheduleRunOutcome } from "../api/types";
import type { Tone } from "../components/StatusBadge";
import { paramText } from "../components/sparkJobs/JobParams";
import { placeErrors, type ParamError } from "./sparkForm";
import { formatAgo, formatLocal, UTC_ZONE } from "./time";

/** The schedules (and an open schedule's runs) are fetched again this often. */
export const SCHEDULES_POLL_MS = 15_000;

/** The most minutes between runs the server accepts (a year of 366 days). */
export const EVERY_MINUTES_MAX = 527_040;

/** The placeholder of the cron field: every day at 01:30. */
export const CRON_EXAMPLE = "30 1 * * *";

/** started green, skipped grey, refused amber, failed red. */
export const OUTCOME_TONE: Record<ScheduleRunOutcome, Tone> = {
  started: "ok",
  skipped: "neutral",
  refused: "warn",
  failed: "error",
};

/** What each outcome means (the badge's tooltip). */
export const OUTCOME_HELP: Record<ScheduleRunOutcome, string> = {
  started: "The slot submitted a job.",
  skipped: "The schedule's previous job was still queued or running: no job this time.",
  refused: "The submit's checks refused the job (see the reason).",
  failed: "The slot could not submit the job (see the reason).",
};

const UNITS: [number, string][] = [
  [1440, "d"],
  [60, "h"],
  [1, "min"],
];

/** "every minute", "every 15 min", "every hour", "every 6 h", "every 1 h 30 min", "every day", "every 2 d". */
export function everyWords(minutes: number): string {
  if (minutes === 1) return "every minute";
  if (minutes === 60) return "every hour";
  if (minutes === 1440) return "every day";
  const parts: string[] = [];
  let rest = minutes;
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n} ${unit}`);
    rest -= n * size;
  }
  return `every ${parts.join(" ") || `${minutes} min`}`;
}

/** The schedule's timing in words: "cron 30 1 * * * (UTC)" or "every 6 h". */
export function timingWords(schedule: Pick<Schedule, "cron" | "every_minutes" | "timezone">): string {
  if (schedule.cron) return `cron ${schedule.cron} (${schedule.timezone || UTC_ZONE})`;
  if (schedule.every_minutes !== null) return everyWords(schedule.every_minutes);
  return "no timing";
}

/** An API date-time as the browser's local "YYYY-MM-DD HH:MM" (as given when it does not parse). */
export function localMinute(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : formatLocal(ms).slice(0, 16);
}

/** An API date-time as the browser's local "YYYY-MM-DD HH:MM:SS" (as given when it does not parse). */
export function localSecond(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : formatLocal(ms).slice(0, 19);
}

/** "in 3 h", "5 min ago" (relative to `now`); null when `at` does not parse. */
export function relativeWords(at: string, now: number = Date.now()): string | null {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : formatAgo(ms, now);
}

/** The params as "name=value" (lists joined, null as "default"), in the stored order. */
export function paramPairs(params: Record<string, unknown> | null | undefined): string[] {
  return Object.entries(params ?? {}).map(([name, value]) => `${name}=${paramText(value) ?? "default"}`);
}

// ---- the new-schedule form ----

export type TimingMode = "cron" | "every";

/** What the form holds (the params are the params form's). */
export interface ScheduleFormValues {
  jobType: string;
  cluster: string;
  mode: TimingMode;
  cron: string;
  timezone: string;
  /** As typed: checked before sending. */
  every: string;
  enabled: boolean;
}

export function newScheduleValues(jobType: string, cluster: string): ScheduleFormValues {
  return { jobType, cluster, mode: "cron", cron: "", timezone: UTC_ZONE, every: "", enabled: true };
}

/** The form's fields besides the params, as the API names them. */
export const SCHEDULE_FIELDS = ["job_type", "cluster", "cron", "timezone", "every_minutes", "enabled"] as const;
export type ScheduleField = (typeof SCHEDULE_FIELDS)[number];

/** The messages beside each of the form's fields (besides the params). */
export type ScheduleFieldErrors = Partial<Record<ScheduleField, string[]>>;

/** What the browser can tell before sending: a job type, a cluster, a cron expression of five
 * fields, a time zone, or a whole number of minutes in 1..527040 ({} when all is well). */
export function checkSchedule(values: ScheduleFormValues): ScheduleFieldErrors {
  const errors: ScheduleFieldErrors = {};
  if (!values.jobType) errors.job_type = ["Choose a job type."];
  if (!values.cluster) errors.cluster = ["Choose a cluster."];
  if (values.mode === "cron") {
    const fields = values.cron.trim().split(/\s+/).filter(Boolean);
    if (fields.length === 0) errors.cron = [`Give a cron expression, e.g. ${CRON_EXAMPLE}.`];
    else if (fields.length !== 5) errors.cron = ["Give five fields: minute hour day month weekday."];
    if (!values.timezone.trim()) errors.timezone = ["Give an IANA time zone, e.g. UTC or Europe/Paris."];
  } else {
    const text = values.every.trim();
    const minutes = Number(text);
    if (!text || !Number.isInteger(minutes) || minutes < 1 || minutes > EVERY_MINUTES_MAX) {
      errors.every_minutes = [`Give a whole number of minutes from 1 to ${EVERY_MINUTES_MAX.toLocaleString("en-US")}.`];
    }
  }
  return errors;
}

/** POST spark/schedules of the form's values and params: the cron expression (its spaces
 * normalized) or the minutes, the other null. */
export function scheduleBody(values: ScheduleFormValues, params: Record<string, unknown>): ScheduleInput {
  const cron = values.mode === "cron";
  return {
    job_type: values.jobType,
    cluster: values.cluster,
    params,
    cron: cron ? values.cron.trim().split(/\s+/).join(" ") : null,
    every_minutes: cron ? null : Number(values.every.trim()),
    timezone: values.timezone.trim() || UTC_ZONE,
    enabled: values.enabled,
  };
}

/** Where a refused create's errors are shown: beside the form's fields, beside the params (each at
 * its field), in the banner (what names no field of the form, and every non-400 answer). */
export interface ScheduleErrors {
  fields: ScheduleFieldErrors;
  params: ParamError[];
  banner: Error | null;
}

export const NO_SCHEDULE_ERRORS: ScheduleErrors = { fields: {}, params: [], banner: null };

/**
 * Every problem of a refused create at its place (`schema`: the params form's schema): a 400's
 * problems (all of them when it lists several) beside the field each names (`job_type`,
 * `cluster`, `cron`, `every_minutes`, `timezone`, `params.<name>`), in plain words; the rest (an
 * unknown param, a 403, a 5xx) in the banner.
 */
export function placeScheduleErrors(error: unknown, schema: RJSFSchema): ScheduleErrors {
  if (!error) return NO_SCHEDULE_ERRORS;
  const fields: ScheduleErrors["fields"] = {};
  const { params, banner } = placeErrors(error, schema, (path, message) => {
    if (!(SCHEDULE_FIELDS as readonly string[]).includes(path)) return false;
    const field = path as ScheduleField;
    fields[field] = [...(fields[field] ?? []), message];
    return true;
  });
  return { fields, params, banner };
}
