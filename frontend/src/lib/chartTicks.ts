// Axis ticks the charts compute themselves instead of leaving them to the chart library: time
// ticks at round durations (every 1 min, 5 min, 15 min, 1 h, 6 h, 1 d ...) chosen for the span on
// screen and the room the labels need, each label different from the others; duration ticks on
// value axes at round durations, written compactly ("30 s", "1.5 min", "2 h"). Pure functions:
// the chart components (LagTimeCharts) only draw what these return.
import { zoneOffsetMinutes } from "./time";

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The steps a time axis may take, shortest first: round durations only. */
export const TIME_STEPS: readonly number[] = [
  SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
];

export interface TimeTickOptions {
  /** The axis' width in pixels (the labels must fit side by side); default 480. */
  width?: number;
  /** Tick label font size in pixels; default 11. */
  fontSize?: number;
  /** Ticks at most, whatever the width; default 8. */
  maxTicks?: number;
  /** The zone the labels (and the round times) are in: an IANA name or "UTC"; default this browser's. */
  timeZone?: string;
  /** The shortest step allowed (e.g. DAY for data per calendar day: no "Jun 9 06:00"); default none. */
  minStep?: number;
}

export interface TimeTicks {
  /** Epoch milliseconds, ascending, within [start, end]. */
  ticks: number[];
  /** Their labels, in the same order, no two alike. */
  labels: string[];
  /** The round duration between two ticks. */
  step: number;
  /** The label of a tick (for the chart's tickFormatter). */
  format: (t: number) => string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** Minutes east of UTC at `ms` in `zone` (undefined: this browser's zone). */
function offsetMs(ms: number, zone: string | undefined): number {
  if (zone === undefined) return -new Date(ms).getTimezoneOffset() * MINUTE;
  return zoneOffsetMinutes(zone, ms) * MINUTE;
}

/** The wall-clock fields of `ms` in `zone`. */
function wall(ms: number, zone: string | undefined) {
  const d = new Date(ms + offsetMs(ms, zone));
  return {
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds(),
  };
}

/** Round times every `step` in [start, end], aligned on the wall clock of `zone` (a 1 h step
 * falls on the hour there, a 1 d step at midnight, also in zones half an hour off UTC). */
function roundTimes(start: number, end: number, step: number, zone: string | undefined): number[] {
  const out: number[] = [];
  // Alignment in wall-clock time: wall = t + offset(t).
  const startOffset = offsetMs(start, zone);
  let w = Math.ceil((start + startOffset) / step) * step;
  for (let guard = 0; guard < 1000; guard += 1) {
    // Back from wall time to the instant (twice: the offset may differ near a DST change).
    let t = w - offsetMs(w - startOffset, zone);
    t = w - offsetMs(t, zone);
    if (t > end) break;
    if (t >= start && (out.length === 0 || t > out[out.length - 1]!)) out.push(t);
    w += step;
  }
  return out;
}

function clock(ms: number, zone: string | undefined, seconds: boolean): string {
  const f = wall(ms, zone);
  return seconds ? `${pad(f.hours)}:${pad(f.minutes)}:${pad(f.seconds)}` : `${pad(f.hours)}:${pad(f.minutes)}`;
}

function date(ms: number, zone: string | undefined): string {
  const f = wall(ms, zone);
  return `${MONTHS[f.month]} ${f.day}`;
}

/**
 * The label of time tick `t` for ticks `step` apart over a span of `span` ms: "14:05:30" (steps
 * under a minute), "14:05" (a span under a day), "Jun 9 06:00" (longer spans: a bare time would
 * repeat), "Jun 9" (at midnight, or steps of days).
 */
export function formatTimeTick(t: number, step: number, span: number, zone?: string): string {
  if (step >= DAY) return date(t, zone);
  if (step < MINUTE) return span >= DAY ? `${date(t, zone)} ${clock(t, zone, true)}` : clock(t, zone, true);
  if (span < DAY) return clock(t, zone, false);
  const f = wall(t, zone);
  return f.hours === 0 && f.minutes === 0 ? date(t, zone) : `${date(t, zone)} ${clock(t, zone, false)}`;
}

/** Pixels a label of `chars` characters takes at `fontSize` (digits and colons: about 0.6 em each). */
export function labelWidth(chars: number, fontSize = 11): number {
  return Math.ceil(chars * fontSize * 0.62);
}

/** Labels without repeats: a tick whose label an earlier tick already has is dropped. */
function unique(ticks: number[], labels: string[]): { ticks: number[]; labels: string[] } {
  const seen = new Set<string>();
  const out = { ticks: [] as number[], labels: [] as string[] };
  ticks.forEach((t, i) => {
    const label = labels[i]!;
    if (seen.has(label)) return;
    seen.add(label);
    out.ticks.push(t);
    out.labels.push(label);
  });
  return out;
}

/**
 * Ticks for a time axis from `start` to `end` (epoch ms): the shortest round step (TIME_STEPS)
 * whose ticks fit the axis' width side by side (each label and a gap) and number at most
 * `maxTicks`, at round wall-clock times of the zone; no two labels alike. A span of 0 gets one
 * tick.
 */
export function timeTicks(start: number, end: number, options: TimeTickOptions = {}): TimeTicks {
  const { width = 480, fontSize = 11, maxTicks = 8, timeZone, minStep = 0 } = options;
  const span = Math.max(0, end - start);
  const gap = fontSize * 1.5;
  let chosen: { ticks: number[]; labels: string[]; step: number } | null = null;
  if (Number.isFinite(start) && Number.isFinite(end) && span > 0) {
    for (const step of TIME_STEPS) {
      if (step < minStep && step !== TIME_STEPS[TIME_STEPS.length - 1]) continue;
      // Far too many ticks at this step: not worth computing (the last step is always tried).
      if (Math.floor(span / step) > maxTicks + 1 && step !== TIME_STEPS[TIME_STEPS.length - 1]) continue;
      const ticks = roundTimes(start, end, step, timeZone);
      const labels = ticks.map((t) => formatTimeTick(t, step, span, timeZone));
      const widest = labels.reduce((max, label) => Math.max(max, label.length), 0);
      const room = ticks.length * (labelWidth(widest, fontSize) + gap);
      chosen = { ...unique(ticks, labels), step };
      if (ticks.length <= maxTicks && room <= width) break;
    }
  }
  if (!chosen || chosen.ticks.length === 0) {
    // No round time inside the span (or no span): one tick at its start, to the second.
    const t = Number.isFinite(start) ? start : 0;
    chosen = { ticks: [t], labels: [formatTimeTick(t, SECOND, 0, timeZone)], step: SECOND };
  }
  const byTick = new Map(chosen.ticks.map((t, i) => [t, chosen.labels[i]!]));
  const { step } = chosen;
  return {
    ticks: chosen.ticks,
    labels: chosen.labels,
    step,
    format: (t: number) => byTick.get(t) ?? formatTimeTick(t, step, span, timeZone),
  };
}

/**
 * How a tick label at `value` on an axis from `start` to `end` is anchored so that it stays inside
 * the axis: labels within half their width of an end are pulled inwards ("start" at the left end,
 * "end" at the right one), the others centred.
 */
export function edgeAnchor(value: number, start: number, end: number, halfLabelPx: number, widthPx: number): "start" | "middle" | "end" {
  if (!(end > start) || !(widthPx > 0)) return "middle";
  const x = ((value - start) / (end - start)) * widthPx;
  if (x < halfLabelPx) return "start";
  if (widthPx - x < halfLabelPx) return "end";
  return "middle";
}

/** Round steps of a duration axis, in seconds. */
export const DURATION_STEPS_S: readonly number[] = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800,
];

function trimmed(value: number, digits: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/**
 * A duration in seconds for an axis, short: "0 s", "45 s", "1.5 min" (90 s), "2 h", "1.5 d"; at
 * most `digits` decimals in the largest unit that fits. An em dash when unknown.
 */
export function formatDurationCompact(seconds: number | null | undefined, digits = 1): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const sign = seconds < 0 ? "-" : "";
  const s = Math.abs(seconds);
  if (s < 60) return `${sign}${trimmed(s, digits)} s`;
  if (s < 3600) return `${sign}${trimmed(s / 60, digits)} min`;
  if (s < 86_400) return `${sign}${trimmed(s / 3600, digits)} h`;
  return `${sign}${trimmed(s / 86_400, digits)} d`;
}

/** Ticks of a duration axis: seconds from 0 up, the last at or above the largest value. */
export type DurationTicks = ValueTicks;

/**
 * Ticks for a value axis of durations (seconds) from 0 to at least `max`: a round step
 * (DURATION_STEPS_S) giving at most `maxTicks` ticks, labelled compactly, no two alike.
 */
export function durationTicks(max: number, maxTicks = 5): DurationTicks {
  const top = Number.isFinite(max) && max > 0 ? max : 0;
  const step =
    DURATION_STEPS_S.find((s) => Math.ceil(top / s) + 1 <= maxTicks) ??
    Math.ceil(top / (maxTicks - 1) / 86_400) * 86_400;
  const count = Math.max(1, Math.ceil(top / step));
  const ticks = Array.from({ length: count + 1 }, (_, i) => i * step);
  let labels = ticks.map((t) => formatDurationCompact(t));
  if (new Set(labels).size < labels.length) labels = ticks.map((t) => formatDurationCompact(t, 2));
  const byTick = new Map(ticks.map((t, i) => [t, labels[i]!]));
  return {
    ticks,
    labels,
    domain: [0, ticks[ticks.length - 1]!],
    format: (s: number) => byTick.get(s) ?? formatDurationCompact(s),
  };
}

/** A width for a value axis whose longest label is `labels`' longest: the labels never clip. */
export function valueAxisWidth(labels: readonly string[], fontSize = 12): number {
  const widest = labels.reduce((max, label) => Math.max(max, label.length), 1);
  return labelWidth(widest, fontSize) + 14;
}

export interface ValueTicks {
  /** From 0 up, the last at or above the largest value. */
  ticks: number[];
  labels: string[];
  domain: [number, number];
  format: (value: number) => string;
}

function decimals(value: number): number {
  const text = String(Number(value.toPrecision(6)));
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * Ticks for a value axis of counts or rates from 0 to at least `max`: a round step (1, 2, 2.5 or 5
 * times a power of ten; whole numbers only when `integers`), at most `maxTicks` ticks, labelled
 * short ("950", "12.5k", "1.25M", "0.25") with as many decimals as the step needs, so no two
 * labels are alike.
 */
export function countTicks(max: number, options: { maxTicks?: number; integers?: boolean } = {}): ValueTicks {
  const { maxTicks = 5, integers = false } = options;
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  const raw = top / Math.max(1, maxTicks - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  if (integers) step = Math.max(1, Math.ceil(step));
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  const last = ticks[ticks.length - 1]!;
  const [divisor, suffix] = last >= 1_000_000 ? [1_000_000, "M"] : last >= 10_000 ? [1000, "k"] : [1, ""];
  const digits = decimals(step / divisor);
  const format = (value: number) =>
    `${(value / divisor).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: digits })}${value === 0 ? "" : suffix}`;
  return { ticks, labels: ticks.map(format), domain: [0, last], format };
}
