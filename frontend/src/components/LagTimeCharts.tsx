// The recharts part of the group page's lag-over-time charts, in the lazily loaded chart chunk
// (with LagBars and LeadershipBars): the history of one topic (lag and lag seconds; write and
// consume rates) and the live per-partition lines. The time axis' ticks are round times chosen
// for the span and the chart's width (lib/chartTicks), the seconds axis steps at round durations;
// no label wraps, none repeats.
import { useMemo } from "react";
import { Area, ComposedChart, Legend, Line, LineChart, Tooltip } from "recharts";
import { countTicks, durationTicks, edgeAnchor, labelWidth, MINUTE, timeTicks, valueAxisWidth } from "../lib/chartTicks";
import { formatDuration, formatRate } from "../lib/format";
import type { HistoryPoint } from "../lib/lagHistory";
import { formatLocal } from "../lib/time";
import { chartSize, FALLBACK_CHART_WIDTH, horizontalGrid, oneLineTick, timeAxis, useMeasuredWidth, valueAxis } from "./chartAxis";

export const HISTORY_LAG_HEIGHT = 220;
export const HISTORY_RATE_HEIGHT = 150;
export const PARTITION_CHART_HEIGHT = 240;

const X_FONT = 11;
const Y_FONT = 12;

const LAG_COLOR = "#d97706";
const SECONDS_COLOR = "#7c3aed";
const WRITE_COLOR = "#2563eb";
const CONSUME_COLOR = "#16a34a";
/** One colour per partition line (at most this many lines are drawn). */
export const PARTITION_COLORS = [
  "#2563eb",
  "#d97706",
  "#16a34a",
  "#dc2626",
  "#7c3aed",
  "#0891b2",
  "#db2777",
  "#65a30d",
  "#92400e",
  "#475467",
];

/** The tooltip's time: "2026-06-09 14:05:30" in this browser's zone. */
const timeLabel = (value: unknown) => (typeof value === "number" ? formatLocal(value).slice(0, 19) : String(value));

/** The span the time axis covers: the first to the last point (a single point: a minute either side). */
function spanOf(times: number[]): [number, number] {
  if (times.length === 0) return [0, MINUTE];
  const start = times[0]!;
  const end = times[times.length - 1]!;
  return end > start ? [start, end] : [start - MINUTE, end + MINUTE];
}

/** The time axis of a chart whose plot area is `plotWidth` pixels wide. */
function useTimeAxis(times: number[], plotWidth: number) {
  const first = times[0];
  const last = times[times.length - 1];
  return useMemo(() => {
    const [start, end] = spanOf(first === undefined || last === undefined ? [] : [first, last]);
    const ticks = timeTicks(start, end, { width: plotWidth, fontSize: X_FONT });
    const anchor = (value: unknown, text: string) => edgeAnchor(Number(value), start, end, labelWidth(text.length, X_FONT) / 2, plotWidth);
    return {
      domain: [start, end] as [number, number],
      ticks: ticks.ticks,
      format: ticks.format,
      step: ticks.step,
      tick: oneLineTick(anchor),
    };
  }, [first, last, plotWidth]);
}

/** The lines drawn alike: smoothed, no dots, 2 px. */
const LINE = { type: "monotone", dot: false, strokeWidth: 2, isAnimationActive: false } as const;

/** A tooltip's value: a count or rate in full ("—" for none), or a duration. */
const countText = (value: unknown) => (value === null ? "—" : Number(value).toLocaleString("en-US"));
const durationText = (value: unknown) => formatDuration(value === null ? null : Number(value));

function maxOf(values: Iterable<number | null | undefined>): number {
  let max = 0;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v > max) max = v;
  return max;
}

export interface HistoryChartsProps {
  points: HistoryPoint[];
}

