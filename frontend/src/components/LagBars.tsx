// The recharts part of the lag chart, in its own chunk (loaded lazily by
// LagChart) so that pages without a chart do not download recharts.
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";

export const LAG_CHART_HEIGHT = 240;
/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 640;
const LAG_COLOR = "#d97706";

export interface LagBar {
  /** "orders-3" */
  label: string;
  topic: string;
  partition: number;
  lag: number;
}

function formatTick(value: number): string {
  if (Math.abs(value) >= 1_000_000) return `${(value / 1_000_000).toLocaleString("en-US", { maximumFractionDigits: 1 })}M`;
  if (Math.abs(value) >= 10_000) return `${(value / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 })}k`;
  return value.toLocaleString("en-US");
}

/** Lag per partition as bars, one per topic-partition. */
export default function LagBars({ data }: { data: LagBar[] }) {
  const canMeasure = typeof ResizeObserver !== "undefined";
  return (
    <BarChart
      data={data}
      {...(canMeasure
        ? { responsive: true, style: { width: "100%", height: LAG_CHART_HEIGHT } }
        : { width: FALLBACK_WIDTH, height: LAG_CHART_HEIGHT })}
      margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />
      <XAxis
        dataKey="label"
        tickLine={false}
        axisLine={{ stroke: "#d9dde3" }}
        fontSize={11}
        interval="preserveStartEnd"
        minTickGap={8}
      />
      <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} width={56} tickFormatter={formatTick} />
      <Tooltip
        cursor={{ fill: "rgba(217, 119, 6, 0.08)" }}
        formatter={(value) => [Number(value).toLocaleString("en-US"), "Lag"]}
      />
      <Bar dataKey="lag" name="Lag" fill={LAG_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}
