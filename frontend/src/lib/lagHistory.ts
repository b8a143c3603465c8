// Data shaping of the group page's lag charts: the lag history (GET …/lag-history) with live
// samples appended, and the per-partition series built from the live samples alone.
import type { LagMessage } from "../api/live";
import type { LagPoint, LagStatus, LagWindow } from "../api/types";
import { asLagStatus, worstStatus } from "./lagStatus";
import { timeOf } from "./liveGroups";

export const WINDOW_MS: Record<LagWindow, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 };
/** The history's resolution: every sample for 1h, one point a minute for 24h, one every 10 minutes
 * for 7d (docs/live-lag.md). */
export const WINDOW_STEP_MS: Record<LagWindow, number> = { "1h": 0, "24h": 60_000, "7d": 600_000 };
/** Live points kept for appending (a day at one sample each 5 s would be 17,280 per topic). */
export const MAX_LIVE_POINTS = 5_000;

/** One point of the lag-over-time chart of one topic. `t` is epoch ms (the x axis). */
export interface HistoryPoint {
  t: number;
  lag: number | null;
  lag_seconds: number | null;
  write_per_s: number | null;
  consume_per_s: number | null;
  status: LagStatus;
}

/** A `lag` message as history points, one per topic (lag seconds: the topic's oldest unread
 * record; status: its worst partition's). None when the message has no time. */
export function livePointsOf(message: LagMessage): LagPoint[] {
  if (timeOf(message.ts) === null || !message.ts) return [];
  const ts = message.ts;
  return Object.entries(message.topics)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, t]) => ({
      ts,
      topic,
      lag: t.lag ?? null,
      lag_seconds: t.max_lag_seconds ?? null,
      write_per_s: t.write_per_s ?? null,
      consume_per_s: t.consume_per_s ?? null,
      status: worstStatus(message.partitions.filter((p) => p.topic === topic).map((p) => p.status)),
    }));
}