/** Lag (records, area, left axis) and lag in seconds (line, right axis); below, write and consume rates. */
export function HistoryCharts({ points }: HistoryChartsProps) {
  const [ref, measured] = useMeasuredWidth(FALLBACK_CHART_WIDTH);
  const seconds = useMemo(() => durationTicks(maxOf(points.map((p) => p.lag_seconds))), [points]);
  const lag = useMemo(() => countTicks(maxOf(points.map((p) => p.lag)), { integers: true }), [points]);
  const rates = useMemo(() => countTicks(maxOf(points.flatMap((p) => [p.write_per_s, p.consume_per_s]))), [points]);
  const secondsWidth = valueAxisWidth(seconds.labels, Y_FONT);
  // The two charts' left axes as wide as each other: their time axes line up.
  const leftWidth = Math.max(valueAxisWidth(lag.labels, Y_FONT), valueAxisWidth(rates.labels, Y_FONT));
  const times = useMemo(() => points.map((p) => p.t), [points]);
  // Both charts share the time axis; the lag chart's plot is the narrower one (two value axes).
  const axis = useTimeAxis(times, Math.max(120, measured - leftWidth - secondsWidth - 8));
  return (
    <div ref={ref} className="chart-measure" data-testid="history-charts" data-tick-step={axis.step}>
      <p className="chart-sub">Lag: records (area) and age of the oldest unread record (line)</p>
      <ComposedChart data={points} {...chartSize(HISTORY_LAG_HEIGHT, measured)} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} accessibilityLayer>
        {horizontalGrid()}
        {timeAxis(axis, X_FONT)}
        {valueAxis(lag, { yAxisId: "lag", width: leftWidth })}
        {valueAxis(seconds, { yAxisId: "seconds", orientation: "right" })}
        <Tooltip
          labelFormatter={timeLabel}
          formatter={(value, name) => [name === "Lag (s)" ? durationText(value) : countText(value), name]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Area
          yAxisId="lag"
          type="monotone"
          dataKey="lag"
          name="Lag"
          stroke={LAG_COLOR}
          fill={LAG_COLOR}
          fillOpacity={0.15}
          isAnimationActive={false}
          connectNulls={false}
        />
        <Line {...LINE} yAxisId="seconds" dataKey="lag_seconds" name="Lag (s)" stroke={SECONDS_COLOR} />
      </ComposedChart>
      <p className="chart-sub">Records per second written by producers and consumed by the group</p>
      <LineChart
        data={points}
        {...chartSize(HISTORY_RATE_HEIGHT, measured)}
        margin={{ top: 8, right: 8 + secondsWidth, bottom: 4, left: 0 }}
        accessibilityLayer
      >
        {horizontalGrid()}
        {timeAxis(axis, X_FONT)}
        {valueAxis(rates, { width: leftWidth })}
        <Tooltip labelFormatter={timeLabel} formatter={(value, name) => [formatRate(value === null ? null : Number(value)), name]} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line {...LINE} dataKey="write_per_s" name="Write" stroke={WRITE_COLOR} />
        <Line {...LINE} dataKey="consume_per_s" name="Consume" stroke={CONSUME_COLOR} strokeDasharray="5 3" />
      </LineChart>
    </div>
  );
}

export interface PartitionLinesProps {
  rows: { t: number; values: Record<string, number | null> }[];
  keys: string[];
  seconds: boolean;
}

/** One line per partition (`keys`), values by function so that topic names with dots stay keys. */
export function PartitionLines({ rows, keys, seconds }: PartitionLinesProps) {
  const [ref, measured] = useMeasuredWidth(FALLBACK_CHART_WIDTH);
  const values = useMemo(() => {
    const max = maxOf(rows.flatMap((r) => keys.map((k) => r.values[k])));
    return seconds ? durationTicks(max) : countTicks(max, { integers: true });
  }, [rows, keys, seconds]);
  const valueWidth = valueAxisWidth(values.labels, Y_FONT);
  const times = useMemo(() => rows.map((r) => r.t), [rows]);
  const axis = useTimeAxis(times, Math.max(120, measured - valueWidth - 16));
  return (
    <div ref={ref} className="chart-measure" data-testid="partition-lines" data-tick-step={axis.step}>
      <LineChart data={rows} {...chartSize(PARTITION_CHART_HEIGHT, measured)} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer>
        {horizontalGrid()}
        {timeAxis(axis, X_FONT)}
        {valueAxis(values)}
        <Tooltip
          labelFormatter={timeLabel}
          formatter={(value, name) => [seconds ? durationText(value) : countText(value), name]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {keys.map((key, i) => (
          <Line
            key={key}
            {...LINE}
            dataKey={(row: { values: Record<string, number | null> }) => row.values[key]}
            name={key}
            stroke={PARTITION_COLORS[i % PARTITION_COLORS.length]}
          />
        ))}
      </LineChart>
    </div>
  );
}

export default HistoryCharts;
