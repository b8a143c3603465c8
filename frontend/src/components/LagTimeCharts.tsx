// The recharts part of the group page's lag-over-time charts, in the lazily loaded chart chunk
// (with LagBars and LeadershipBars): the history of one topic (lag and lag seconds; write and
// consume rates) and the live per-partition lines.
import { Area, CartesianGrid, ComposedChart, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatClock, formatDuration, formatRate } from "../lib/format";
import type { HistoryPoint } from "../lib/lagHistory";

/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 640;
export const HISTORY_LAG_HEIGHT = 220;
export const HISTORY_RATE_HEIGHT = 150;
export const PARTITION_CHART_HEIGHT = 240;

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

function sized(height: number) {
  return typeof ResizeObserver !== "undefined"
    ? { responsive: true, style: { width: "100%", height } }
    : { width: FALLBACK_WIDTH, height };
}

function formatCountTick(value: number): string {
  if (Math.abs(value) >= 1_000_000) return `${(value / 1_000_000).toLocaleString("en-US", { maximumFractionDigits: 1 })}M`;
  if (Math.abs(value) >= 10_000) return `${(value / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 })}k`;
  return value.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

/** "14:05" (a day's axis) or "14:05:30" (an hour's). */
function timeTick(withSeconds: boolean) {
  return (value: number) => {
    const clock = formatClock(new Date(value));
    return withSeconds ? clock : clock.slice(0, 5);
  };
}

const timeLabel = (value: unknown) => (typeof value === "number" ? new Date(value).toLocaleString() : String(value));

function timeAxis(withSeconds: boolean) {
  return (
    <XAxis
      dataKey="t"
      type="number"
      scale="time"
      domain={["dataMin", "dataMax"]}
      tickFormatter={timeTick(withSeconds)}
      tickLine={false}
      axisLine={{ stroke: "#d9dde3" }}
      fontSize={11}
      minTickGap={24}
    />
  );
}

export interface HistoryChartsProps {
  points: HistoryPoint[];
  /** Ticks with seconds (the hour's window). */
  fine: boolean;
}

/** Lag (records, area, left axis) and lag in seconds (line, right axis); below, write and consume rates. */
export function HistoryCharts({ points, fine }: HistoryChartsProps) {
  return (
    <>
      <p className="chart-sub">Lag: records (area) and age of the oldest unread record (line)</p>
      <ComposedChart data={points} {...sized(HISTORY_LAG_HEIGHT)} margin={{ top: 8, right: 8, bottom: 4, left: 0 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />
        {timeAxis(fine)}
        <YAxis yAxisId="lag" tickLine={false} axisLine={false} fontSize={12} width={56} tickFormatter={formatCountTick} />
        <YAxis
          yAxisId="seconds"
          orientation="right"
          tickLine={false}
          axisLine={false}
          fontSize={12}
          width={64}
          tickFormatter={(v: number) => formatDuration(v)}
        />
        <Tooltip
          labelFormatter={timeLabel}
          formatter={(value, name) =>
            name === "Lag (s)"
              ? [formatDuration(value === null ? null : Number(value)), name]
              : [value === null ? "—" : Number(value).toLocaleString("en-US"), name]
          }
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
        <Line
          yAxisId="seconds"
          type="monotone"
          dataKey="lag_seconds"
          name="Lag (s)"
          stroke={SECONDS_COLOR}
          dot={false}
          strokeWidth={2}
          isAnimationActive={false}
        />
      </ComposedChart>
      <p className="chart-sub">Records per second written by producers and consumed by the group</p>
      <LineChart data={points} {...sized(HISTORY_RATE_HEIGHT)} margin={{ top: 8, right: 72, bottom: 4, left: 0 }} accessibilityLayer>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />
        {timeAxis(fine)}
        <YAxis tickLine={false} axisLine={false} fontSize={12} width={56} tickFormatter={formatCountTick} />
        <Tooltip labelFormatter={timeLabel} formatter={(value, name) => [formatRate(value === null ? null : Number(value)), name]} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line type="monotone" dataKey="write_per_s" name="Write" stroke={WRITE_COLOR} dot={false} strokeWidth={2} isAnimationActive={false} />
        <Line
          type="monotone"
          dataKey="consume_per_s"
          name="Consume"
          stroke={CONSUME_COLOR}
          dot={false}
          strokeWidth={2}
          strokeDasharray="5 3"
          isAnimationActive={false}
        />
      </LineChart>
    </>
  );
}

export interface PartitionLinesProps {
  rows: { t: number; values: Record<string, number | null> }[];
  keys: string[];
  seconds: boolean;
}

/** One line per partition (`keys`), values by function so that topic names with dots stay keys. */
export function PartitionLines({ rows, keys, seconds }: PartitionLinesProps) {
  return (
    <LineChart data={rows} {...sized(PARTITION_CHART_HEIGHT)} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer>
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />
      {timeAxis(true)}
      <YAxis
        tickLine={false}
        axisLine={false}
        fontSize={12}
        width={64}
        tickFormatter={seconds ? (v: number) => formatDuration(v) : formatCountTick}
      />
      <Tooltip
        labelFormatter={timeLabel}
        formatter={(value, name) => [
          seconds ? formatDuration(value === null ? null : Number(value)) : value === null ? "—" : Number(value).toLocaleString("en-US"),
          name,
        ]}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {keys.map((key, i) => (
        <Line
          key={key}
          type="monotone"
          dataKey={(row: { values: Record<string, number | null> }) => row.values[key]}
          name={key}
          stroke={PARTITION_COLORS[i % PARTITION_COLORS.length]}
          dot={false}
          strokeWidth={2}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}

export default HistoryCharts;
