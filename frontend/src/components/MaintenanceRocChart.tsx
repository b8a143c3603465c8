// The recharts part of the models' ROC curve, loaded lazily (recharts is the largest dependency,
// as LagBars and LagTimeCharts do): the curve as [fpr, tpr] points and the diagonal of a model
// that guesses.
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis, type XAxisProps, type YAxisProps } from "recharts";
import { AXIS_LINE, chartSize, oneLineTick } from "./chartAxis";

export const ROC_CHART_HEIGHT = 300;
/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
const FALLBACK_WIDTH = 420;
const ROC_COLOR = "#2563eb";

export interface RocPoint {
  fpr: number;
  tpr: number;
}

const TICKS = [0, 0.25, 0.5, 0.75, 1];
const tick = (value: number) => value.toFixed(2).replace(/\.?0+$/, "") || "0";

/** What both axes are: a rate from 0 to 1, ticked at quarters. */
const RATE_AXIS = {
  type: "number",
  domain: [0, 1],
  ticks: TICKS,
  tickFormatter: tick,
  tick: oneLineTick(),
  interval: 0,
  tickLine: false,
  fontSize: 11,
} satisfies Partial<XAxisProps & YAxisProps>;
const AXIS_LABEL = { fontSize: 11, fill: "#667085" };

/** True positive rate over false positive rate, both 0..1, with the y = x reference. */
export default function MaintenanceRocChart({ points }: { points: RocPoint[] }) {
  return (
    <LineChart
      data={points}
      {...chartSize(ROC_CHART_HEIGHT, FALLBACK_WIDTH, FALLBACK_WIDTH + 40)}
      margin={{ top: 8, right: 16, bottom: 20, left: 4 }}
      accessibilityLayer
    >
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e6eb" />
      <XAxis
        dataKey="fpr"
        {...RATE_AXIS}
        axisLine={AXIS_LINE}
        label={{ value: "False positive rate", position: "insideBottom", offset: -12, ...AXIS_LABEL }}
      />
      <YAxis
        {...RATE_AXIS}
        axisLine={false}
        width={58}
        label={{ value: "True positive rate", angle: -90, position: "insideLeft", offset: 6, ...AXIS_LABEL }}
      />
      <ReferenceLine
        segment={[
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ]}
        stroke="#98a2b3"
        strokeDasharray="5 5"
        ifOverflow="visible"
      />
      <Tooltip
        labelFormatter={(value) => `False positive rate ${Number(value).toFixed(3)}`}
        formatter={(value) => [Number(value).toFixed(3), "True positive rate"]}
      />
      <Line type="linear" dataKey="tpr" name="ROC" stroke={ROC_COLOR} strokeWidth={2} dot={false} isAnimationActive={false} />
    </LineChart>
  );
}
