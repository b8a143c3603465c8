// Live lag messages merged into what the group pages show: a map keyed by group id (the list) and
// a group detail overlaid with its latest sample. Pure: the pages keep the state.
import type { GroupStateMessage, LagMessage, LagSocketMessage } from "../api/live";
import type { GroupDetail, GroupOffset, GroupSummary, GroupTopicLag, LagStatus, Rates, RetentionRisk } from "../api/types";
import { asLagStatus } from "./lagStatus";

/** The group-level fields of a `lag` message, as the REST rows name them. */
export interface LiveLag {
  total_lag: number | null;
  max_lag: number | null;
  max_lag_seconds: number | null;
  status: LagStatus;
  catch_up_seconds: number | null;
  retention_risk: RetentionRisk;
  /** Why `retention_risk` is near or lost, in words; null at none. */
  retention_reason: string | null;
  rates: Rates;
}

/** What the socket said last about one group. */
export interface LiveGroup {
  /** The newest message's sample time (epoch ms) and text. */
  tsMs: number;
  ts: string;
  /** From the newest `lag` message (absent when only `group_state` came). */
  lag?: LiveLag;
  /** The sample time of `lag`. */
  lagTsMs?: number;
  state?: string;
  member_count?: number;
}

export type LiveGroups = ReadonlyMap<string, LiveGroup>;

export const NO_LIVE_GROUPS: LiveGroups = new Map();

/** Epoch ms of an ISO time, or null. */
export function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** The later of two times (null when both are). */
/** When Kafka was last read for a list: the newest `sampled_at` of its rows (null: none). */
export function newestSample(rows: readonly { sampled_at: string | null }[] | undefined): Date | null {
  let newest: number | null = null;
  for (const row of rows ?? []) {
    const at = row.sampled_at === null ? Number.NaN : Date.parse(row.sampled_at);
    if (!Number.isNaN(at) && (newest === null || at > newest)) newest = at;
  }
  return newest === null ? null : new Date(newest);
}

export function latestOf(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return b.getTime() > a.getTime() ? b : a;
}

/** A group's rates from its topics' (the server's rule: the sum, null if any topic's is unknown). */
export function sumRates(topics: LagMessage["topics"]): Rates {
  const values = Object.values(topics);
  const total = (pick: (t: (typeof values)[number]) => number | null | undefined): number | null => {
    if (values.length === 0) return null;
    let sum = 0;
    for (const t of values) {
      const v = pick(t);
      if (v === null || v === undefined) return null;
      sum += v;
    }
    return sum;
  };
  return { write_per_s: total((t) => t.write_per_s), consume_per_s: total((t) => t.consume_per_s) };
}

export function liveLagOf(message: LagMessage): LiveLag {
  return {
    total_lag: message.total_lag ?? null,
    max_lag: message.max_lag ?? null,
    max_lag_seconds: message.max_lag_seconds ?? null,
    status: asLagStatus(message.status),
    catch_up_seconds: message.catch_up_seconds ?? null,
    retention_risk: message.retention_risk ?? "none",
    retention_reason: message.retention_reason ?? null,
    rates: sumRates(message.topics),
  };
}

/** The LiveLag fields other than the rates (compared by value). */
const LAG_FIELDS = [
  "total_lag",
  "max_lag",
  "max_lag_seconds",
  "status",
  "catch_up_seconds",
  "retention_risk",
  "retention_reason",
] as const;

/** Whether two lags (live, or a row's lag fields) say the same, rates included. */
function sameLagFields(a: LiveLag, b: LiveLag): boolean {
  return (
    LAG_FIELDS.every((key) => a[key] === b[key]) &&
    a.rates.write_per_s === b.rates.write_per_s &&
    a.rates.consume_per_s === b.rates.consume_per_s
  );
}

function sameLag(a: LiveLag | undefined, b: LiveLag | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return sameLagFields(a, b);
}

