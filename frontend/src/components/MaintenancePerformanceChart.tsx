// The recharts part of a model's realised performance per scored day, loaded lazily (recharts is
// the largest dependency, as MaintenanceRocChart): precision, recall and ROC AUC of each day's
// known predictions. A day whose value is undefined (no known prediction yet, or no failure among
// them) is a gap in its line, never a zero. The time axis is in UTC calendar days at round steps
// (lib/chartTicks), so a day that was not scored leaves its room.
import { useMemo } from "react";
import { Legend, Line, LineChart, Tooltip, YAxis, type DotItemDotProps } from "recharts";
import type { PerformanceDay } from "../api/maintenance";
import { DAY, edgeAnchor, labelWidth, timeTicks } from "../lib/chartTicks";
import { formatCount } from "../lib/format";
import { chartSize, FALLBACK_CHART_WIDTH, horizontalGrid, oneLineTick, timeAxis, useMeasuredWidth } from "./chartAxis";

export const PERFORMANCE_CHART_HEIGHT = 260;
/** Up to this many days every value is a dot too; beyond, only a value between two gaps is (a
 * line needs two points), so that a year of days stays a plain line. */
export const DOTS_MAX_DAYS = 62;

const X_FONT = 11;
const Y_AXIS_WIDTH = 40;
const RATE_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** The lines, in the legend's order. */
export const PERFORMANCE_LINES = [
  { key: "precision", name: "Precision", color: "#2563eb" },
  { key: "recall", name: "Recall", color: "#16a34a" },
  { key: "roc_auc", name: "ROC AUC", color: "#d97706" },
] as const;
type LineKey = (typeof PERFORMANCE_LINES)[number]["key"];

/** One scored day as drawn: `t` is its UTC midnight. */
export interface PerformancePoint extends PerformanceDay {
  t: number;
}

/** The days as points, oldest first (a day that does not parse is left out). */
export function performancePoints(days: PerformanceDay[]): PerformancePoint[] {
  return days
    .map((d) => ({ ...d, t: Date.parse(`${d.day}T00:00:00Z`) }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t);
}

const valueOf = (p: PerformancePoint | undefined, key: LineKey): number | null => {
  const v = p?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
};

/** The tooltip's title: the day and how many of its predictions are known yet. */
function dayLabel(_label: unknown, payload: ReadonlyArray<{ payload?: PerformancePoint }>): string {
  const p = payload[0]?.payload;
  if (!p) return "";
  return `${p.day} · ${formatCount(p.known)} known, ${formatCount(p.pending)} pending · ${formatCount(p.failures)} failed`;
}

/** The time axis of points at UTC midnights (`t`, oldest first): half a day of room either side,
 * so that the first and last dots are not cut (the drift chart's too). */
export function useDayAxis(points: readonly { t: number }[], plotWidth: number) {
  const first = points[0]?.t;
  const last = points[points.length - 1]?.t;
  return useMemo(() => {
    const start = (first ?? 0) - DAY / 2;
    const end = (last ?? 0) + DAY / 2;
    const ticks = timeTicks(start, end, { width: plotWidth, fontSize: X_FONT, timeZone: "UTC", minStep: DAY });
    // The widest step (30 d) over a year may still not fit a narrow chart: every n-th tick then.
    const room = labelWidth(6, X_FONT) + X_FONT * 1.5;
    const every = Math.max(1, Math.ceil((ticks.ticks.length * room) / Math.max(1, plotWidth)));
    const shown = ticks.ticks.filter((_, i) => i % every === 0);
    const anchor = (value: unknown, text: string) => edgeAnchor(Number(value), start, end, labelWidth(text.length, X_FONT) / 2, plotWidth);
    return { domain: [start, end] as [number, number], ticks: shown, format: ticks.format, tick: oneLineTick(anchor) };
  }, [first, last, plotWidth]);
}

/** The time axis `useDayAxis` laid out, at the font it was laid out for (the drift chart's too). */
export function dayAxis(axis: ReturnType<typeof useDayAxis>) {
  return timeAxis(axis, X_FONT);
}

/** Precision, recall and ROC AUC (0..1) per scored day, one point per day. */
export default function MaintenancePerformanceChart({ days }: { days: PerformanceDay[] }) {
  const points = useMemo(() => performancePoints(days), [days]);
  const [ref, measured] = useMeasuredWidth(FALLBACK_CHART_WIDTH);
  const axis = useDayAxis(points, Math.max(120, measured - Y_AXIS_WIDTH - 16));
  const few = points.length <= DOTS_MAX_DAYS;
  // A dot where there is a value and either few days or no neighbour to draw a line to (one
  // renderer per line, kept while the points are: recharts calls it for every point).
  const dots = useMemo(() => {
    const dotOf = (key: LineKey, color: string) =>
      function DayDot({ cx, cy, index }: DotItemDotProps) {
        const value = valueOf(points[index], key);
        if (value === null || typeof cx !== "number" || typeof cy !== "number") return null;
        const isolated = valueOf(points[index - 1], key) === null && valueOf(points[index + 1], key) === null;
        if (!few && !isolated) return null;
        return <circle key={`${key}-${index}`} className={`pm-day-dot pm-day-dot-${key}`} cx={cx} cy={cy} r={2.5} fill={color} stroke="none" />;
      };
    return new Map(PERFORMANCE_LINES.map((line) => [line.key, dotOf(line.key, line.color)]));
  }, [points, few]);
  return (
    <div ref={ref} className="chart-measure" data-testid="pm-performance-lines" data-points={points.length}>
      <LineChart
        data={points}
        {...chartSize(PERFORMANCE_CHART_HEIGHT, measured)}
        margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
        accessibilityLayer
      >
        {horizontalGrid()}
        {dayAxis(axis)}
        <YAxis
          type="number"
          domain={[0, 1]}
          ticks={RATE_TICKS}
          interval={0}
          tickFormatter={(v: number) => v.toFixed(2)}
          tick={oneLineTick()}
          tickLine={false}
          axisLine={false}
          fontSize={X_FONT}
          width={Y_AXIS_WIDTH}
        />
        <Tooltip
          labelFormatter={dayLabel}
          formatter={(value, name) => [value === null || value === undefined ? "—" : Number(value).toFixed(3), name]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {PERFORMANCE_LINES.map((line) => (
          <Line
            key={line.key}
            type="linear"
            dataKey={line.key}
            name={line.name}
            stroke={line.color}
            strokeWidth={2}
            // Undefined days are gaps: a zero would read as "no failure caught".
            connectNulls={false}
            dot={dots.get(line.key)}
            activeDot={{ r: 3.5 }}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </div>
  );
}
