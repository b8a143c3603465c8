// The reset wizard's form -> request logic, and where a server error belongs in it.
import { ApiError } from "../api/client";
import { fieldProblems } from "./fieldErrors";
import type { ResetRequest, ResetStrategy, ResetStrategyType, TopicScope } from "../api/types";
import { parseDuration, UTC_ZONE, zonedToInstant } from "./time";

/** A topic the reset may touch. */
export interface ScopeTopic {
  topic: string;
  selected: boolean;
  /** "0,1,4" or "0-3,7"; empty means every partition. */
  partitions: string;
  /** Partitions in the topic, when known (for validation). */
  partitionCount: number | null;
  /** A topic of the group (false: added from the cluster's topics). */
  ofGroup: boolean;
}

export interface ResetForm {
  topics: ScopeTopic[];
  strategy: ResetStrategyType;
  offset: string;
  shift: string;
  /** datetime-local value (wall-clock time in `zone`). */
  datetime: string;
  /** "UTC", an IANA zone or "+HH:MM". */
  zone: string;
  duration: string;
  csv: string;
  reason: string;
}

/** The wizard's form at the start: every given topic ticked with all partitions, earliest, UTC. */
export function initialResetForm(topics: string[]): ResetForm {
  return {
    topics: topics.map((topic) => ({ topic, selected: true, partitions: "", partitionCount: null, ofGroup: true })),
    strategy: "earliest",
    offset: "",
    shift: "",
    datetime: "",
    zone: UTC_ZONE,
    duration: "",
    csv: "",
    reason: "",
  };
}

/** Local problems, keyed "scope", "scope:<topic>" or "strategy". */
export type FormErrors = Record<string, string>;

export type BuildResult = { ok: true; body: ResetRequest } | { ok: false; errors: FormErrors };

/**
 * The partitions in "0,1,4" or "0-3, 7" (sorted, without repeats); null for an
 * empty text (every partition). Throws an Error with a readable message.
 */
export function parsePartitions(text: string, partitionCount: number | null = null): number[] | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const out = new Set<number>();
  for (const raw of trimmed.split(/[\s,]+/)) {
    if (!raw) continue;
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(raw);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (from > to) throw new Error(`“${raw}”: the range goes backwards.`);
      if (to - from > 100_000) throw new Error(`“${raw}”: the range is too large.`);
      for (let p = from; p <= to; p += 1) out.add(p);
    } else if (/^\d+$/.test(raw)) {
      out.add(Number(raw));
    } else {
      throw new Error(`“${raw}” is not a partition number; use e.g. 0,1,4 or 0-3.`);
    }
  }
  const list = [...out].sort((a, b) => a - b);
  if (partitionCount !== null) {
    const missing = list.filter((p) => p >= partitionCount);
    if (missing.length) {
      throw new Error(
        `No partition ${missing.join(", ")}: the topic has ${partitionCount} (0–${Math.max(partitionCount - 1, 0)}).`,
      );
    }
  }
  return list;
}

const WHOLE = /^[-+]?\d+$/;

function strategyOf(form: ResetForm, errors: FormErrors): ResetStrategy {
  const type = form.strategy;
  switch (type) {
    case "to_offset": {
      const v = form.offset.trim();
      if (!WHOLE.test(v)) errors.strategy = "Give the offset as a whole number.";
      return { type, offset: Number(v) };
    }
    case "shift_by": {
      const v = form.shift.trim();
      if (!WHOLE.test(v)) errors.strategy = "Give N as a whole number (negative goes back).";
      else if (Number(v) === 0) errors.strategy = "A shift of 0 changes nothing.";
      return { type, shift: Number(v) };
    }
    case "to_datetime": {
      const at = zonedToInstant(form.datetime, form.zone);
      if (!at) {
        errors.strategy = form.datetime.trim() ? "Not a valid date and time." : "Choose a date and time.";
        return { type, datetime: "" };
      }
      return { type, datetime: at.iso };
    }
    case "by_duration": {
      const v = form.duration.trim().toUpperCase();
      const ms = parseDuration(v);
      if (ms === null) {
        errors.strategy = v
          ? `“${form.duration.trim()}” is not a duration Kafka accepts: use PT15M, PT6H, P1D, P2DT3H30M (no weeks or months).`
          : "Give a duration such as PT15M.";
      }
      return { type, duration: v };
    }
    case "from_file":
      if (!form.csv.trim()) errors.strategy = "Paste or upload topic,partition,offset lines.";
      return { type, csv: form.csv };
    default:
      return { type };
  }
}

