// The recharts part of the leadership chart, in its own chunk (loaded lazily
// by LeadershipChart) so that pages without a chart do not download recharts.
import { Bar, BarChart, Legend, ReferenceLine, Tooltip } from "recharts";
import { countTicks } from "../lib/chartTicks";
import { categoryAxis, chartSize, horizontalGrid, valueAxis } from "./chartAxis";

export const CHART_HEIGHT = 260;

const LEADER_COLOR = "#2563eb";
const REPLICA_COLOR = "#a9c1f5";

export interface BrokerBar {
  broker: string;
  leaders: number;
  replicas: number;
}

/** Leaders and replicas per broker as grouped bars, a dashed line at the mean leader count. */
export default function LeadershipBars({ data, mean }: { data: BrokerBar[]; mean: number }) {
  const values = countTicks(data.reduce((max, d) => Math.max(max, d.leaders, d.replicas, mean), 0), { integers: true });
  return (
    <BarChart
      data={data}
      {...chartSize(CHART_HEIGHT)}
      margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
      barGap={2}
      accessibilityLayer
    >
      {horizontalGrid()}
      {categoryAxis("broker", 12)}
      {valueAxis(values)}
      <Tooltip cursor={{ fill: "rgba(37, 99, 235, 0.06)" }} />
      <Legend iconType="square" wrapperStyle={{ fontSize: 12 }} />
      <ReferenceLine y={mean} stroke="#1d2330" strokeDasharray="4 4" ifOverflow="extendDomain" />
      <Bar dataKey="leaders" name="Leaders" fill={LEADER_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      <Bar dataKey="replicas" name="Replicas" fill={REPLICA_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}
