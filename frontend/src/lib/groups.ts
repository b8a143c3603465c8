// Consumer group states and the offset reset wizard's form -> request logic
// (kept out of the components so that it is easy to test).
import { ApiError } from "../api/client";
import type {
  GroupDetail,
  GroupState,
  OffsetReset,
  PlanRow,
  ResetRequest,
  ResetStrategy,
  ResetStrategyType,
  TopicScope,
} from "../api/types";
import type { Tone } from "../components/StatusBadge";
import { formatCount } from "./format";
import { describeDuration, formatUtc, parseDuration, zonedToInstant } from "./time";

// ---- group states ----

/** States in which the group is moving partitions between members. */
export const REBALANCING_STATES = new Set([
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
]);

/** Stable green, Empty grey, rebalancing amber, Dead red, anything else grey. */
export function groupStateTone(state: GroupState): Tone {
  if (state === "Stable") return "ok";
  if (state === "Dead") return "error";
  if (REBALANCING_STATES.has(state)) return "warn";
  return "neutral";
}

/** What the state means for an operator. */
export function groupStateHelp(state: GroupState): string {
  switch (state) {
    case "Stable":
      return "Members are consuming; offsets cannot be reset or the group deleted until they stop.";
    case "Empty":
      return "No member is connected; offsets are kept and can be reset.";
    case "Dead":
      return "The group has no members and no metadata left (or does not exist).";
    default:
      return REBALANCING_STATES.has(state)
        ? "Partitions are being reassigned between members."
        : "State reported by the group coordinator.";
  }
}

/** The group's topics: those with committed offsets and those assigned to members, sorted. */
export function groupTopics(group: Pick<GroupDetail, "offsets" | "members">): string[] {
  const names = new Set<string>();
  for (const o of group.offsets) names.add(o.topic);
  for (const m of group.members) for (const a of m.assignments) names.add(a.topic);
  return [...names].sort();
}

/** "orders: 0, 1, 2; payments: 4" for a member's assignments. */
export function formatAssignments(assignments: { topic: string; partition: number }[]): string {
  const byTopic = new Map<string, number[]>();
  for (const a of assignments) {
    const list = byTopic.get(a.topic) ?? [];
    list.push(a.partition);
    byTopic.set(a.topic, list);
  }
  return [...byTopic.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, parts]) => `${topic}: ${parts.sort((x, y) => x - y).join(", ")}`)
    .join("; ");
}

/** The 409 Kafka's rule gives: offsets of a group with members cannot change. */
export function isGroupActive(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === "group_active";
}

// ---- strategies ----

export interface StrategyInfo {
  type: ResetStrategyType;
  label: string;
  /** One sentence: where every partition ends up. */
  help: string;
}

export const STRATEGIES: StrategyInfo[] = [
  {
    type: "earliest",
    label: "Earliest (log start)",
    help: "Every partition goes to its log start offset: the group re-reads everything still retained.",
  },
  {
    type: "latest",
    label: "Latest (log end)",
    help: "Every partition goes to its log end (high watermark): the group skips every unread record.",
  },
  {
    type: "current",
    label: "Current committed",
    help: "Keeps each committed offset; a partition with no committed offset gets the log end.",
  },
  {
    type: "to_offset",
    label: "To offset",
    help: "The same offset on every partition, moved into [log start, log end] where it falls outside.",
  },
  {
    type: "shift_by",
    label: "Shift by N",
    help: "Committed offset + N on every partition (negative N goes back and re-reads), kept within [log start, log end]. Needs a committed offset on each partition.",
  },
  {
    type: "to_datetime",
    label: "To date-time",
    help: "Each partition goes to the first record with a timestamp at or after this time; to the log end where there is none.",
  },
  {
    type: "by_duration",
    label: "By duration (back from now)",
    help: "Like “To date-time”, for the time this long before now (taken by the server when it plans or runs the reset).",
  },
  {
    type: "from_file",
    label: "From CSV file",
    help: "The offsets in topic,partition,offset lines (the format of “Export offsets.csv”), moved into [log start, log end]. The scope above is ignored.",
  },
];

export function strategyInfo(type: string): StrategyInfo | undefined {
  return STRATEGIES.find((s) => s.type === type);
}