/** `old` updated by one message; `old` itself when the message is older or changes nothing. */
export function mergeLiveGroup(old: LiveGroup | undefined, message: LagMessage | GroupStateMessage): LiveGroup | undefined {
  const tsMs = timeOf(message.ts);
  if (tsMs === null || !message.ts) return old;
  if (old && tsMs < old.tsMs) return old; // late: a newer sample is already shown
  const state = typeof message.state === "string" ? message.state : old?.state;
  const members = typeof message.member_count === "number" ? message.member_count : old?.member_count;
  if (message.type === "lag") {
    if (old?.lagTsMs !== undefined && tsMs < old.lagTsMs) return old;
    const lag = liveLagOf(message);
    const next: LiveGroup = {
      tsMs,
      ts: message.ts,
      lag: old && sameLag(old.lag, lag) ? old.lag : lag,
      lagTsMs: tsMs,
      state,
      member_count: members,
    };
    if (old && old.tsMs === tsMs && old.lag === next.lag && old.state === state && old.member_count === members) return old;
    return next;
  }
  if (old && old.tsMs === tsMs && old.state === state && old.member_count === members) return old;
  return { ...old, tsMs, ts: message.ts, state, member_count: members };
}

/**
 * The list's live map with a batch of messages merged in, keyed by group id. The same map when
 * nothing changed, and a group's entry is replaced only when its message is at least as new.
 */
export function mergeLiveMessages(prev: LiveGroups, messages: readonly LagSocketMessage[]): LiveGroups {
  let next: Map<string, LiveGroup> | null = null;
  for (const message of messages) {
    const current = (next ?? prev).get(message.group_id);
    const merged = mergeLiveGroup(current, message);
    if (merged === current || merged === undefined) continue;
    next ??= new Map(prev);
    next.set(message.group_id, merged);
  }
  return next ?? prev;
}

/**
 * A REST row with the live sample applied when it is newer than the evaluation the row was served
 * with (`sampled_at`; null: none): lag, status, lag seconds, catch-up, risk and its reason,
 * rates; state and member count from the newest message. The row itself when nothing newer is
 * known.
 */
export function overlayRow(row: GroupSummary, live: LiveGroup | undefined): GroupSummary {
  if (!live) return row;
  const sampled = timeOf(row.sampled_at);
  if (sampled !== null && live.tsMs <= sampled) return row;
  const lag = live.lag && (sampled === null || (live.lagTsMs ?? 0) > sampled) ? live.lag : undefined;
  return {
    ...row,
    ...(lag ?? {}),
    ...(live.state !== undefined ? { state: live.state } : {}),
    ...(live.member_count !== undefined ? { member_count: live.member_count } : {}),
    sampled_at: lag ? live.ts : row.sampled_at,
  };
}

/** The fields of a row the list shows (sampled_at is not). */
function sameShownRow(a: GroupSummary, b: GroupSummary): boolean {
  return (
    a.group_id === b.group_id &&
    a.state === b.state &&
    a.protocol_type === b.protocol_type &&
    a.member_count === b.member_count &&
    a.topics === b.topics &&
    sameLagFields(a, b)
  );
}

/**
 * `overlayRow` over a whole list, remembering its answers: a row whose shown fields did not change
 * keeps its object, so memoized table rows do not re-render when another group's sample arrives.
 * Make one per list (useMemo / useRef) and call it with each new rows / live map.
 */
export function createRowOverlay(): (rows: readonly GroupSummary[], live: LiveGroups) => GroupSummary[] {
  let cache = new Map<string, { base: GroupSummary; live: LiveGroup | undefined; out: GroupSummary }>();
  return (rows, live) => {
    const next = new Map<string, { base: GroupSummary; live: LiveGroup | undefined; out: GroupSummary }>();
    const out = rows.map((row) => {
      const entry = live.get(row.group_id);
      const cached = cache.get(row.group_id);
      if (cached && cached.base === row && cached.live === entry) {
        next.set(row.group_id, cached);
        return cached.out;
      }
      let result = overlayRow(row, entry);
      if (cached && sameShownRow(cached.out, result)) result = cached.out;
      next.set(row.group_id, { base: row, live: entry, out: result });
      return result;
    });
    cache = next;
    return out;
  };
}

/** Group ids in the messages that the list does not have (new groups: refetch the list). */
export function unknownGroups(messages: readonly LagSocketMessage[], known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const m of messages) {
    if (!known.has(m.group_id) && !(m.type === "group_state" && m.state === "Dead")) out.add(m.group_id);
  }
  return [...out];
}

// ---- one group's detail ----

