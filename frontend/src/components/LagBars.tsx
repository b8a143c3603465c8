// The recharts part of the lag chart, in its own chunk (loaded lazily by
// LagChart) so that pages without a chart do not download recharts.
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { countTicks, valueAxisWidth } from "../lib/chartTicks";
import { oneLineTick } from "./chartAxis";

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

const tick = oneLineTick();

/** Lag per partition as bars, one per topic-partition (labels on one line; the ones that would
 * overlap are left out, never wrapped). */
export default function LagBars({ data }: { data: LagBar[] }) {
  const canMeasure = typeof ResizeObserver !== "undefined";
  const values = countTicks(data.reduce((max, d) => Math.max(max, d.lag), 0), { integers: true });
  return (
    <BarChart
      data={data}
      {...(canMeasure
        ? { responsive: true, style: { width: "100%", height: LAG_CHART_HEIGHT } }
        : { width: FALLBACK_WIDTH, height: LAG_CHART_HEIGHT })}
      margin={{ top: 8, right: 24, bottom: 4, left: 0 }}
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
        tick={tick}
      />
      <YAxis
        type="number"
        ticks={values.ticks}
        domain={values.domain}
        interval={0}
        tickFormatter={values.format}
        tickLine={false}
        axisLine={false}
        fontSize={12}
        width={valueAxisWidth(values.labels)}
        tick={tick}
      />
      <Tooltip
        cursor={{ fill: "rgba(217, 119, 6, 0.08)" }}
        formatter={(value) => [Number(value).toLocaleString("en-US"), "Lag"]}
      />
      <Bar dataKey="lag" name="Lag" fill={LAG_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}
