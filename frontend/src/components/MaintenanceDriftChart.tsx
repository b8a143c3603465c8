// The recharts part of a model's feature drift, loaded lazily (as MaintenancePerformanceChart): the
// largest population-stability index of each scored day against the model's reference, the
// threshold as a dashed line, and the days on which a feature drifted (its PSI above its bar)
// marked in red. A day without a PSI is a gap in the line. The time axis is the performance
// chart's (UTC calendar days at round steps).
import { useMemo } from "react";
import { Line, LineChart, ReferenceLine, Tooltip, type DotItemDotProps } from "recharts";
import type { DriftDay } from "../api/maintenance";
import { countTicks, valueAxisWidth } from "../lib/chartTicks";
import { formatCount, plural } from "../lib/format";
import { chartSize, FALLBACK_CHART_WIDTH, horizontalGrid, useMeasuredWidth, valueAxis } from "./chartAxis";
import { dayAxis, useDayAxis } from "./MaintenancePerformanceChart";

export const DRIFT_CHART_HEIGHT = 220;
const FONT = 11;
const LINE_COLOR = "#2563eb";
/** A day with a drifted feature, and the threshold line. */
export const DRIFTED_COLOR = "#dc2626";

/** One scored day as drawn: `t` is its UTC midnight. */
export interface DriftPoint {
  t: number;
  day: string;
  maxPsi: number | null;
  rows: number | null;
  drifted: string[];
}

/** The days as points, oldest first (a day that does not parse is left out). */
export function driftPoints(days: DriftDay[]): DriftPoint[] {
  return days
    .map((d) => ({
      t: Date.parse(`${d.day}T00:00:00Z`),
      day: d.day,
      maxPsi: typeof d.max_psi === "number" && Number.isFinite(d.max_psi) ? d.max_psi : null,
      rows: d.rows,
      drifted: Array.isArray(d.drifted) ? d.drifted : [],
    }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t);
}

/** The tooltip's title: the day, its fleet and what drifted. */
function dayLabel(_label: unknown, payload: ReadonlyArray<{ payload?: DriftPoint }>): string {
  const p = payload[0]?.payload;
  if (!p) return "";
  const fleet = p.rows === null ? "" : ` · ${formatCount(p.rows)} ${plural(p.rows, "machine")}`;
  const drifted = p.drifted.length ? ` · drifted: ${p.drifted.join(", ")}` : " · no drift";
  return `${p.day}${fleet}${drifted}`;
}

/** The largest PSI per scored day, with the threshold and the drifted days marked. */
export default function MaintenanceDriftChart({ days, threshold }: { days: DriftDay[]; threshold: number }) {
  const points = useMemo(() => driftPoints(days), [days]);
  const largest = points.reduce((max, p) => Math.max(max, p.maxPsi ?? 0), 0);
  // The threshold stays in view (with some room above it) however small the PSIs are.
  const ticks = useMemo(() => countTicks(Math.max(largest, threshold * 1.2)), [largest, threshold]);
  const yWidth = valueAxisWidth(ticks.labels, FONT);
  const [ref, measured] = useMeasuredWidth(FALLBACK_CHART_WIDTH);
  const axis = useDayAxis(points, Math.max(120, measured - yWidth - 16));
  const dot = useMemo(
    () =>
      function DriftDot({ cx, cy, index }: DotItemDotProps) {
        const p = points[index];
        if (!p || p.maxPsi === null || typeof cx !== "number" || typeof cy !== "number") return null;
        const drifted = p.drifted.length > 0;
        return (
          <circle
            key={p.day}
            className={drifted ? "pm-drift-dot pm-drift-dot-drifted" : "pm-drift-dot"}
            data-day={p.day}
            cx={cx}
            cy={cy}
            r={drifted ? 4 : 2.5}
            fill={drifted ? DRIFTED_COLOR : LINE_COLOR}
            stroke="none"
          />
        );
      },
    [points],
  );
  return (
    <div ref={ref} className="chart-measure" data-testid="pm-drift-lines" data-points={points.length}>
      <LineChart data={points} {...chartSize(DRIFT_CHART_HEIGHT, measured)} margin={{ top: 12, right: 16, bottom: 4, left: 0 }} accessibilityLayer>
        {horizontalGrid()}
        {dayAxis(axis)}
        {valueAxis(ticks, { fontSize: FONT, width: yWidth })}
        <ReferenceLine
          y={threshold}
          stroke={DRIFTED_COLOR}
          strokeDasharray="5 5"
          ifOverflow="extendDomain"
          label={{ value: `threshold ${threshold}`, position: "insideTopRight", fontSize: FONT, fill: DRIFTED_COLOR }}
        />
        <Tooltip
          labelFormatter={dayLabel}
          formatter={(value) => [value === null || value === undefined ? "—" : Number(value).toFixed(3), "Largest PSI"]}
        />
        <Line
          type="linear"
          dataKey="maxPsi"
          name="Largest PSI"
          stroke={LINE_COLOR}
          strokeWidth={2}
          connectNulls={false}
          dot={dot}
          activeDot={{ r: 4 }}
          isAnimationActive={false}
        />
      </LineChart>
    </div>
  );
}