/** The message's topics as the detail's `topics` rows, sorted by name. */
export function topicsOf(message: LagMessage): GroupTopicLag[] {
  return Object.entries(message.topics)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, t]) => ({
      topic,
      lag: t.lag ?? null,
      max_lag_seconds: t.max_lag_seconds ?? null,
      rates: { write_per_s: t.write_per_s ?? null, consume_per_s: t.consume_per_s ?? null },
      catch_up_seconds: t.catch_up_seconds ?? null,
      retention_risk: t.retention_risk ?? "none",
      retention_reason: t.retention_reason ?? null,
    }));
}

/**
 * The fields of an offsets row a `lag` message's partition gives (the log end: null if it has
 * none). The message has no partition reason: the REST row's (`previous`) is kept while the
 * partition's risk is unchanged, else the reason is unknown (null).
 */
function sampledOffset(p: LagMessage["partitions"][number], previous?: GroupOffset) {
  const risk = p.retention_risk ?? "none";
  return {
    committed_offset: p.committed_offset ?? null,
    log_end_offset: p.log_end_offset ?? null,
    lag: p.lag ?? null,
    lag_seconds: p.lag_seconds ?? null,
    status: asLagStatus(p.status),
    retention_risk: risk,
    retention_reason: previous && previous.retention_risk === risk ? (previous.retention_reason ?? null) : null,
  } satisfies Partial<GroupOffset>;
}

/**
 * Whether the message's pass began before the detail read its committed offsets and saw one of
 * them otherwise (a reset in between, say): its offsets, lags and lag in time are older than
 * the detail's. The detail stands (its lag in time unknown where the server found its own sample
 * stale) until a pass that began after the read.
 */
function olderThanRead(detail: GroupDetail, message: LagMessage, ts: number): boolean {
  const readAt = timeOf(detail.read_at);
  if (readAt === null || ts >= readAt) return false;
  const committed = new Map(detail.offsets.map((o) => [partitionKey(o), o.committed_offset]));
  return message.partitions.some((p) => {
    const key = partitionKey(p);
    return committed.has(key) && committed.get(key) !== (p.committed_offset ?? null);
  });
}

/** One key per topic partition, for maps of a detail's and a message's partitions. */
function partitionKey(p: { topic: string; partition: number }): string {
  return `${p.topic}\u0000${p.partition}`;
}

/**
 * A group detail with its latest `lag` message applied when newer than the detail's
 * `sampled_at`: group fields, topics, and each partition's committed offset, log end, lag, lag
 * seconds, status and risk (log start and member stay the REST answer's, and so does a
 * partition's risk reason while its risk is unchanged; a partition only the message has is
 * added). The detail itself when the message is not newer, or began before the detail's read
 * and saw a committed offset otherwise.
 */
export function overlayDetail(detail: GroupDetail, message: LagMessage | null): GroupDetail {
  if (!message || message.group_id !== detail.group_id) return detail;
  const ts = timeOf(message.ts);
  const sampled = timeOf(detail.sampled_at);
  if (ts === null || (sampled !== null && ts <= sampled)) return detail;
  if (olderThanRead(detail, message, ts)) return detail;
  const live = new Map(message.partitions.map((p) => [partitionKey(p), p]));
  const seen = new Set<string>();
  const offsets: GroupOffset[] = detail.offsets.map((o) => {
    const key = partitionKey(o);
    const p = live.get(key);
    if (!p) return o;
    seen.add(key);
    return { ...o, ...sampledOffset(p, o), log_end_offset: p.log_end_offset ?? o.log_end_offset };
  });
  for (const [key, p] of live) {
    if (seen.has(key)) continue;
    offsets.push({ topic: p.topic, partition: p.partition, log_start_offset: null, member_id: null, ...sampledOffset(p) });
  }
  const lag = liveLagOf(message);
  return {
    ...detail,
    state: typeof message.state === "string" ? message.state : detail.state,
    total_lag: lag.total_lag,
    max_lag_seconds: lag.max_lag_seconds,
    status: lag.status,
    catch_up_seconds: lag.catch_up_seconds,
    retention_risk: lag.retention_risk,
    retention_reason: lag.retention_reason,
    rates: lag.rates,
    sampled_at: message.ts,
    topics: topicsOf(message),
    offsets,
  };
}
