// Plans and reset history: totals, what changed since a preview, summaries, states.
import { ApiError } from "../api/client";
import type { OffsetReset, PlanChange, PlanRow } from "../api/types";
import type { Tone } from "../components/StatusBadge";
import { formatCount } from "./format";
import { describeDuration, formatUtc, parseDuration } from "./time";
import { strategyInfo } from "./resetStrategies";

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const offsetOrNull = (v: unknown): number | null => (typeof v === "number" ? v : null);
const optionalOffset = (v: unknown): number | null | undefined => (v === undefined ? undefined : offsetOrNull(v));

/**
 * The partitions whose preview no longer holds, from a 409 `plan_stale` (its details.changes),
 * sorted; null for any other error. Entries without a topic and partition are left out.
 */
export function planChanges(error: unknown): PlanChange[] | null {
  if (!(error instanceof ApiError) || error.code !== "plan_stale") return null;
  const raw = Array.isArray(error.details.changes) ? error.details.changes : [];
  const changes: PlanChange[] = [];
  for (const c of raw) {
    if (!isRecord(c) || typeof c.topic !== "string" || typeof c.partition !== "number") continue;
    changes.push({
      topic: c.topic,
      partition: c.partition,
      planned_current_offset: offsetOrNull(c.planned_current_offset),
      current_offset: offsetOrNull(c.current_offset),
      new_offset: optionalOffset(c.new_offset),
      log_start_offset: optionalOffset(c.log_start_offset),
      log_end_offset: optionalOffset(c.log_end_offset),
    });
  }
  return sortByTopicPartition(changes);
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
