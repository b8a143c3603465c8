// The recharts part of the lag chart, in its own chunk (loaded lazily by
// LagChart) so that pages without a chart do not download recharts.
import { Bar, BarChart, Tooltip } from "recharts";
import { countTicks } from "../lib/chartTicks";
import { categoryAxis, chartSize, horizontalGrid, valueAxis } from "./chartAxis";

export const LAG_CHART_HEIGHT = 240;
const LAG_COLOR = "#d97706";

export interface LagBar {
  /** "orders-3" */
  label: string;
  topic: string;
  partition: number;
  lag: number;
}

/** Lag per partition as bars, one per topic-partition (labels on one line; the ones that would
 * overlap are left out, never wrapped). */
export default function LagBars({ data }: { data: LagBar[] }) {
  const values = countTicks(data.reduce((max, d) => Math.max(max, d.lag), 0), { integers: true });
  return (
    <BarChart
      data={data}
      {...chartSize(LAG_CHART_HEIGHT)}
      margin={{ top: 8, right: 24, bottom: 4, left: 0 }}
      accessibilityLayer
    >
      {horizontalGrid()}
      {categoryAxis("label", 11)}
      {valueAxis(values)}
      <Tooltip
        cursor={{ fill: "rgba(217, 119, 6, 0.08)" }}
        formatter={(value) => [Number(value).toLocaleString("en-US"), "Lag"]}
      />
      <Bar dataKey="lag" name="Lag" fill={LAG_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}