/**
 * The request body for the form: scope (the selected topics, each with its
 * partitions or null for all; omitted for from_file), strategy with the one
 * field it needs, dry_run and reason. Problems found locally come back in
 * `errors` instead.
 */
export function buildResetRequest(form: ResetForm, dryRun: boolean): BuildResult {
  const errors: FormErrors = {};
  const strategy = strategyOf(form, errors);
  const body: ResetRequest = { strategy, dry_run: dryRun, reason: form.reason.trim() };
  if (form.strategy !== "from_file") {
    const topics: TopicScope[] = [];
    for (const t of form.topics) {
      if (!t.selected) continue;
      try {
        topics.push({ topic: t.topic, partitions: parsePartitions(t.partitions, t.partitionCount) });
      } catch (err) {
        errors[`scope:${t.topic}`] = (err as Error).message;
      }
    }
    if (form.topics.filter((t) => t.selected).length === 0) errors.scope = "Choose at least one topic.";
    body.scope = { topics };
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body };
}

/** Same plan inputs (everything except dry_run and reason)? */
export function samePlanInputs(a: ResetRequest, b: ResetRequest): boolean {
  const key = (r: ResetRequest) => JSON.stringify({ scope: r.scope ?? null, strategy: r.strategy });
  return key(a) === key(b);
}

/** Where a server error belongs in the wizard. */
export interface ErrorPlace {
  area: "scope" | "strategy" | "reason" | null;
  /** For scope.topics[i]...: the topic of that entry. */
  topic?: string;
  /** details.field as the server sent it. */
  field?: string;
}

/**
 * Map a 400's details.field ("strategy.offset", "strategy.csv",
 * "scope.topics[0].partitions", "reason") to the part of the wizard it names;
 * area null for anything else (shown in a banner).
 */
export function errorPlace(error: unknown, body: ResetRequest | null): ErrorPlace {
  if (!(error instanceof ApiError) || error.status !== 400) return { area: null };
  const field = error.details.field;
  if (typeof field !== "string" || !field) return { area: null };
  return fieldPlace(field, body);
}

/** The part of the wizard a field path names (see errorPlace). */
export function fieldPlace(field: string, body: ResetRequest | null): ErrorPlace {
  if (!field) return { area: null };
  if (field === "strategy" || field.startsWith("strategy.")) return { area: "strategy", field };
  if (field === "reason") return { area: "reason", field };
  if (field === "scope" || field.startsWith("scope.") || field.startsWith("scope[")) {
    const m = /^scope\.topics\[(\d+)\]/.exec(field);
    const scope = body?.scope;
    if (m && scope && "topics" in scope) {
      const topic = scope.topics[Number(m[1])]?.topic;
      if (topic !== undefined) return { area: "scope", topic, field };
    }
    return { area: "scope", field };
  }
  return { area: null };
}

/** The line a strategy.csv error names (details.line), if any. */
export function csvErrorLine(error: unknown, csv: string): { number: number; text: string } | null {
  if (!(error instanceof ApiError)) return null;
  const line = error.details.line;
  if (typeof line !== "number" || line < 1) return null;
  const text = csv.split(/\r?\n/)[line - 1];
  return text === undefined ? null : { number: line, text };
}

/** A server problem and the part of the wizard it belongs to. */
export interface PlacedProblem {
  place: ErrorPlace;
  message: string;
}

/**
 * Every problem of a refused request (all of `details.errors` when the 400 lists several) with its
 * place in the wizard and its message in plain words, without the field path in front. [] for
 * anything but a 400 naming a field.
 */
export function placedProblems(error: unknown, body: ResetRequest | null): PlacedProblem[] {
  return fieldProblems(error).map((p) => ({ place: fieldPlace(p.path, body), message: p.message }));
}