/** Live points with more appended: in time order, one per topic and time, the newest `cap` kept. */
export function appendLivePoints(points: readonly LagPoint[], more: readonly LagPoint[], cap = MAX_LIVE_POINTS): LagPoint[] {
  if (more.length === 0) return points as LagPoint[];
  const seen = new Set(points.map((p) => `${p.ts}\u0000${p.topic}`));
  const added = more.filter((p) => {
    const key = `${p.ts}\u0000${p.topic}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (added.length === 0) return points as LagPoint[];
  const all = [...points, ...added].sort((a, b) => (timeOf(a.ts) ?? 0) - (timeOf(b.ts) ?? 0));
  return all.length > cap ? all.slice(all.length - cap) : all;
}

function toPoint(p: LagPoint): HistoryPoint | null {
  const t = timeOf(p.ts);
  if (t === null) return null;
  return {
    t,
    lag: p.lag ?? null,
    lag_seconds: p.lag_seconds ?? null,
    write_per_s: p.write_per_s ?? null,
    consume_per_s: p.consume_per_s ?? null,
    status: asLagStatus(p.status),
  };
}

/**
 * One topic's chart points over `window`: the fetched history, then the live points newer than
 * its last one. On the 24h window (one point a minute) a live point in the same minute as the
 * previous point replaces it. Only the last `window` before the newest point (or `now`) is kept.
 */
export function topicSeries(
  fetched: readonly LagPoint[],
  live: readonly LagPoint[],
  topic: string,
  window: LagWindow,
  now?: number,
): HistoryPoint[] {
  const base = fetched
    .filter((p) => p.topic === topic)
    .map(toPoint)
    .filter((p): p is HistoryPoint => p !== null)
    .sort((a, b) => a.t - b.t);
  const step = WINDOW_STEP_MS[window];
  const out = [...base];
  const lastFetched = base.length > 0 ? base[base.length - 1]!.t : Number.NEGATIVE_INFINITY;
  for (const p of live) {
    if (p.topic !== topic) continue;
    const point = toPoint(p);
    if (!point || point.t <= lastFetched) continue;
    const prev = out[out.length - 1];
    if (prev && point.t <= prev.t) continue;
    if (prev && step > 0 && prev.t > lastFetched && Math.floor(prev.t / step) === Math.floor(point.t / step)) {
      out[out.length - 1] = point;
    } else {
      out.push(point);
    }
  }
  const end = Math.max(now ?? Number.NEGATIVE_INFINITY, out.length > 0 ? out[out.length - 1]!.t : Number.NEGATIVE_INFINITY);
  const start = end - WINDOW_MS[window];
  return out.filter((p) => p.t >= start);
}

/** The topics of some points, sorted. */
export function pointTopics(...lists: ReadonlyArray<readonly LagPoint[]>): string[] {
  const names = new Set<string>();
  for (const list of lists) for (const p of list) names.add(p.topic);
  return [...names].sort();
}

// ---- per partition, from the live samples received since the page opened ----

/** One live sample: lag and lag seconds of each partition (keyed `topic-partition`). */
export interface PartitionSample {
  t: number;
  lag: Record<string, number | null>;
  seconds: Record<string, number | null>;
}

export interface PartitionRef {
  /** `topic-partition`, unique (the partition is what follows the last "-"). */
  key: string;
  topic: string;
  partition: number;
}

export interface PartitionSeries {
  /** Every partition seen, in topic then partition order. */
  partitions: PartitionRef[];
  /** Oldest first. */
  samples: PartitionSample[];
}

export const EMPTY_PARTITION_SERIES: PartitionSeries = { partitions: [], samples: [] };
/** Samples kept: an hour at the default 5 s interval. */
export const MAX_PARTITION_SAMPLES = 720;

export function partitionKey(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

function byTopicPartition(a: PartitionRef, b: PartitionRef): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** The series with one more sample (ignored when not newer than the last one), the oldest
 * dropped beyond `cap`. */
export function appendPartitionSample(
  series: PartitionSeries,
  message: LagMessage,
  cap = MAX_PARTITION_SAMPLES,
): PartitionSeries {
  const t = timeOf(message.ts);
  if (t === null) return series;
  const last = series.samples[series.samples.length - 1];
  if (last && t <= last.t) return series;
  const lag: Record<string, number | null> = {};
  const seconds: Record<string, number | null> = {};
  const known = new Set(series.partitions.map((p) => p.key));
  const fresh: PartitionRef[] = [];
  for (const p of message.partitions) {
    const key = partitionKey(p.topic, p.partition);
    lag[key] = p.lag ?? null;
    seconds[key] = p.lag_seconds ?? null;
    if (!known.has(key)) {
      known.add(key);
      fresh.push({ key, topic: p.topic, partition: p.partition });
    }
  }
  const partitions = fresh.length > 0 ? [...series.partitions, ...fresh].sort(byTopicPartition) : series.partitions;
  const samples = [...series.samples, { t, lag, seconds }];
  return { partitions, samples: samples.length > cap ? samples.slice(samples.length - cap) : samples };
}

export type PartitionMetric = "lag" | "seconds";

/** The keys of the `limit` partitions with the highest latest value (unknown last), in topic,
 * partition order. */
export function topPartitions(series: PartitionSeries, metric: PartitionMetric, limit: number): string[] {
  const keys = series.partitions.map((p) => p.key);
  if (keys.length <= limit) return keys;
  const last = series.samples[series.samples.length - 1];
  if (!last) return keys.slice(0, limit);
  const values = last[metric];
  const value = (key: string) => values[key] ?? Number.NEGATIVE_INFINITY;
  const chosen = new Set([...keys].sort((a, b) => value(b) - value(a) || (a < b ? -1 : 1)).slice(0, limit));
  return keys.filter((k) => chosen.has(k));
}

/** Chart rows: `t` and one value per key (missing: null, a gap). */
export function partitionRows(
  series: PartitionSeries,
  keys: readonly string[],
  metric: PartitionMetric,
): { t: number; values: Record<string, number | null> }[] {
  return series.samples.map((s) => {
    const values: Record<string, number | null> = {};
    for (const key of keys) values[key] = s[metric][key] ?? null;
    return { t: s.t, values };
  });
}
