// The recharts part of the leadership chart, in its own chunk (loaded lazily
// by LeadershipChart) so that pages without a chart do not download recharts.
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { countTicks, valueAxisWidth } from "../lib/chartTicks";
import { oneLineTick } from "./chartAxis";

export const CHART_HEIGHT = 260;
/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 640;

const LEADER_COLOR = "#2563eb";
const REPLICA_COLOR = "#a9c1f5";

export interface BrokerBar {
  broker: string;
  leaders: number;
  replicas: number;
}

const tick = oneLineTick();

/** Leaders and replicas per broker as grouped bars, a dashed line at the mean leader count. */
export default function LeadershipBars({ data, mean }: { data: BrokerBar[]; mean: number }) {
  const canMeasure = typeof ResizeObserver !== "undefined";
  const values = countTicks(data.reduce((max, d) => Math.max(max, d.leaders, d.replicas, mean), 0), { integers: true });
  return (
    <BarChart
      data={data}
      {...(canMeasure
        ? { responsive: true, style: { width: "100%", height: CHART_HEIGHT } }
        : { width: FALLBACK_WIDTH, height: CHART_HEIGHT })}
      margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
      barGap={2}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e3e6eb" />
      <XAxis dataKey="broker" tickLine={false} axisLine={{ stroke: "#d9dde3" }} fontSize={12} tick={tick} interval="preserveStartEnd" minTickGap={8} />
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
      <Tooltip cursor={{ fill: "rgba(37, 99, 235, 0.06)" }} />
      <Legend iconType="square" wrapperStyle={{ fontSize: 12 }} />
      <ReferenceLine y={mean} stroke="#1d2330" strokeDasharray="4 4" ifOverflow="extendDomain" />
      <Bar dataKey="leaders" name="Leaders" fill={LEADER_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      <Bar dataKey="replicas" name="Replicas" fill={REPLICA_COLOR} radius={[3, 3, 0, 0]} isAnimationActive={false} />
    </BarChart>
  );
}