/** Quick choices for by_duration: [ISO, label]. */
export const DURATION_PRESETS: [string, string][] = [
  ["PT5M", "5 min"],
  ["PT15M", "15 min"],
  ["PT1H", "1 h"],
  ["PT6H", "6 h"],
  ["P1D", "1 day"],
  ["P7D", "7 days"],
];

// ---- the wizard's form ----

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

// ---- plans and history ----

export interface PlanTotals {
  partitions: number;
  lagBefore: number;
  lagAfter: number;
  clamped: number;
  /** Partitions moved back (their records will be read again) and how many records. */
  rewound: number;
  replayed: number;
  /** Partitions moved forward (records skipped, never processed) and how many records. */
  advanced: number;
  skipped: number;
  unchanged: number;
  /** Partitions with no committed offset before. */
  uncommitted: number;
}

export function planTotals(plan: PlanRow[]): PlanTotals {
  const t: PlanTotals = {
    partitions: plan.length,
    lagBefore: 0,
    lagAfter: 0,
    clamped: 0,
    rewound: 0,
    replayed: 0,
    advanced: 0,
    skipped: 0,
    unchanged: 0,
    uncommitted: 0,
  };
  for (const row of plan) {
    t.lagBefore += row.lag_before ?? 0;
    t.lagAfter += row.lag_after;
    if (row.clamped) t.clamped += 1;
    if (row.current_offset === null) {
      t.uncommitted += 1;
      continue;
    }
    const delta = row.new_offset - row.current_offset;
    if (delta < 0) {
      t.rewound += 1;
      t.replayed -= delta;
    } else if (delta > 0) {
      t.advanced += 1;
      t.skipped += delta;
    } else {
      t.unchanged += 1;
    }
  }
  return t;
}

/** Plan rows sorted by topic, then partition. */
export function sortByTopicPartition<T extends { topic: string; partition: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

/** "To offset 42", "Shift by −100", "Undo of #12", ... for a stored reset. */
export function strategySummary(strategy: OffsetReset["strategy"]): string {
  const type = String(strategy.type);
  switch (type) {
    case "to_offset":
      return `To offset ${formatCount(Number(strategy.offset))}`;
    case "shift_by": {
      const n = Number(strategy.shift);
      return `Shift by ${n > 0 ? "+" : ""}${formatCount(n)}`;
    }
    case "to_datetime": {
      const text = String(strategy.datetime ?? "");
      const ms = Date.parse(text);
      return Number.isNaN(ms) ? `To date-time ${text}` : `To date-time ${text} (${formatUtc(ms)})`;
    }
    case "by_duration": {
      const text = String(strategy.duration ?? "");
      const ms = parseDuration(text);
      return ms === null ? `Back ${text}` : `Back ${text} (${describeDuration(ms)})`;
    }
    case "from_file": {
      const lines = String(strategy.csv ?? "")
        .split(/\r?\n/)
        .filter((l) => l.trim()).length;
      return `From CSV (${lines} ${lines === 1 ? "line" : "lines"})`;
    }
    case "undo":
      return `Undo of #${String(strategy.undo_of ?? "?")}`;
    default:
      return strategyInfo(type)?.label ?? type;
  }
}

/** "all topics", "orders (all), payments [0, 1]" for a stored reset's scope. */
export function scopeSummary(reset: Pick<OffsetReset, "scope" | "strategy">): string {
  if (reset.strategy.type === "from_file") return "from the CSV";
  if (reset.strategy.type === "undo") return "the partitions of the undone reset";
  const scope = reset.scope ?? {};
  if (scope.all_topics) return "all topics with committed offsets";
  const topics = Array.isArray(scope.topics) ? scope.topics : [];
  if (!topics.length) return "—";
  return topics
    .map((t) => (t.partitions && t.partitions.length ? `${t.topic} [${t.partitions.join(", ")}]` : `${t.topic} (all)`))
    .join(", ");
}

/** Executed resets that nothing undid yet and that committed something. */
export function undoableIds(resets: OffsetReset[]): Set<number> {
  const undone = new Set(resets.map((r) => r.undo_of).filter((id): id is number => id !== null));
  return new Set(
    resets.filter((r) => r.executed && !r.dry_run && r.state !== "failed" && !undone.has(r.id)).map((r) => r.id),
  );
}

export const RESET_STATE_TONE: Record<string, Tone> = {
  planned: "info",
  succeeded: "ok",
  partially_failed: "warn",
  failed: "error",
};

export function resetStateLabel(state: string): string {
  return state.replace(/_/g, " ");
}
